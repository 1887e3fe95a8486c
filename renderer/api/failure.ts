/**
 * Why an API call gave no usable answer, or did not run at all: one type for the stores, the sync engine and the
 * cache (the outbox and the sync state keep failures, so a kind is only ever added, never changed), and the one place
 * that sorts failures into what the sync engine does about them.
 */
import { assertNever } from '../../shared/api/enums';
import type { Problem } from '../../shared/api/schemas';
import type { IpcErrorCode } from '../../shared/ipc';

/**
 * No answer (`network`), the server's problem answer, the host refusing the call, an answer of an unexpected shape, a
 * failure of the app itself; or an online action that did not run: no connection is open, the resource was created
 * here and is not on the server yet, or the device is offline.
 */
export type ApiFailure =
  | { kind: 'network'; reason: string; message: string }
  | { kind: 'problem'; status: number; problem: Problem }
  | { kind: 'host'; code: IpcErrorCode; message: string }
  | { kind: 'invalid-answer'; message: string }
  | { kind: 'internal'; message: string }
  | { kind: 'no-connection' }
  | { kind: 'not-on-server' }
  | { kind: 'offline' };

/**
 * What to do about a failure. `transient`: try again later (no answer, 408, 429, 5xx, host unavailable, offline, not on
 * the server yet); `auth`: the key is missing, expired or too weak, so stop and tell the user (401, 403); `host`: the
 * host cannot run calls for this connection; `rejected`: the server refused this request or answered nonsense, so
 * retrying it unchanged is pointless.
 */
export type FailureClass = 'transient' | 'auth' | 'host' | 'rejected';

/** Sorts a failure (see `FailureClass`). */
export function classifyFailure(failure: ApiFailure): FailureClass {
  switch (failure.kind) {
    case 'network':
    case 'offline':
    case 'not-on-server':
      return 'transient';
    case 'problem':
      if (failure.status === 401 || failure.status === 403) return 'auth';
      return failure.status === 408 || failure.status === 429 || failure.status >= 500 ? 'transient' : 'rejected';
    case 'host':
      return failure.code === 'unavailable' ? 'transient' : 'host';
    case 'invalid-answer':
      return 'rejected';
    case 'internal':
    case 'no-connection':
      return 'host';
    default:
      return assertNever(failure, 'API failure');
  }
}

/** Why a network failure happened when the server gave no answer at all: down, or the network between is. */
const UNREACHABLE_REASONS: ReadonlySet<string> = new Set(['unreachable', 'timeout']);

/** Whether a network failure means the server could not be reached (as opposed to a stopped sync or a broken answer). */
export function isUnreachable(failure: { reason: string }): boolean {
  return UNREACHABLE_REASONS.has(failure.reason);
}

/** A failure as one sentence, for a log or a report; the screens show `useFailureText`'s lines. */
export function failureMessage(failure: ApiFailure): string {
  switch (failure.kind) {
    case 'network':
    case 'host':
    case 'invalid-answer':
    case 'internal':
      return failure.message;
    case 'problem':
      return `${failure.status} ${failure.problem.title}: ${failure.problem.detail}`;
    case 'no-connection':
      return 'No connection is open.';
    case 'not-on-server':
      return 'It is not on the server yet.';
    case 'offline':
      return 'The device is offline.';
    default:
      return assertNever(failure, 'API failure');
  }
}
