/**
 * The principal of a keyed request: a client past its failed authentications is refused first (429 with Retry-After),
 * before its key is looked up; then a missing, unknown or expired key is 401 and counts as a failure of that client.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context';
import { ApiError } from '../errors';
import { FailedAuthentications } from './failed-authentications';
import type { Principal } from './principal';
import { principalForKey } from './tokens';

/** Resolves the principal of a request's `X-API-Key`, or throws the problem to answer. */
export type Authenticate = (request: FastifyRequest, reply: FastifyReply) => Promise<Principal>;

/** The authentication of one app, with its own count of failures. */
export function authenticator(ctx: ServerContext): Authenticate {
  const limit = ctx.config.failedAuthenticationLimit;
  const failures = limit === null ? undefined : new FailedAuthentications(limit);
  return async (request, reply) => {
    const now = ctx.now().getTime();
    const retryAfter = failures?.retryAfterSeconds(request.ip, now);
    if (retryAfter !== undefined && limit !== null) {
      reply.header('retry-after', String(retryAfter));
      throw new ApiError(
        429,
        `Too many requests from this address without a valid API key: at most ${limit.max} in ${limit.windowMs / 1000} seconds. Try again in ${retryAfter} seconds.`,
      );
    }
    const key = request.headers['x-api-key'];
    if (typeof key !== 'string' || key === '') {
      failures?.recordFailure(request.ip, now);
      throw new ApiError(401, 'The X-API-Key header is missing.');
    }
    const principal = await principalForKey(ctx.db, key, ctx.now());
    if (principal === undefined) {
      failures?.recordFailure(request.ip, now);
      throw new ApiError(401, 'The API key is unknown or has expired.');
    }
    return principal;
  };
}
