/**
 * Why an upload attempt did not put the file on the server, and how the upload goes on: wait for the server, or end
 * with a problem the user reads. Messages are plain words — the server's reason where it gave one — and never carry an
 * operation name, an id or a stack trace.
 */
import type { CallNetworkFailure, CallProblem } from '../../shared/api/client';
import { assertNever } from '../../shared/api/enums';
import type { Problem } from '../../shared/api/schemas';
import type { UploadProblem } from '../../shared/uploads';

/** Why an attempt ended without the file on the server. */
export type UploadFailureKind =
  /** The server could not be reached or could not take it now (the queued client gave up): wait and try again. */
  | 'offline'
  /** The server refused it for good. */
  | 'refused'
  | 'too-large'
  /** The key is missing or the server refused it. */
  | 'no-key'
  /** The thing a call was about does not exist (404); the caller knows what that means. */
  | 'gone'
  /** The file does not take an upload in its current state (409). */
  | 'busy'
  /** The upload's bytes are not there (any more), or not as they were. */
  | 'source-gone'
  /** Our own abort. */
  | 'stopped'
  /** The app made a request it cannot make, or met an error it did not expect. */
  | 'internal';

/** An attempt that ended without the file on the server, with a message meant for the user. */
export class UploadFailure extends Error {
  constructor(
    readonly kind: UploadFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'UploadFailure';
  }
}

/** What an upload says while the server cannot be reached. */
export const OFFLINE_MESSAGE = 'The server cannot be reached; the upload starts by itself when it can.';
const STRAINED_MESSAGE = 'The server cannot take the file right now; the upload starts by itself when it can.';
const KEY_REFUSED_MESSAGE = 'The server did not accept this connection’s key; set the key again under Connections, then retry.';

const UUID = /'?\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b'?\s?/gi;

/** The server's reason of a problem answer in plain words: its detail (else its title) on one line, without ids. */
export function plainReason(problem: Pick<Problem, 'detail' | 'title'>, fallback: string): string {
  const [firstLine = ''] = (problem.detail.trim() === '' ? problem.title : problem.detail).split(/\r?\n/);
  const text = firstLine
    .replace(UUID, '')
    .replace(/\s+([.,;:])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
  if (text === '') return fallback;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Statuses after which the server took nothing and asks to try later, or that a proxy answers for a server that is away. */
function isStrained(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** The failure of a call's outcome that was not the expected answer (the queued client's retries are over). */
export function failureOf(result: CallProblem | CallNetworkFailure): UploadFailure {
  if (result.kind === 'network') {
    switch (result.error.reason) {
      case 'unreachable':
      case 'timeout':
        return new UploadFailure('offline', OFFLINE_MESSAGE);
      case 'aborted':
        return new UploadFailure('stopped', 'The upload was stopped.');
      case 'invalid-request':
      case 'invalid-response':
        return new UploadFailure('internal', 'The server answered in a way the app does not understand; the upload stopped.');
      default:
        return assertNever(result.error.reason, 'network failure reason');
    }
  }
  const { status, problem } = result;
  if (status === 401) return new UploadFailure('no-key', KEY_REFUSED_MESSAGE);
  if (status === 404) return new UploadFailure('gone', plainReason(problem, 'It no longer exists on the server.'));
  if (status === 409) return new UploadFailure('busy', plainReason(problem, 'The file on the server takes no upload now.'));
  if (status === 413) return new UploadFailure('too-large', plainReason(problem, 'The file is larger than the server takes.'));
  if (isStrained(status)) return new UploadFailure('offline', STRAINED_MESSAGE);
  return new UploadFailure('refused', plainReason(problem, 'The server refused the file.'));
}

/** The problem an entry shows for a failure that holds up or ends its upload. */
export function problemOf(failure: UploadFailure): UploadProblem {
  switch (failure.kind) {
    case 'offline':
    case 'refused':
    case 'too-large':
    case 'no-key':
    case 'source-gone':
    case 'internal':
      return { code: failure.kind, message: failure.message };
    case 'gone':
    case 'busy':
    case 'stopped':
      return { code: 'refused', message: failure.message };
    default:
      return assertNever(failure.kind, 'upload failure kind');
  }
}
