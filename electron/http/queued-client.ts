/**
 * The API client of the main process, one per connection: the typed client of `shared/api/client.ts` behind a FIFO
 * queue that limits the calls in flight, with the connection's key read from the vault for every attempt, transient
 * failures retried with jittered backoff (the rules are in `retry-policy.ts`), an idle timeout per attempt, and byte
 * progress of uploads and downloads. It never logs; results and errors never contain the key, because the key only
 * ever travels in the X-API-Key header the shared client sets.
 */
import { Value } from 'typebox/value';
import {
  createApiClient,
  noAnswerMessage,
  type CallInput,
  type CallNetworkFailure,
  type CallProblem,
  type CallResult,
  type NetworkError,
} from '../../shared/api/client';
import { assertNever } from '../../shared/api/enums';
import { routesByVersion, type ApiVersion, type BinaryBody, type RouteDefinition, type RouteTable } from '../../shared/api/routes';
import { Problem } from '../../shared/api/schemas';
import { announcedLength, countingStream, uploadSourceOf, type TransferProgress, type UploadBody, type UploadSource } from './progress';
import { sendingStreamsOverNodeHttp } from './node-http-uploads';
import { environmentProxyOf, proxyFor } from '../network/environment-proxy';
import { nextRetryDelayMs, resolveRetryPolicy, type AttemptOutcome, type RetryPolicy } from './retry-policy';
import { SlotQueue, type QueueActivity } from './slot-queue';
import { abortableSleep } from '../../shared/abortable-sleep';

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

/** What a call of a route takes: as the shared client's, with file content as an `UploadBody` and the signal in the options. */
export type QueuedCallInput<R extends RouteDefinition> = R['body'] extends BinaryBody
  ? Omit<CallInput<R>, 'body' | 'signal'> & { body: UploadBody }
  : Omit<CallInput<R>, 'signal'>;

type QueuedCallArgs<R extends RouteDefinition> =
  object extends QueuedCallInput<R>
    ? [input?: QueuedCallInput<R>, options?: CallOptions]
    : [input: QueuedCallInput<R>, options?: CallOptions];

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

/** What the shared client's typed `call` is underneath: the route table checked the shapes before. */
interface LooseApiClient {
  call(operationId: string, input: LooseCallInput & { signal?: AbortSignal }): Promise<LooseCallResult>;
}

/** What one attempt got, and what the retry rules need to know about it. */
interface AttemptReport<T> {
  result: T;
  outcome: AttemptOutcome;
  bodyReplayable: boolean;
}

/** Codes of failures to connect: the request never left, so even a POST may be sent again. */
const CONNECT_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Answers that have no body by definition; a Response cannot be built around one. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

function networkFailure(reason: NetworkError['reason'], message: string, cause?: unknown): CallNetworkFailure {
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

function hasIdempotencyKey(headers: Readonly<Record<string, unknown>> | undefined): boolean {
  return Object.entries(headers ?? {}).some(
    ([name, value]) => name.toLowerCase() === 'idempotency-key' && value !== undefined && value !== null && String(value) !== '',
  );
}

/**
 * Aborts its signal once nothing happened for `limitMs`. One timer per attempt that re-arms for the remainder, rather
 * than a new timer per chunk.
 */
class IdleTimeout {
  readonly #controller = new AbortController();
  readonly #limitMs: number;
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout>;

  constructor(limitMs: number) {
    this.#limitMs = limitMs;
    this.#timer = this.#arm(limitMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get fired(): boolean {
    return this.#controller.signal.aborted;
  }

  /** A signal that aborts on this timeout or on the caller's `signal`. */
  joined(signal: AbortSignal | undefined): AbortSignal {
    return signal === undefined ? this.#controller.signal : AbortSignal.any([signal, this.#controller.signal]);
  }

  touch(): void {
    this.#last = performance.now();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #arm(ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      const idle = performance.now() - this.#last;
      if (idle >= this.#limitMs) this.#controller.abort();
      else this.#timer = this.#arm(Math.max(1, this.#limitMs - idle));
    }, ms);
  }
}

/** Why an attempt got no usable answer, worded like the shared client's failures: without the call or the address. */
function failureOf(error: unknown, callerSignal: AbortSignal | undefined, idle: IdleTimeout): CallNetworkFailure {
  if (callerSignal?.aborted === true) return networkFailure('aborted', noAnswerMessage('aborted'), error);
  if (idle.fired) return networkFailure('timeout', noAnswerMessage('timeout'), error);
  return networkFailure('unreachable', noAnswerMessage('unreachable', errorCodes(error)[0]), error);
}

function outcomeOf(result: LooseCallResult | DownloadResult, response: Response | undefined, fetchError: unknown): AttemptOutcome {
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

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Problem details of a failed download: the server's own when it sent valid ones, else made from the status. */
async function downloadProblem(response: Response, url: URL): Promise<Problem> {
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  if (Value.Check(Problem, body)) return body;
  const title = text(response.statusText) ?? `HTTP ${response.status}`;
  const detail = `The server answered ${response.status} ${title}.`;
  return { type: 'about:blank', title, status: response.status, detail, instance: url.pathname, errors: [], message: detail };
}

/** Writes one chunk and waits until the destination took it, so a slow disk slows the download instead of filling memory. */
function writeChunk(destination: NodeJS.WritableStream, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    destination.write(chunk, (error?: Error | null) => (error ? reject(error) : resolve()));
  });
}

/** Ends the destination and waits until it finished (and closed, for a file), or failed. */
function endDestination(destination: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      destination.removeListener('finish', onFinish);
      destination.removeListener('error', onError);
    };
    const onFinish = (): void => {
      cleanup();
      resolve();
    };
    const onError = (error: unknown): void => {
      cleanup();
      reject(error);
    };
    destination.once('finish', onFinish);
    destination.once('error', onError);
    destination.end();
  });
}

/** Creates the queued client of one connection. Throws RangeError for a concurrency, timeout or retry policy out of range. */
export function createQueuedClient<V extends ApiVersion = ApiVersion>(
  options: QueuedClientOptions<V>,
): QueuedClient<(typeof routesByVersion)[V]> {
  const version: ApiVersion = options.apiVersion;
  const table: Readonly<Record<string, RouteDefinition>> = routesByVersion[version];
  const policy = resolveRetryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? 60_000;
  if (!(timeoutMs > 0)) throw new RangeError(`The timeout must be more than 0 ms, not ${timeoutMs}.`);
  const queue = new SlotQueue(options.concurrency ?? 4, options.onActivity);
  const closing = new AbortController();
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  // Kept unbound from `options`: fetch called as a method of another object is rejected in some runtimes.
  const fetchFunction = options.fetch ?? sendingStreamsOverNodeHttp(fetch, (url) => proxyFor(url, environmentProxyOf(process.env)) !== undefined);

  function closedFailure(label: string): CallNetworkFailure {
    return networkFailure('aborted', `${label}: the client was closed.`);
  }

  /**
   * Runs `attempt` in a queue slot until it succeeds, fails for good, or the policy's attempts are used. The slot is
   * kept through the backoff waits: a struggling server never sees more than `concurrency` calls of this client, and
   * retries do not let the calls behind them overtake.
   */
  async function queued<T>(
    label: string,
    signal: AbortSignal | undefined,
    context: { method: RouteDefinition['method']; repeatable: boolean; attempts: number },
    attempt: () => Promise<AttemptReport<T>>,
  ): Promise<T | CallNetworkFailure> {
    const release = await queue.acquire(signal);
    if (release === undefined) {
      return signal?.aborted === true ? networkFailure('aborted', noAnswerMessage('aborted')) : closedFailure(label);
    }
    const retryPolicy: RetryPolicy = { ...policy, attempts: context.attempts };
    const waitSignal = signal === undefined ? closing.signal : AbortSignal.any([signal, closing.signal]);
    try {
      for (let made = 1; ; made += 1) {
        const report = await attempt();
        if (report.outcome.kind === 'ok') options.onSuccess?.();
        if (closing.signal.aborted) return report.result;
        const delay = nextRetryDelayMs(
          report.outcome,
          { method: context.method, repeatable: context.repeatable, bodyReplayable: report.bodyReplayable },
          made,
          retryPolicy,
          random,
          Date.now(),
        );
        if (delay === undefined) return report.result;
        try {
          await sleep(delay, waitSignal);
        } catch {
          // A sleep that rejects on abort ends the wait like one that resolves early; the checks below decide.
        }
        if (signal?.aborted === true) return networkFailure('aborted', noAnswerMessage('aborted'));
        if (closing.signal.aborted) return report.result;
      }
    } finally {
      release();
    }
  }

  async function callAttempt(
    operationId: string,
    route: RouteDefinition,
    input: LooseCallInput,
    upload: UploadSource | undefined,
    callOptions: CallOptions,
  ): Promise<AttemptReport<LooseCallResult>> {
    const idle = new IdleTimeout(timeoutMs);
    const signal = idle.joined(callOptions.signal);
    // Download progress is about file content: the successful answers of routes that answer with it.
    const answersContent = Object.values(route.responses).some((answer) => answer.kind === 'binary');
    let response: Response | undefined;
    let fetchError: unknown;
    // Sees each attempt's raw answer (Retry-After, connection failures) and counts the answer's bytes as they arrive.
    const observingFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      let answer: Response;
      try {
        answer = await fetchFunction(url, init);
      } catch (error) {
        fetchError = error;
        throw error;
      }
      idle.touch();
      response = answer;
      if (answer.body === null || NULL_BODY_STATUSES.has(answer.status)) return answer;
      const onProgress = answer.ok && answersContent ? callOptions.onProgress : undefined;
      const total = announcedLength(answer.headers);
      let loaded = 0;
      const source = answer.body;
      const counted = countingStream(
        () => source[Symbol.asyncIterator](),
        (bytes) => {
          idle.touch();
          loaded += bytes;
          onProgress?.({ direction: 'download', loaded, total });
        },
      );
      return new Response(counted, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    };
    const client = createApiClient({
      baseUrl: options.baseUrl,
      apiVersion: version,
      apiKey: options.apiKey,
      fetch: observingFetch,
    }) as unknown as LooseApiClient;

    let attemptInput: LooseCallInput & { signal?: AbortSignal } = { ...input, signal };
    if (upload !== undefined) {
      let sent = 0;
      const body = upload.open((bytes) => {
        idle.touch();
        sent += bytes;
        callOptions.onProgress?.({ direction: 'upload', loaded: sent, total: upload.size });
      });
      attemptInput = {
        ...attemptInput,
        body,
        contentType: input.contentType ?? upload.contentType,
        headers: upload.size === undefined ? input.headers : { ...input.headers, 'content-length': String(upload.size) },
      };
    }

    let result: LooseCallResult;
    try {
      result = await client.call(operationId, attemptInput);
    } finally {
      idle.stop();
    }
    // The idle timeout reaches the shared client as an abort of the signal it was given; it is a timeout.
    if (result.kind === 'network' && result.error.reason === 'aborted' && idle.fired && callOptions.signal?.aborted !== true) {
      result = networkFailure('timeout', noAnswerMessage('timeout'), result.error.cause);
    }
    return { result, outcome: outcomeOf(result, response, fetchError), bodyReplayable: upload?.replayable() ?? true };
  }

  async function callLoose(operationId: string, input: LooseCallInput = {}, callOptions: CallOptions = {}): Promise<LooseCallResult> {
    if (closing.signal.aborted) return closedFailure(operationId);
    const route = Object.hasOwn(table, operationId) ? table[operationId] : undefined;
    if (route === undefined) return networkFailure('invalid-request', `Unknown operation ${operationId}.`);
    let upload: UploadSource | undefined;
    if (route.body?.kind === 'binary') {
      upload = uploadSourceOf(input.body, callOptions.bodySize);
      if (upload === undefined) {
        return networkFailure('invalid-request', `${operationId}: the body must be file content (bytes, a Blob or a stream).`);
      }
    }
    const context = {
      method: route.method,
      repeatable: callOptions.retryUnsafe === true || hasIdempotencyKey(input.headers),
      attempts: callOptions.retry === false ? 1 : policy.attempts,
    };
    return queued(operationId, callOptions.signal, context, () => callAttempt(operationId, route, input, upload, callOptions));
  }

  async function downloadAttempt(
    url: URL,
    destination: NodeJS.WritableStream,
    downloadOptions: DownloadOptions,
  ): Promise<AttemptReport<DownloadResult>> {
    const idle = new IdleTimeout(timeoutMs);
    const signal = idle.joined(downloadOptions.signal);
    let response: Response | undefined;
    const failed = (error: unknown, bodyReplayable: boolean): AttemptReport<DownloadResult> => {
      const result = failureOf(error, downloadOptions.signal, idle);
      return { result, outcome: outcomeOf(result, response, error), bodyReplayable };
    };
    try {
      try {
        // The key is never sent here: a signed address needs none, and it may lead to another host (blob storage).
        response = await fetchFunction(url, { method: 'GET', headers: { accept: '*/*' }, signal });
      } catch (error) {
        return failed(error, true);
      }
      idle.touch();
      if (!response.ok) {
        const result: CallProblem = { kind: 'problem', status: response.status, problem: await downloadProblem(response, url) };
        return { result, outcome: outcomeOf(result, response, undefined), bodyReplayable: true };
      }
      const total = announcedLength(response.headers);
      let written = 0;
      if (response.body !== null) {
        const reader = response.body.getReader();
        for (;;) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            // Bytes already written cannot be taken back from a stream: only an untouched destination allows another try.
            return failed(error, written === 0);
          }
          if (next.done) break;
          idle.touch();
          try {
            await writeChunk(destination, next.value);
          } catch (error) {
            await reader.cancel().catch(() => undefined);
            throw error;
          }
          written += next.value.byteLength;
          downloadOptions.onProgress?.({ direction: 'download', loaded: written, total });
        }
      }
      await endDestination(destination);
      return { result: { kind: 'ok', bytes: written }, outcome: { kind: 'ok' }, bodyReplayable: true };
    } finally {
      idle.stop();
    }
  }

  async function download(url: string, destination: NodeJS.WritableStream, downloadOptions: DownloadOptions = {}): Promise<DownloadResult> {
    const label = 'download';
    if (closing.signal.aborted) return closedFailure(label);
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
      return await queued(label, downloadOptions.signal, { method: 'GET', repeatable: false, attempts: policy.attempts }, () =>
        downloadAttempt(address, destination, downloadOptions),
      );
    } finally {
      destination.removeListener('error', swallow);
    }
  }

  async function close(): Promise<void> {
    if (!closing.signal.aborted) {
      closing.abort();
      queue.close();
    }
    await queue.idle();
  }

  // The typed `call` is a view of `callLoose`: the route table guarantees the shapes it promises.
  const call = callLoose as unknown as QueuedClient<(typeof routesByVersion)[V]>['call'];
  return { call, callLoose, download, close };
}
