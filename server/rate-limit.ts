/**
 * Requests per key: a key (or, without one, an address) that sends more than the server's limit within its window is
 * answered 429 with `Retry-After` until the window moves on, so one client cannot take an API process for itself.
 * Counted per API process (a team server behind a load balancer allows a multiple of it in all).
 */
import { createHash } from 'node:crypto';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from './context';
import { ApiError } from './errors';

export { rateLimit };

/** The bucket of a request: its key, hashed (no key is kept in memory as it was sent), else its address. */
function bucketOf(request: FastifyRequest): string {
  const key = request.headers['x-api-key'];
  return typeof key === 'string' && key !== '' ? `key:${createHash('sha256').update(key).digest('base64url')}` : `address:${request.ip}`;
}

/** The plugin's options for the server's limit. */
export function rateLimitOptions(limit: NonNullable<ServerConfig['rateLimit']>): RateLimitPluginOptions {
  return {
    global: true,
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: bucketOf,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, `Too many requests with this key: at most ${context.max} in ${context.after}. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`),
  };
}
