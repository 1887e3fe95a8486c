/** How an on-demand fetch of the sync engine (figures, a file's status, a catalogue item's details) ends. */
import { classifyFailure, type ApiFailure, type FailureClass } from '../api/failure';

/** The outcome of an on-demand fetch. */
export type FetchOutcome<T = undefined> = { ok: true; value: T } | { ok: false; failure: ApiFailure; class: FailureClass };

/** A fetch that failed, with what the sync engine makes of its failure. */
export function fetchFailure(failure: ApiFailure): { ok: false; failure: ApiFailure; class: FailureClass } {
  return { ok: false, failure, class: classifyFailure(failure) };
}
