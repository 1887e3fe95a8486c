import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  isRetriable,
  nextRetryDelayMs,
  parseRetryAfter,
  resolveRetryPolicy,
  type AttemptOutcome,
  type RetryContext,
} from '../../../../electron/http/retry-policy';

const get: RetryContext = { method: 'GET', repeatable: false, bodyReplayable: true };
const put: RetryContext = { method: 'PUT', repeatable: false, bodyReplayable: true };
const del: RetryContext = { method: 'DELETE', repeatable: false, bodyReplayable: true };
const post: RetryContext = { method: 'POST', repeatable: false, bodyReplayable: true };
const keyedPost: RetryContext = { method: 'POST', repeatable: true, bodyReplayable: true };

const problem = (status: number, retryAfter?: string): AttemptOutcome => ({ kind: 'problem', status, retryAfter: retryAfter ?? null });
const lost = (reason: 'unreachable' | 'timeout', connected = true): AttemptOutcome => ({ kind: 'network', reason, connected });

describe('isRetriable', () => {
  it.each([
    ['a success', { kind: 'ok' } as AttemptOutcome, false],
    ['a timeout, which ends the call: the server is not answering', lost('timeout'), false],
    ['a lost connection', lost('unreachable'), true],
    ['500', problem(500), true],
    ['502', problem(502), true],
    ['503', problem(503), true],
    ['504', problem(504), true],
    ['429', problem(429), true],
    ['408', problem(408), true],
    ['400', problem(400), false],
    ['401', problem(401), false],
    ['403', problem(403), false],
    ['404', problem(404), false],
    ['409', problem(409), false],
    ['413', problem(413), false],
    ['501, which says the method is not supported', problem(501), false],
    ['505', problem(505), false],
    ['an aborted call', { kind: 'network', reason: 'aborted', connected: true } as AttemptOutcome, false],
    ['a request that could not be built', { kind: 'network', reason: 'invalid-request', connected: false } as AttemptOutcome, false],
    ['an answer that is not what the route declares', { kind: 'network', reason: 'invalid-response', connected: true } as AttemptOutcome, false],
  ])('GET after %s: %s', (_name, outcome, expected) => {
    expect(isRetriable(outcome, get)).toBe(expected);
  });

  it('treats PUT and DELETE like GET: repeating them is harmless', () => {
    for (const context of [put, del]) {
      expect(isRetriable(problem(503), context)).toBe(true);
      expect(isRetriable(lost('unreachable'), context)).toBe(true);
      expect(isRetriable(lost('timeout'), context)).toBe(false);
      expect(isRetriable(problem(400), context)).toBe(false);
    }
  });

  it('does not repeat a POST whose request may have been applied', () => {
    expect(isRetriable(problem(500), post)).toBe(false);
    expect(isRetriable(problem(503), post)).toBe(false);
    expect(isRetriable(lost('timeout'), post)).toBe(false);
    expect(isRetriable(lost('unreachable', true), post)).toBe(false);
  });

  it('repeats a POST the server cannot have processed', () => {
    expect(isRetriable(problem(429), post)).toBe(true);
    expect(isRetriable(problem(408), post)).toBe(true);
    expect(isRetriable(lost('unreachable', false), post)).toBe(true);
  });

  it('repeats a POST the caller vouches for, but never after a final answer', () => {
    expect(isRetriable(problem(503), keyedPost)).toBe(true);
    expect(isRetriable(lost('unreachable'), keyedPost)).toBe(true);
    expect(isRetriable(problem(400), keyedPost)).toBe(false);
    expect(isRetriable(problem(501), keyedPost)).toBe(false);
  });

  it('never resends a body that cannot be read again', () => {
    const spent = { ...get, bodyReplayable: false };
    expect(isRetriable(problem(503), spent)).toBe(false);
    expect(isRetriable(problem(429), spent)).toBe(false);
    expect(isRetriable(lost('unreachable', false), spent)).toBe(false);
  });
});

describe('backoffDelayMs', () => {
  const policy = { attempts: 10, baseDelayMs: 500, maxDelayMs: 30_000 };

  it('draws uniformly below a ceiling that doubles per retry', () => {
    const almostOne = (): number => 0.999_999;
    expect([1, 2, 3, 4].map((retry) => backoffDelayMs(retry, policy, almostOne))).toEqual([499, 999, 1999, 3999]);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(5, policy, () => 0)).toBe(0);
  });

  it('never exceeds maxDelayMs however many retries were made', () => {
    expect(backoffDelayMs(7, policy, () => 0.999_999)).toBe(29_999);
    expect(backoffDelayMs(60, policy, () => 0.999_999)).toBe(29_999);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:59:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('+5', now)).toBeUndefined();
    expect(parseRetryAfter('2026-03-01', now)).toBeUndefined();
  });
});

describe('nextRetryDelayMs', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const policy = DEFAULT_RETRY_POLICY;
  const half = (): number => 0.5;

  it('waits the jittered backoff until the attempts are used up', () => {
    expect(nextRetryDelayMs(problem(503), get, 1, policy, half, now)).toBe(250);
    expect(nextRetryDelayMs(problem(503), get, 2, policy, half, now)).toBe(500);
    expect(nextRetryDelayMs(problem(503), get, 4, policy, half, now)).toBe(2000);
    expect(nextRetryDelayMs(problem(503), get, 5, policy, half, now)).toBeUndefined();
  });

  it('gives no wait for a final outcome', () => {
    expect(nextRetryDelayMs(problem(404), get, 1, policy, half, now)).toBeUndefined();
    expect(nextRetryDelayMs({ kind: 'ok' }, get, 1, policy, half, now)).toBeUndefined();
  });

  it('waits at least what Retry-After asks', () => {
    expect(nextRetryDelayMs(problem(429, '1'), get, 1, policy, () => 0, now)).toBe(1000);
    expect(nextRetryDelayMs(problem(503, 'Sun, 01 Mar 2026 12:00:03 GMT'), get, 1, policy, () => 0, now)).toBe(3000);
  });

  it('keeps the backoff when it is longer than Retry-After', () => {
    expect(nextRetryDelayMs(problem(429, '0'), get, 3, policy, half, now)).toBe(1000);
  });

  it('returns the answer rather than wait longer than maxDelayMs for a Retry-After', () => {
    expect(nextRetryDelayMs(problem(429, '30'), get, 1, policy, () => 0, now)).toBe(30_000);
    expect(nextRetryDelayMs(problem(429, '31'), get, 1, policy, () => 0, now)).toBeUndefined();
    expect(nextRetryDelayMs(problem(429, '3600'), post, 1, policy, () => 0, now)).toBeUndefined();
  });

  it('ignores an unreadable Retry-After and backs off as usual', () => {
    expect(nextRetryDelayMs(problem(429, 'later'), get, 1, policy, half, now)).toBe(250);
  });
});

describe('resolveRetryPolicy', () => {
  it('fills in the defaults: 5 attempts, 500 ms base, 30 s ceiling', () => {
    expect(resolveRetryPolicy()).toEqual({ attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 });
    expect(resolveRetryPolicy({ attempts: 2, maxDelayMs: undefined })).toEqual({ attempts: 2, baseDelayMs: 500, maxDelayMs: 30_000 });
  });

  it('refuses values no client can work with', () => {
    expect(() => resolveRetryPolicy({ attempts: 0 })).toThrow(RangeError);
    expect(() => resolveRetryPolicy({ attempts: 1.5 })).toThrow(RangeError);
    expect(() => resolveRetryPolicy({ baseDelayMs: -1 })).toThrow(RangeError);
    expect(() => resolveRetryPolicy({ baseDelayMs: 1000, maxDelayMs: 10 })).toThrow(RangeError);
  });
});
