/**
 * How the sync engine reaches the API: through an `ApiPort`, never the Bridge itself, so the same engine runs in the
 * window, in a worker that forwards its calls to the window, and in tests against a real server. Also the one place
 * that sorts failures into what the engine does about them.
 */
import { assertNever } from '../../shared/api/enums';
import type { ApiAnswer, ApiRequest, Bridge, IpcErrorCode } from '../../shared/ipc';
import type { SyncFailure } from '../db/schema';

/** A JSON API call as the Bridge carries it, without the connection the port is bound to. */
export type ApiCall = Omit<ApiRequest, 'connectionId'>;

/** Runs an API call for one connection; rejects with `ApiPortError` when the host could not run it at all. */
export type ApiPort = (call: ApiCall) => Promise<ApiAnswer>;

/** The host refused or failed a call (the Bridge answered `{ ok: false }`); `code` says why. */
export class ApiPortError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiPortError';
  }
}

/** The port of a connection through the Bridge's `api:request`. */
export function bridgeApiPort(bridge: { api: Pick<Bridge['api'], 'request'> }, connectionId: string): ApiPort {
  return async (call) => {
    const result = await bridge.api.request({ ...call, connectionId });
    if (!result.ok) throw new ApiPortError(result.error.code, result.error.message);
    return result.value;
  };
}

/** The outcome of a call: its answer's value, or why there is none. */
export type CallOutcome = { ok: true; status: number; value: unknown; location: string | null } | { ok: false; failure: SyncFailure };

/**
 * Runs a call and folds every failure into a `SyncFailure`. Errors other than `ApiPortError` are not failures of the
 * call but of the program (or the page going away), and are thrown on.
 */
export async function callApi(api: ApiPort, call: ApiCall): Promise<CallOutcome> {
  let answer: ApiAnswer;
  try {
    answer = await api(call);
  } catch (error) {
    if (error instanceof ApiPortError) return { ok: false, failure: { kind: 'host', code: error.code, message: error.message } };
    throw error;
  }
  switch (answer.kind) {
    case 'ok':
      return { ok: true, status: answer.status, value: answer.value, location: answer.location };
    case 'problem':
      return { ok: false, failure: { kind: 'problem', status: answer.status, problem: answer.problem } };
    case 'network':
      return { ok: false, failure: { kind: 'network', reason: answer.reason, message: answer.message } };
    default:
      return assertNever(answer, 'API answer');
  }
}

/**
 * What to do about a failure. `transient`: try again later (no answer, 408, 429, 5xx, host unavailable); `auth`: the key
 * is missing, expired or too weak, so stop and tell the user (401, 403); `host`: the host cannot run calls for this
 * connection; `rejected`: the server refused this request or answered nonsense, so retrying it unchanged is pointless.
 */
export type FailureClass = 'transient' | 'auth' | 'host' | 'rejected';

/** Sorts a failure (see `FailureClass`). */
export function classifyFailure(failure: SyncFailure): FailureClass {
  switch (failure.kind) {
    case 'network':
      return 'transient';
    case 'problem':
      if (failure.status === 401 || failure.status === 403) return 'auth';
      return failure.status === 408 || failure.status === 429 || failure.status >= 500 ? 'transient' : 'rejected';
    case 'host':
      return failure.code === 'unavailable' ? 'transient' : 'host';
    case 'invalid-answer':
      return 'rejected';
    case 'internal':
      return 'host';
    default:
      return assertNever(failure, 'sync failure');
  }
}

/** Why a network failure happened when the server gave no answer at all: down, or the network between is. */
const UNREACHABLE_REASONS: ReadonlySet<string> = new Set(['unreachable', 'timeout']);

/** Whether a network failure means the server could not be reached (as opposed to a stopped sync or a broken answer). */
export function isUnreachable(failure: { reason: string }): boolean {
  return UNREACHABLE_REASONS.has(failure.reason);
}

/** A failure as one sentence for the user. */
export function failureMessage(failure: SyncFailure): string {
  switch (failure.kind) {
    case 'network':
    case 'host':
    case 'invalid-answer':
    case 'internal':
      return failure.message;
    case 'problem':
      return `${failure.status} ${failure.problem.title}: ${failure.problem.detail}`;
    default:
      return assertNever(failure, 'sync failure');
  }
}
