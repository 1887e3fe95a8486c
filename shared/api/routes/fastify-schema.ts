/** The part of a route the server hands Fastify. */
import type { TSchema } from 'typebox';
import { Problem } from '../schemas';
import type { JsonBody, JsonResponse, ProblemResponse, RouteDefinition } from './definition';

type FastifyResponseSchemas<Responses> = {
  [Status in keyof Responses as Responses[Status] extends JsonResponse | ProblemResponse ? Status : never]: Responses[Status] extends JsonResponse<infer S>
    ? S
    : typeof Problem;
};

/**
 * The part of a route Fastify validates and serialises with, typed so that Fastify's TypeBox type provider types the
 * handler: JSON bodies only, and a schema per JSON or problem answer.
 */
export type FastifyRouteSchema<R extends RouteDefinition> = {
  params: R['params'];
  querystring: R['querystring'];
  headers: R['headers'];
  body: R['body'] extends JsonBody<infer S> ? S : undefined;
  response: FastifyResponseSchemas<R['responses']>;
};

/**
 * The Fastify `schema` of a route. Binary bodies and bodiless answers get no schema: Fastify must neither parse
 * content as JSON nor serialise an empty answer.
 */
export function fastifyRouteSchema<R extends RouteDefinition>(route: R): FastifyRouteSchema<R> {
  const response: Record<number, TSchema> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    if (answer.kind === 'json') response[Number(status)] = answer.schema;
    else if (answer.kind === 'problem') response[Number(status)] = Problem;
  }
  // Absent parts are left out: Fastify warns about a part that is present but undefined.
  return {
    ...(route.params === undefined ? {} : { params: route.params }),
    ...(route.querystring === undefined ? {} : { querystring: route.querystring }),
    ...(route.headers === undefined ? {} : { headers: route.headers }),
    ...(route.body?.kind === 'json' ? { body: route.body.schema } : {}),
    response,
  } as FastifyRouteSchema<R>;
}
