/**
 * One attempt of an API call: the shared client over a fetch that sees the raw answer (Retry-After, connection
 * failures) and counts its bytes, an upload's body opened anew with its own byte count, and the idle timeout that ends
 * an attempt when no byte moves.
 */
import { createApiClient, noAnswerMessage } from '../../shared/api/client';
import type { RouteDefinition } from '../../shared/api/routes';
import { networkFailure, outcomeOf } from './attempt-failure';
import type { AttemptReport, CallOptions, ClientContext, LooseCallInput, LooseCallResult } from './client-context';
import { IdleTimeout } from './idle-timeout';
import { announcedLength, countingStream, type UploadSource } from './progress';

/** What the shared client's typed `call` is underneath: the route table checked the shapes before. */
interface LooseApiClient {
  call(operationId: string, input: LooseCallInput & { signal?: AbortSignal }): Promise<LooseCallResult>;
}

/** Answers that have no body by definition; a Response cannot be built around one. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** What the observing fetch saw of its attempt. */
interface Observed {
  response: Response | undefined;
  fetchError: unknown;
}

/** A fetch that records each answer and failure in `observed` and counts the answer's bytes as they arrive. */
function observingFetch(
  context: ClientContext,
  idle: IdleTimeout,
  onProgress: CallOptions['onProgress'],
  observed: Observed,
): typeof globalThis.fetch {
  return async (url, init) => {
    let answer: Response;
    try {
      answer = await context.fetch(url, init);
    } catch (error) {
      observed.fetchError = error;
      throw error;
    }
    idle.touch();
    observed.response = answer;
    if (answer.body === null || NULL_BODY_STATUSES.has(answer.status)) return answer;
    const reportTo = answer.ok ? onProgress : undefined;
    const total = announcedLength(answer.headers);
    let loaded = 0;
    const source = answer.body;
    const counted = countingStream(
      () => source[Symbol.asyncIterator](),
      (bytes) => {
        idle.touch();
        loaded += bytes;
        reportTo?.({ direction: 'download', loaded, total });
      },
    );
    return new Response(counted, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  };
}

/** The attempt's input with the upload's body opened anew, counting its bytes as they are sent. */
function withUploadBody(
  input: LooseCallInput & { signal?: AbortSignal },
  upload: UploadSource,
  idle: IdleTimeout,
  onProgress: CallOptions['onProgress'],
): LooseCallInput & { signal?: AbortSignal } {
  let sent = 0;
  const body = upload.open((bytes) => {
    idle.touch();
    sent += bytes;
    onProgress?.({ direction: 'upload', loaded: sent, total: upload.size });
  });
  return {
    ...input,
    body,
    contentType: input.contentType ?? upload.contentType,
    headers: upload.size === undefined ? input.headers : { ...input.headers, 'content-length': String(upload.size) },
  };
}

/** One attempt of `operationId`; `upload` is the body of a route that takes file content. */
export async function callAttempt(
  context: ClientContext,
  operationId: string,
  route: RouteDefinition,
  input: LooseCallInput,
  upload: UploadSource | undefined,
  callOptions: CallOptions,
): Promise<AttemptReport<LooseCallResult>> {
  const idle = new IdleTimeout(context.timeoutMs);
  const signal = idle.joined(callOptions.signal);
  // Download progress is about file content: the successful answers of routes that answer with it.
  const answersContent = Object.values(route.responses).some((answer) => answer.kind === 'binary');
  const observed: Observed = { response: undefined, fetchError: undefined };
  const client = createApiClient({
    baseUrl: context.baseUrl,
    apiVersion: context.apiVersion,
    apiKey: context.apiKey,
    fetch: observingFetch(context, idle, answersContent ? callOptions.onProgress : undefined, observed),
  }) as unknown as LooseApiClient;

  const plainInput = { ...input, signal };
  const attemptInput = upload === undefined ? plainInput : withUploadBody(plainInput, upload, idle, callOptions.onProgress);

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
  return { result, outcome: outcomeOf(result, observed.response, observed.fetchError), bodyReplayable: upload?.replayable() ?? true };
}
