/**
 * One attempt of a download from a signed address: the answer's body written to the destination chunk by chunk, at
 * the pace the destination takes it, and a failed answer turned into problem details.
 */
import { Value } from 'typebox/value';
import type { CallProblem } from '../../shared/api/client';
import { Problem } from '../../shared/api/schemas';
import { failureOf, outcomeOf } from './attempt-failure';
import type { AttemptReport, ClientContext, DownloadOptions, DownloadResult } from './client-context';
import { IdleTimeout } from './idle-timeout';
import { announcedLength } from './progress';

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

/** One attempt; rejects only when writing to `destination` fails. */
export async function downloadAttempt(
  context: ClientContext,
  url: URL,
  destination: NodeJS.WritableStream,
  downloadOptions: DownloadOptions,
): Promise<AttemptReport<DownloadResult>> {
  const idle = new IdleTimeout(context.timeoutMs);
  const signal = idle.joined(downloadOptions.signal);
  let response: Response | undefined;
  const failed = (error: unknown, bodyReplayable: boolean): AttemptReport<DownloadResult> => {
    const result = failureOf(error, downloadOptions.signal, idle);
    return { result, outcome: outcomeOf(result, response, error), bodyReplayable };
  };
  try {
    try {
      // The key is never sent here: a signed address needs none, and it may lead to another host (blob storage).
      response = await context.fetch(url, { method: 'GET', headers: { accept: '*/*' }, signal });
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
