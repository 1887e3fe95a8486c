/**
 * When a failed API call is tried again, and after how long. Pure functions over what one attempt got, so the rules
 * are tested without a network.
 *
 * The rule for requests that change state: an attempt whose request may have reached the server may also have been
 * applied there, even when its answer was lost (a timeout, a connection reset while reading). Repeating a GET, PUT or
 * DELETE is harmless (RFC 9110 §9.2.2), so those are retried after any transient failure. A POST is repeated only when
 * the server cannot have acted on it — no connection was ever made, or the answer says the request was not processed
 * (408, 429) — or when the caller vouches that a repeat is harmless: it passed `retryUnsafe`, or it sends an
 * `Idempotency-Key` so the server recognises the repeat. Otherwise a lost POST answer is returned to the caller, whose
 * own reconciliation (the sync engine's next pull) finds out what happened. An attempt that timed out is not repeated
 * for any method: the call ends within one timeout, so its caller learns at once that the server is not answering.
 */
import type { NetworkError } from '../../shared/api/client';
import { assertNever } from '../../shared/api/enums';
import type { HttpMethod } from '../../shared/api/routes';

/** How often and how patiently a call is tried. */
export interface RetryPolicy {
  /** Attempts in total, the first one included. */
  attempts: number;
  /** The backoff ceiling of the first retry; it doubles with each further one. */
  baseDelayMs: number;
  /** No wait is longer; a server asking for a longer one (Retry-After) gets its answer returned instead. */
  maxDelayMs: number;
}

/** The policy of a client that sets none. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/** What one attempt got, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: 'ok' }
  | {
      kind: 'problem';
      status: number;
      /** The answer's Retry-After header, if it had one. */
      retryAfter?: string | null;
    }
  | {
      kind: 'network';
      reason: NetworkError['reason'];
      /** False only when no connection was made, so the server cannot have seen the request. */
      connected: boolean;
    };

/** What the call is, beyond its outcome. */
export interface RetryContext {
  method: HttpMethod;
  /** The caller vouches that a repeat is harmless: `retryUnsafe`, or an `Idempotency-Key` header. */
  repeatable: boolean;
  /** The body can be sent again: not a one-shot stream that the failed attempt already read from. */
  bodyReplayable: boolean;
}

/** Statuses that say the request was not processed, so repeating it is safe for every method. */
const NOT_PROCESSED_STATUSES: ReadonlySet<number> = new Set([408, 429]);
/** Server errors that repeat themselves: the server does not support the method or the HTTP version. */
const PERMANENT_SERVER_ERRORS: ReadonlySet<number> = new Set([501, 505]);

function isIdempotent(method: HttpMethod): boolean {
  return method !== 'POST';
}

/** Whether an attempt's outcome is worth another attempt; the attempt budget and waits are `nextRetryDelayMs`'s. */
export function isRetriable(outcome: AttemptOutcome, context: RetryContext): boolean {
  if (!context.bodyReplayable) return false;
  const repeatSafe = isIdempotent(context.method) || context.repeatable;
  switch (outcome.kind) {
    case 'ok':
      return false;
    case 'problem':
      if (NOT_PROCESSED_STATUSES.has(outcome.status)) return true;
      if (outcome.status >= 500 && outcome.status <= 599 && !PERMANENT_SERVER_ERRORS.has(outcome.status)) return repeatSafe;
      return false;
    case 'network':
      switch (outcome.reason) {
        case 'unreachable':
          return !outcome.connected || repeatSafe;
        // Silence for the whole timeout: the server is not answering, and asking again at once would keep the caller
        // waiting (and the call's queue slot taken) for another timeout. The caller tries later (the sync's backoff,
        // an upload's wait), so a paused server is told within one timeout.
        case 'timeout':
          return false;
        // The caller gave up, the request could not be built, or the server answered 2xx with a body that is not what
        // the route declares: none of these change by asking again.
        case 'aborted':
        case 'invalid-request':
        case 'invalid-response':
          return false;
        default:
          return assertNever(outcome.reason, 'network failure reason');
      }
    default:
      return assertNever(outcome, 'attempt outcome');
  }
}

/** The "full jitter" backoff before retry number `retry` (1 for the first): uniform in [0, min(max, base·2^(retry-1))). */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** A Retry-After value (delay-seconds or an HTTP date) as milliseconds from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only date forms: a bare or signed number that is not delay-seconds would otherwise parse as a year.
  if (!/[A-Za-z]/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The wait before the next attempt, or undefined when there is none: the outcome is final, `attemptsMade` used up the
 * budget, or the server's Retry-After exceeds `maxDelayMs` (waiting for it would hold the call's queue slot that long;
 * retrying sooner would go against what the server asked). Retry-After is the least wait; the jittered backoff may be
 * longer.
 */
export function nextRetryDelayMs(
  outcome: AttemptOutcome,
  context: RetryContext,
  attemptsMade: number,
  policy: RetryPolicy,
  random: () => number,
  nowMs: number,
): number | undefined {
  if (attemptsMade >= policy.attempts || !isRetriable(outcome, context)) return undefined;
  const backoff = backoffDelayMs(attemptsMade, policy, random);
  const asked = outcome.kind === 'problem' ? parseRetryAfter(outcome.retryAfter, nowMs) : undefined;
  if (asked === undefined) return backoff;
  if (asked > policy.maxDelayMs) return undefined;
  return Math.max(asked, backoff);
}

/** A complete policy from a partial one; throws RangeError for values no client can work with. */
export function resolveRetryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...withoutUndefined(partial) };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) {
    throw new RangeError(`Retry attempts must be a whole number of at least 1, not ${policy.attempts}.`);
  }
  if (!(policy.baseDelayMs >= 0) || !(policy.maxDelayMs >= policy.baseDelayMs)) {
    throw new RangeError('Retry delays must be at least 0, with maxDelayMs not below baseDelayMs.');
  }
  return policy;
}

function withoutUndefined(partial: Partial<RetryPolicy>): Partial<RetryPolicy> {
  return Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined));
}
