/** What an API call or an online action answers: its value, or the `ApiFailure` that says why there is none. */
import type { IpcError } from '../../shared/ipc';
import type { ApiFailure } from './failure';

/**
 * The value with the status and `Location` of the server's answer it comes from; `status` is null for a value the
 * host or the cache gave without an answer of the server (a queued upload, an opened address).
 */
export type ApiOutcome<T> = { ok: true; status: number | null; value: T; location: string | null } | { ok: false; failure: ApiFailure };

/** A success no answer of the server stands behind. */
export function succeeded<T>(value: T): ApiOutcome<T> {
  return { ok: true, status: null, value, location: null };
}

/** An outcome that failed. */
export function failed(failure: ApiFailure): { ok: false; failure: ApiFailure } {
  return { ok: false, failure };
}

/** The failure of a Bridge call the host refused or could not run. */
export function hostFailed(error: IpcError): { ok: false; failure: ApiFailure } {
  return failed({ kind: 'host', code: error.code, message: error.message });
}

/** The outcome with its value mapped, keeping the answer's status and location. */
export function mapOutcome<T, U>(outcome: ApiOutcome<T>, value: (answer: T) => U): ApiOutcome<U> {
  return outcome.ok ? { ...outcome, value: value(outcome.value) } : outcome;
}
