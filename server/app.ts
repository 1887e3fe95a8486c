import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { API_PREFIXES, API_VERSIONS, fastifyRouteSchema, routesByVersion, type OperationId, type RouteDefinition } from '../shared/api/routes';
import { Level, type Principal } from './auth/principal';
import { requireLevel } from './auth/scope';
import { authenticator } from './auth/authentication';
import type { ServerContext } from './context';
import { ApiError } from './errors';
import { handleError, problemBody, sendProblem } from './problem-handler';
import { honoursIdempotencyKey, idempotencyHooks } from './idempotency';
import { operationHandlers } from './routes';
import type { OperationCall, OperationHandler, StreamedReply } from './routes/operation';
import { requiredLevel, resolvePathScope } from './routes/access';
import { rateLimit, rateLimitOptions } from './rate-limit';
import { checkBodyValues, checkTexts } from './request-values';

/** Options of the HTTP layer. */
export interface AppOptions {
  logger: boolean;
}

/** A caller of a route that needs no key: sees nothing, may do nothing. */
const anonymous: Principal = { tokenId: '', accountId: '', scopeKind: 'building', scopeId: null, level: Level.None };

/** The media type of a request without parameters, lower case. */
function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether a media type is one of the JSON types of spec §4. */
function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type === 'text/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Whether a binary body of this media type is accepted by the route. */
function acceptsBinary(route: RouteDefinition, type: string): boolean {
  if (route.body?.kind !== 'binary') return false;
  return route.body.contentTypes.some((accepted) => accepted === '*/*' || accepted === type);
}

/** Any handler's reply, as the sending side sees it. */
type AnyReply = StreamedReply | { status: number; value: unknown; location?: string };

/** The path parameters of a route that are uuids. */
function uuidParameterNames(route: RouteDefinition): readonly string[] {
  const properties = (route.params?.properties ?? {}) as Record<string, { format?: string }>;
  return Object.keys(properties).filter((name) => properties[name]?.format === 'uuid');
}

/** Path uuids in lower case, as they are stored: ids are case-insensitive on the wire, as on the platform. */
function lowerCaseUuids(params: Record<string, string>, names: readonly string[]): Record<string, string> {
  if (names.length === 0) return params;
  const lowered = { ...params };
  for (const name of names) {
    const value = lowered[name];
    if (value !== undefined) lowered[name] = value.toLowerCase();
  }
  return lowered;
}

/** A hook answering 415 when a body comes in a content type the route does not take. */
function contentTypeCheck(route: RouteDefinition): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const type = mediaType(request);
    const hasBody = request.body !== undefined && request.body !== null;
    if (route.body?.kind === 'json' && hasBody && !isJsonMediaType(type)) {
      throw new ApiError(415, `This operation takes a JSON body (application/json), not '${type || 'none'}'.`);
    }
    if (route.body?.kind === 'binary' && !acceptsBinary(route, type)) {
      throw new ApiError(415, `This operation takes ${route.body.contentTypes.join(' or ')}, not '${type || 'none'}'.`);
    }
  };
}

/** Sends a handler's reply: JSON with the declared status, an empty answer, or a stream. */
function sendReply(reply: FastifyReply, result: AnyReply): FastifyReply {
  if ('stream' in result) {
    reply.status(result.status).type(result.contentType);
    if (result.contentLength !== undefined) reply.header('content-length', result.contentLength);
    if (result.fileName !== undefined) {
      reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(result.fileName)}`);
    }
    return reply.send(result.stream);
  }
  reply.status(result.status);
  if (result.location !== undefined) reply.header('location', result.location);
  if (result.value === undefined) return reply.send();
  // Fastify sends a bare string as text; the spec's image and logo answers are a JSON string.
  if (typeof result.value === 'string') return reply.type('application/json; charset=utf-8').send(JSON.stringify(result.value));
  return reply.send(result.value);
}

/** Builds the Fastify app (without listening): content types, auth, every route of both versions, one error handler. */
export async function buildApp(ctx: ServerContext, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { level: 'info', redact: ['req.headers["x-api-key"]'] } : false,
    bodyLimit: ctx.config.maxJsonBytes,
    // Slow clients: headers within a time, no connection idle for long, and an end to every request.
    // Node looks at the deadlines on a timer of its own (every 30 s by default): often enough for the ones set here.
    http: { headersTimeout: ctx.config.headersTimeoutMs, connectionsCheckingInterval: Math.min(30_000, Math.ceil(ctx.config.headersTimeoutMs / 2)) },
    connectionTimeout: ctx.config.idleTimeoutMs,
    requestTimeout: ctx.config.requestTimeoutMs,
    exposeHeadRoutes: false,
    // Router errors (too long a parameter, a bad URL encoding) answer problem details like every other error.
    frameworkErrors: (error, request, reply) => handleError(error, request, reply),
    // Element ids and file names may be long; the default 100-character limit would answer 414.
    routerOptions: { maxParamLength: 1000, ignoreTrailingSlash: true },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
  });

  app.setErrorHandler(handleError);
  if (ctx.config.rateLimit !== null) await app.register(rateLimit, rateLimitOptions(ctx.config.rateLimit));
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problemBody(404, `No route ${request.method} ${request.url.split('?')[0]}.`, request.url.split('?')[0] ?? '')),
  );

  // JSON in every spelling of spec §4; an empty body is no body (clients send none for setimporting and the like).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  const parseJson = (_request: FastifyRequest, source: string): unknown => {
    if (source.trim() === '') return undefined;
    try {
      return JSON.parse(source) as unknown;
    } catch {
      throw new ApiError(400, 'The body is not valid JSON.');
    }
  };
  app.addContentTypeParser(['application/json', 'text/json'], { parseAs: 'string' }, async (request: FastifyRequest, text: string) => parseJson(request, text));
  app.addContentTypeParser(/^application\/[^;]*\+json/, { parseAs: 'string' }, async (request: FastifyRequest, text: string) => parseJson(request, text));
  // Everything else passes through as a stream: file content is never buffered; routes check their content types.
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  // No text holds U+0000: PostgreSQL cannot store it, and a local workspace must move to a team server as it is.
  // Paths and queries are checked before authentication, which may already look a path's resource up.
  app.addHook('onRequest', async (request) => {
    checkTexts(request.params, 'params');
    checkTexts(request.query, 'query');
  });

  // After validation, which coerces types: bodies nested too deep, text holding U+0000 and numbers that are not finite.
  app.addHook('preHandler', async (request) => checkBodyValues(request.body, request.query));

  const principals = new WeakMap<FastifyRequest, Principal>();
  const authenticate = authenticator(ctx);
  const idempotency = idempotencyHooks(ctx, (request) => principals.get(request));
  for (const version of API_VERSIONS) {
    const prefix = API_PREFIXES[version];
    const table = routesByVersion[version] as Readonly<Record<OperationId, RouteDefinition>>;
    for (const operationId of Object.keys(table) as OperationId[]) {
      const route = table[operationId];
      const handler = operationHandlers[operationId] as OperationHandler<OperationId>;
      const level = requiredLevel(route);
      const uuidParams = uuidParameterNames(route);
      app.route({
        method: route.method,
        url: `${prefix}${route.path}`,
        schema: fastifyRouteSchema(route),
        // Authentication comes first, so a caller without a valid key learns nothing about bodies or resources.
        onRequest: async (request, reply) => {
          if (route.access === undefined) return;
          const { scope } = route.access;
          const principal = await authenticate(request, reply);
          if (principal.level < level) {
            // Existence is never revealed: a resource outside the scope answers 404 before a low level answers 403.
            await resolvePathScope(ctx, principal, scope, lowerCaseUuids(request.params as Record<string, string>, uuidParams));
            requireLevel(principal, level);
          }
          principals.set(request, principal);
        },
        // Routes without a body skip the content-type check: one hook less on every read.
        ...(route.body === undefined ? {} : { preValidation: contentTypeCheck(route) }),
        ...(honoursIdempotencyKey(route) ? { preHandler: idempotency.preHandler, onSend: idempotency.onSend } : {}),
        handler: async (request, reply) => {
          const principal = principals.get(request) ?? anonymous;
          const host = request.headers.host ?? `${request.hostname}`;
          const call: OperationCall<OperationId> = {
            ctx,
            principal,
            version,
            params: lowerCaseUuids(request.params as Record<string, string>, uuidParams) as never,
            query: request.query as never,
            headers: request.headers as never,
            // A binary route with no body gets an empty stream, so an empty upload is an empty file, never a crash.
            body: (route.body?.kind === 'binary' && request.body === undefined ? Readable.from([]) : request.body) as never,
            contentType: route.body === undefined ? '' : mediaType(request),
            baseUrl: `${request.protocol}://${host}`,
            prefix,
          };
          return sendReply(reply, (await handler(call)) as AnyReply);
        },
      });
    }
  }
  await app.ready();
  return app;
}
