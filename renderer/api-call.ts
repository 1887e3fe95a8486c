/**
 * API calls through the Bridge, with every way they can fail folded into one `ApiFailure` the screens show.
 */
import { assertNever } from '../shared/api/enums';
import type { ApiAnswer, ApiRequest, Bridge, IpcResult } from '../shared/ipc';

/** Why an API call gave no usable answer: the server's problem answer, no answer, the host refusing, or a bad shape. */
export type ApiFailure =
  | { kind: 'problem'; status: number; title: string; detail: string }
  | { kind: 'network'; message: string }
  | { kind: 'host'; message: string }
  | { kind: 'not-a-list' };

/** The answer of a call, or why there is none. */
export type ApiOutcome<T> = { ok: true; status: number; value: T } | { ok: false; failure: ApiFailure };

/** The outcome of a Bridge channel that answers an `ApiAnswer` (`api:request`, `api:upload-image`). */
export function apiOutcomeOf(result: IpcResult<ApiAnswer>): ApiOutcome<unknown> {
  if (!result.ok) return { ok: false, failure: { kind: 'host', message: result.error.message } };
  const answer = result.value;
  switch (answer.kind) {
    case 'ok':
      return { ok: true, status: answer.status, value: answer.value };
    case 'problem':
      return {
        ok: false,
        failure: { kind: 'problem', status: answer.status, title: answer.problem.title, detail: answer.problem.detail },
      };
    case 'network':
      return { ok: false, failure: { kind: 'network', message: answer.message } };
    default:
      return assertNever(answer, 'API answer');
  }
}

/** Runs one API call through the host. */
export async function callApi(bridge: Bridge, request: ApiRequest): Promise<ApiOutcome<unknown>> {
  return apiOutcomeOf(await bridge.api.request(request));
}

/**
 * Runs a call whose answer is a JSON array. The items are taken as the contract's type `T`: the renderer only shows
 * them, and shows an absent field as absent.
 */
export async function callApiList<T>(bridge: Bridge, request: ApiRequest): Promise<ApiOutcome<T[]>> {
  const outcome = await callApi(bridge, request);
  if (!outcome.ok) return outcome;
  if (!Array.isArray(outcome.value)) return { ok: false, failure: { kind: 'not-a-list' } };
  return { ok: true, status: outcome.status, value: outcome.value as T[] };
}
