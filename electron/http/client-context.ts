/**
 * What the queued client's attempts and its queue work with, handed to them explicitly: the connection's server and
 * key, the resolved limits, the queue, the client's closing, and the fetch, jitter and sleep it was given. The shapes of
 * a call's and a download's input and outcome live here too, since both the client and its attempts speak them.
 */
import type { CallNetworkFailure, CallProblem } from '../../shared/api/client';
import type { ApiVersion } from '../../shared/api/routes';
import type { TransferProgress } from './progress';
import type { AttemptOutcome, RetryPolicy } from './retry-policy';
import type { SlotQueue } from './slot-queue';

/** How one call is made, beyond its input. */
export interface CallOptions {
  /** Hears the bytes of a binary body as they are sent, and of file content in the answer as it arrives. */
  onProgress?: (progress: TransferProgress) => void;
  /** Ends the call, whether it waits in the queue, runs, or waits for its next attempt. */
  signal?: AbortSignal;
  /** `false`: a single attempt, for a user who is waiting for the answer. */
  retry?: false;
  /** The caller vouches that repeating this request is harmless even when an earlier attempt was applied. */
  retryUnsafe?: boolean;
  /** The byte length of a body given as a stream: the upload's progress total, and sent as Content-Length. */
  bodySize?: number;
}

/** The input of a call whose operation is only known at run time (the Bridge). */
export interface LooseCallInput {
  params?: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, unknown>>;
  headers?: Readonly<Record<string, unknown>>;
  body?: unknown;
  contentType?: string;
}

/** The outcome of a loosely typed call. */
export type LooseCallResult = { kind: 'ok'; status: number; value: unknown; headers: Headers } | CallProblem | CallNetworkFailure;

/** How a download is made. */
export interface DownloadOptions {
  onProgress?: (progress: TransferProgress) => void;
  signal?: AbortSignal;
}

/** The outcome of a download: the bytes written, a problem answer, or no usable answer. */
export type DownloadResult = { kind: 'ok'; bytes: number } | CallProblem | CallNetworkFailure;

/** What one attempt got, and what the retry rules need to know about it. */
export interface AttemptReport<T> {
  result: T;
  outcome: AttemptOutcome;
  bodyReplayable: boolean;
}

/** Everything the client's attempts and queue work with. */
export interface ClientContext {
  baseUrl: string;
  apiVersion: ApiVersion;
  apiKey: () => Promise<string | undefined>;
  policy: RetryPolicy;
  timeoutMs: number;
  queue: SlotQueue;
  /** Aborted once the client is closed. */
  closing: AbortSignal;
  onSuccess: (() => void) | undefined;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  fetch: typeof globalThis.fetch;
}
