/**
 * The API client of the main process, one per connection: the typed client of `shared/api/client.ts` behind a FIFO
 * queue that limits the calls in flight, with the connection's key read from the vault for every attempt, transient
 * failures retried with jittered backoff (the rules are in `retry-policy.ts`), an idle timeout per attempt, and byte
 * progress of uploads and downloads. It never logs; results and errors never contain the key, because the key only
 * ever travels in the X-API-Key header the shared client sets.
 */
import type { CallInput, CallResult } from '../../shared/api/client';
import { routesByVersion, type ApiVersion, type BinaryBody, type RouteDefinition, type RouteTable } from '../../shared/api/routes';
import { networkFailure } from './attempt-failure';
import { callAttempt } from './call-attempt';
import type { CallOptions, ClientContext, DownloadOptions, DownloadResult, LooseCallInput, LooseCallResult } from './client-context';
import { downloadAttempt } from './download-attempt';
import { uploadSourceOf, type UploadBody, type UploadSource } from './progress';
import { sendingStreamsOverNodeHttp } from './node-http-uploads';
import { environmentProxyOf, proxyFor } from '../network/environment-proxy';
import { closedFailure, runQueued } from './queued-run';
import { resolveRetryPolicy, type RetryPolicy } from './retry-policy';
import { SlotQueue, type QueueActivity } from './slot-queue';
import { abortableSleep } from '../../shared/abortable-sleep';

export type { CallOptions, DownloadOptions, DownloadResult, LooseCallInput, LooseCallResult } from './client-context';
export type { ContentStream, ContentStreamFactory, TransferProgress, UploadBody } from './progress';
export type { RetryPolicy } from './retry-policy';

/** How a connection's client reaches its server. */
export interface QueuedClientOptions<V extends ApiVersion = ApiVersion> {
  baseUrl: string;
  apiVersion: V;
  /** Read from the vault for every attempt; undefined sends no key. */
  apiKey: () => Promise<string | undefined>;
  /** Calls in flight at once (default 4); one client serves one connection. */
  concurrency?: number;
  /** An attempt fails with `timeout` when no byte moves for this long, waiting for the answer included (default 60 s). */
  timeoutMs?: number;
  /** Attempts in total (default 5), the first backoff ceiling (500 ms) and the longest wait (30 s). */
  retry?: Partial<RetryPolicy>;
  /** Hears every change of the number of queued and running calls. */
  onActivity?: (activity: QueueActivity) => void;
  /** Hears every call that got its expected answer: the server can be reached (again). */
  onSuccess?: () => void;
  /** Source of the backoff jitter, in [0, 1). */
  random?: () => number;
  /** Waits between attempts; it may end early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Default: the global fetch, with streamed uploads sent over node:http (`node-http-uploads.ts`) unless the
   * environment's proxy applies to the server (`network/environment-proxy.ts`).
   */
  fetch?: typeof globalThis.fetch;
}

/** What a call of a route takes: as the shared client's, with file content as an `UploadBody` and the signal in the options. */
export type QueuedCallInput<R extends RouteDefinition> = R['body'] extends BinaryBody
  ? Omit<CallInput<R>, 'body' | 'signal'> & { body: UploadBody }
  : Omit<CallInput<R>, 'signal'>;

type QueuedCallArgs<R extends RouteDefinition> =
  object extends QueuedCallInput<R>
    ? [input?: QueuedCallInput<R>, options?: CallOptions]
    : [input: QueuedCallInput<R>, options?: CallOptions];

/** The queued client of one connection. */
export interface QueuedClient<Table extends Readonly<Record<string, RouteDefinition>> = RouteTable> {
  /**
   * Calls an endpoint, typed by the route table like the shared client's `call`; queued and retried. Resolves for every
   * outcome; rejects only when `apiKey` rejects.
   */
  call<OperationId extends keyof Table & string>(
    operationId: OperationId,
    ...args: QueuedCallArgs<Table[OperationId]>
  ): Promise<CallResult<Table[OperationId]>>;
  /** `call` for an operation and input that arrive as JSON; an unknown operation is an `invalid-request` failure. */
  callLoose(operationId: string, input?: LooseCallInput, options?: CallOptions): Promise<LooseCallResult>;
  /**
   * GETs an absolute address (a signed download address) without the key, writing the body to `destination` and
   * ending it once all of it is written; on any other outcome `destination` is left open for the caller to discard.
   * Retried only while nothing was written. Rejects only when writing to `destination` fails.
   */
  download(url: string, destination: NodeJS.WritableStream, options?: DownloadOptions): Promise<DownloadResult>;
  /**
   * Refuses new calls and ends waiting ones as `aborted`; calls already running finish their current attempt without
   * further retries. Resolves when none runs.
   */
  close(): Promise<void>;
}

function hasIdempotencyKey(headers: Readonly<Record<string, unknown>> | undefined): boolean {
  return Object.entries(headers ?? {}).some(
    ([name, value]) => name.toLowerCase() === 'idempotency-key' && value !== undefined && value !== null && String(value) !== '',
  );
}

/** Calls an operation known only at run time: checked against the route table, then queued and retried. */
async function callLoose(
  context: ClientContext,
  operationId: string,
  input: LooseCallInput,
  callOptions: CallOptions,
): Promise<LooseCallResult> {
  if (context.closing.aborted) return closedFailure(operationId);
  const table: Readonly<Record<string, RouteDefinition>> = routesByVersion[context.apiVersion];
  const route = Object.hasOwn(table, operationId) ? table[operationId] : undefined;
  if (route === undefined) return networkFailure('invalid-request', `Unknown operation ${operationId}.`);
  let upload: UploadSource | undefined;
  if (route.body?.kind === 'binary') {
    upload = uploadSourceOf(input.body, callOptions.bodySize);
    if (upload === undefined) {
      return networkFailure('invalid-request', `${operationId}: the body must be file content (bytes, a Blob or a stream).`);
    }
  }
  const rules = {
    method: route.method,
    repeatable: callOptions.retryUnsafe === true || hasIdempotencyKey(input.headers),
    attempts: callOptions.retry === false ? 1 : context.policy.attempts,
  };
  return runQueued(context, operationId, callOptions.signal, rules, () =>
    callAttempt(context, operationId, route, input, upload, callOptions),
  );
}

/** Downloads an http(s) address into `destination`, queued and retried while nothing was written. */
async function download(
  context: ClientContext,
  url: string,
  destination: NodeJS.WritableStream,
  downloadOptions: DownloadOptions,
): Promise<DownloadResult> {
  const label = 'download';
  if (context.closing.aborted) return closedFailure(label);
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return networkFailure('invalid-request', `${label}: the address is not a valid URL.`);
  }
  if (address.protocol !== 'http:' && address.protocol !== 'https:') {
    return networkFailure('invalid-request', `${label}: only http and https addresses are downloaded.`);
  }
  // A write error of the destination is also emitted as 'error'; listened to here so it rejects instead of crashing.
  const swallow = (): void => undefined;
  destination.on('error', swallow);
  try {
    const rules = { method: 'GET' as const, repeatable: false, attempts: context.policy.attempts };
    return await runQueued(context, label, downloadOptions.signal, rules, () => downloadAttempt(context, address, destination, downloadOptions));
  } finally {
    destination.removeListener('error', swallow);
  }
}

/** Creates the queued client of one connection. Throws RangeError for a concurrency, timeout or retry policy out of range. */
export function createQueuedClient<V extends ApiVersion = ApiVersion>(
  options: QueuedClientOptions<V>,
): QueuedClient<(typeof routesByVersion)[V]> {
  const policy = resolveRetryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!(timeoutMs > 0)) throw new RangeError(`The timeout must be more than 0 ms, not ${timeoutMs}.`);
  const queue = new SlotQueue(options.concurrency ?? 4, options.onActivity);
  const closing = new AbortController();
  const context: ClientContext = {
    baseUrl: options.baseUrl,
    apiVersion: options.apiVersion,
    apiKey: options.apiKey,
    policy,
    timeoutMs,
    queue,
    closing: closing.signal,
    onSuccess: options.onSuccess,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? abortableSleep,
    // Kept unbound from `options`: fetch called as a method of another object is rejected in some runtimes.
    fetch: options.fetch ?? sendingStreamsOverNodeHttp(fetch, (url) => proxyFor(url, environmentProxyOf(process.env)) !== undefined),
  };

  async function close(): Promise<void> {
    if (!closing.signal.aborted) {
      closing.abort();
      queue.close();
    }
    await queue.idle();
  }

  const loose = (operationId: string, input: LooseCallInput = {}, callOptions: CallOptions = {}): Promise<LooseCallResult> =>
    callLoose(context, operationId, input, callOptions);
  // The typed `call` is a view of `callLoose`: the route table guarantees the shapes it promises.
  const call = loose as unknown as QueuedClient<(typeof routesByVersion)[V]>['call'];
  return {
    call,
    callLoose: loose,
    download: (url, destination, downloadOptions = {}) => download(context, url, destination, downloadOptions),
    close,
  };
}
