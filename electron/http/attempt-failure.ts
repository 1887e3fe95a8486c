/**
 * How an attempt that got no usable answer is told: a network failure worded like the shared client's (without the
 * call or the address), and what the retry rules need to know of an attempt's result.
 */
import { noAnswerMessage, type CallNetworkFailure, type NetworkError } from '../../shared/api/client';
import { assertNever } from '../../shared/api/enums';
import type { DownloadResult, LooseCallResult } from './client-context';
import type { IdleTimeout } from './idle-timeout';
import type { AttemptOutcome } from './retry-policy';

/** Codes of failures to connect: the request never left, so even a POST may be sent again. */
const CONNECT_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function networkFailure(reason: NetworkError['reason'], message: string, cause?: unknown): CallNetworkFailure {
  return { kind: 'network', error: cause === undefined ? { reason, message } : { reason, message, cause } };
}

/** The `code` of an error or of its causes (undici puts ECONNREFUSED and the like on the cause). */
function errorCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 4) return [];
  const own = (error as { code?: unknown }).code;
  // AggregateError: one error per address tried.
  const errors = (error as { errors?: unknown }).errors;
  const nested = [(error as { cause?: unknown }).cause, ...(Array.isArray(errors) ? (errors as unknown[]) : [])];
  return [...(typeof own === 'string' ? [own] : []), ...nested.flatMap((each) => errorCodes(each, depth + 1))];
}

function isConnectFailure(error: unknown): boolean {
  return errorCodes(error).some((code) => CONNECT_FAILURE_CODES.has(code));
}

/** Why an attempt got no usable answer, worded like the shared client's failures: without the call or the address. */
export function failureOf(error: unknown, callerSignal: AbortSignal | undefined, idle: IdleTimeout): CallNetworkFailure {
  if (callerSignal?.aborted === true) return networkFailure('aborted', noAnswerMessage('aborted'), error);
  if (idle.fired) return networkFailure('timeout', noAnswerMessage('timeout'), error);
  return networkFailure('unreachable', noAnswerMessage('unreachable', errorCodes(error)[0]), error);
}

export function outcomeOf(result: LooseCallResult | DownloadResult, response: Response | undefined, fetchError: unknown): AttemptOutcome {
  switch (result.kind) {
    case 'ok':
      return { kind: 'ok' };
    case 'problem':
      return { kind: 'problem', status: result.status, retryAfter: response?.headers.get('retry-after') ?? null };
    case 'network':
      return { kind: 'network', reason: result.error.reason, connected: !isConnectFailure(fetchError) };
    default:
      return assertNever(result, 'call result');
  }
}
