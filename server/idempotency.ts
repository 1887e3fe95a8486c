import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertNever } from '../shared/api/enums';
import type { RouteDefinition } from '../shared/api/routes';
import type { Principal } from './auth/principal';
import type { ServerContext } from './context';
import { problemBody, sendProblem } from './problem-handler';
import {
  completeIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
  REPLAYED_HEADERS,
  type IdempotencyHold,
  type StoredResponse,
} from './services/idempotency';

/** The request header of the extension, as Fastify names headers. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** How often expired records are swept, besides being replaced when their key comes back. */
const sweepIntervalMs = 60 * 60 * 1000;

/** The two hooks that give a route the extension. */
export interface IdempotencyHooks {
  /** After authentication and validation: reserves the key, or answers a replay, 409 or 422 instead of the handler. */
  preHandler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Before the answer leaves: keeps a 2xx answer for replays, frees the key after any other. */
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

/** Whether a route honours `Idempotency-Key`: the route table declares the header where it does. */
export function honoursIdempotencyKey(route: RouteDefinition): boolean {
  return route.headers?.properties[IDEMPOTENCY_KEY_HEADER] !== undefined;
}

/** The answer bytes Fastify is about to send, or null for a stream (never kept). */
function payloadBytes(payload: unknown): Buffer | undefined | null {
  if (payload === undefined || payload === null) return undefined;
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (Buffer.isBuffer(payload)) return payload;
  return null;
}

/** The headers of an answer that a replay repeats. */
function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/** Sends a stored answer as it was first sent, marked as a replay. */
function sendReplay(reply: FastifyReply, response: StoredResponse): FastifyReply {
  reply.status(response.status).headers(response.headers).header('idempotent-replayed', 'true');
  // A Buffer is sent as it is: no serialiser runs over the stored bytes.
  return response.body === undefined ? reply.send() : reply.send(response.body);
}

/**
 * The hooks of the `Idempotency-Key` extension, shared by every route that declares the header. `principalOf` gives
 * the authenticated caller; requests without the header, or without a key-authenticated caller, pass untouched.
 */
export function idempotencyHooks(ctx: ServerContext, principalOf: (request: FastifyRequest) => Principal | undefined): IdempotencyHooks {
  const holds = new WeakMap<FastifyRequest, IdempotencyHold>();
  let nextSweepAt = 0;
  return {
    preHandler: async (request, reply) => {
      const key = request.headers[IDEMPOTENCY_KEY_HEADER];
      const apiKey = request.headers['x-api-key'];
      const principal = principalOf(request);
      if (typeof key !== 'string' || typeof apiKey !== 'string' || principal === undefined) return undefined;
      const nowMs = ctx.now().getTime();
      if (nowMs >= nextSweepAt) {
        nextSweepAt = nowMs + sweepIntervalMs;
        await deleteExpiredIdempotencyKeys(ctx);
      }
      const queryAt = request.url.indexOf('?');
      const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
      const reservation = await reserveIdempotencyKey(ctx, {
        tokenId: principal.tokenId,
        apiKey,
        method: request.method,
        path,
        target: request.url,
        key,
        body: request.body,
      });
      switch (reservation.kind) {
        case 'proceed':
          holds.set(request, reservation.hold);
          return undefined;
        case 'replay':
          return sendReplay(reply, reservation.response);
        case 'mismatch':
          return sendProblem(
            reply,
            problemBody(422, 'The Idempotency-Key was used for another request; send a new key for a new request.', path, [
              { path: `headers.${IDEMPOTENCY_KEY_HEADER}`, message: 'was used for another request' },
            ]),
          );
        case 'in-progress':
          reply.header('retry-after', '1');
          return sendProblem(reply, problemBody(409, 'A request with this Idempotency-Key is still in progress; retry later.', path));
        default:
          return assertNever(reservation, 'reservation');
      }
    },
    onSend: async (request, reply, payload) => {
      const hold = holds.get(request);
      if (hold === undefined) return payload;
      holds.delete(request);
      const body = payloadBytes(payload);
      try {
        if (reply.statusCode >= 200 && reply.statusCode < 300 && body !== null) {
          await completeIdempotencyKey(ctx, hold, { status: reply.statusCode, headers: replayedHeaders(reply), body });
        } else {
          await releaseIdempotencyKey(ctx, hold);
        }
      } catch (error) {
        // The work is done and its answer stands; the key stays in progress until its lease ends.
        request.log.error({ err: error }, 'could not record the answer of an Idempotency-Key');
      }
      return payload;
    },
  };
}
