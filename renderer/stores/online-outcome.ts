/**
 * What an online action of a store answers, shared by the stores that ask the server for something the cache cannot
 * do (buildings, portfolios, access, images): the answer, or why the action did not happen, and the guard that keeps
 * such an action from running when it cannot (no connection, a resource not yet on the server, offline).
 */
import type { ApiFailure, ApiOutcome } from '../api-call';
import { isLocalId } from '../db/schema';

/**
 * Why an online action did not happen: no connection is open, the building is not on the server yet (created here,
 * not yet synced), the device is offline, the server could not be reached, the key may not do this (401/403), or the
 * server refused or failed otherwise.
 */
export type OnlineRefusal =
  | { kind: 'no-connection' }
  | { kind: 'not-on-server' }
  | { kind: 'offline' }
  | { kind: 'unreachable'; message: string }
  | { kind: 'forbidden'; status: number; detail: string }
  | { kind: 'failed'; failure: ApiFailure };

/** What an online action answered, or why it did not happen. */
export type OnlineOutcome<T> = { ok: true; value: T } | { ok: false; refusal: OnlineRefusal };

/** A refusal of an API call's failure. */
export function refusalOf(failure: ApiFailure): OnlineRefusal {
  if (failure.kind === 'network') return { kind: 'unreachable', message: failure.message };
  if (failure.kind === 'problem' && (failure.status === 401 || failure.status === 403)) {
    return { kind: 'forbidden', status: failure.status, detail: failure.detail };
  }
  return { kind: 'failed', failure };
}

/** The part of the sync store an online action looks at. */
export interface OnlineContext {
  readonly connectionId: string | null;
  readonly online: boolean;
}

/** An API call's outcome as an online outcome, its answer mapped by `value`. */
export function outcomeOf<T, U>(outcome: ApiOutcome<T>, value: (answer: T) => U): OnlineOutcome<U> {
  return outcome.ok ? { ok: true, value: value(outcome.value) } : { ok: false, refusal: refusalOf(outcome.failure) };
}

/**
 * Runs an online call about the resource `id`, unless it cannot run: no connection, a resource created here and not
 * yet on the server (its id is still `local:`), or offline.
 */
export async function whenOnline<T>(
  context: OnlineContext,
  id: string,
  run: (connectionId: string) => Promise<OnlineOutcome<T>>,
): Promise<OnlineOutcome<T>> {
  const connectionId = context.connectionId;
  if (connectionId === null) return { ok: false, refusal: { kind: 'no-connection' } };
  if (isLocalId(id)) return { ok: false, refusal: { kind: 'not-on-server' } };
  if (!context.online) return { ok: false, refusal: { kind: 'offline' } };
  return run(connectionId);
}
