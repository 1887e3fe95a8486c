/**
 * Streamed uploads sent with node:http(s) instead of fetch. fetch (undici) sends a streamed body at about half the
 * rate of curl over loopback, node:http at close to curl's rate (`test/bench/app-upload.bench.ts`); for a model of a
 * gigabyte that is the difference between waiting and not. Every other request, and every body that is not a stream,
 * goes to fetch as before, and so does a streamed upload to an address a proxy applies to: node:http would go around the
 * proxy that fetch takes.
 *
 * The answer is a fetch `Response`, and failures are thrown as fetch throws them (a TypeError whose cause carries the
 * system's code, or the signal's reason), so callers cannot tell the two apart. Like fetch with `redirect: 'error'`,
 * which is how a streamed body is sent (see `shared/api/own-redirects.ts`), a redirect is a failure: the body cannot be
 * sent twice.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { isLoopbackHost } from '../../shared/connection-address';
import { RecycledPieces } from './recycled-pieces';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Answers that have no body by definition; `Response` refuses one for them. */
const BODILESS_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

function headersOf(rawHeaders: readonly string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) headers.append(rawHeaders[index] ?? '', rawHeaders[index + 1] ?? '');
  return headers;
}

const ENDED_EARLY = 'The request ended before its body was sent.';

/**
 * Writes the body's chunks into the request and ends it, waiting while the socket is full; each chunk is handed back to
 * its pieces once the socket has taken it (`recycled-pieces.ts`). Rejects when the request ends before the body did.
 */
async function sendBody(source: Readable, request: http.ClientRequest): Promise<void> {
  for await (const chunk of source) {
    if (request.destroyed) throw new Error(ENDED_EARLY);
    const bytes = chunk as Uint8Array;
    const taken = request.write(bytes, (error) => {
      if (error === null || error === undefined) RecycledPieces.handBack(bytes);
    });
    if (!taken) await drained(request);
  }
  request.end();
}

/** Resolves when the request takes writes again; rejects when it closed first. */
function drained(request: http.ClientRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    if (request.destroyed) {
      reject(new Error(ENDED_EARLY));
      return;
    }
    const onDrain = (): void => {
      request.off('close', onClose);
      resolve();
    };
    const onClose = (): void => {
      request.off('drain', onDrain);
      reject(new Error(ENDED_EARLY));
    };
    request.once('drain', onDrain);
    request.once('close', onClose);
  });
}

function requestUrl(input: string | URL | Request): URL {
  return new URL(input instanceof Request ? input.url : input);
}

/** Sends `body` to `url` with node:http(s); resolves with the answer once its head has arrived. */
function sendStream(url: URL, init: RequestInit, body: ReadableStream<Uint8Array>): Promise<Response> {
  const signal = init.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      void body.cancel(signal.reason).catch(() => undefined);
      return;
    }
    const source = Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]);
    // The body's own failure (its file is gone) is the cause, not the broken request that follows from it.
    let bodyFailure: unknown;
    source.once('error', (error) => (bodyFailure = error));
    const fail = (error: unknown): void =>
      reject(signal?.aborted === true ? signal.reason : new TypeError('fetch failed', { cause: bodyFailure ?? error }));
    const send = url.protocol === 'https:' ? https.request : url.protocol === 'http:' ? http.request : undefined;
    if (send === undefined) {
      fail(new Error(`${url.protocol} is not a protocol an upload can use.`));
      source.destroy();
      return;
    }
    const request = send(url, { method: init.method ?? 'POST', headers: Object.fromEntries(new Headers(init.headers)), ...(signal === undefined ? {} : { signal }) }, (response) => {
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        response.destroy();
        request.destroy();
        fail(new Error(`The server redirected an upload (HTTP ${status}); its bytes cannot be sent twice.`));
        return;
      }
      const content = BODILESS_STATUSES.has(status) || init.method === 'HEAD' ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
      if (content === null) response.resume();
      try {
        resolve(new Response(content, { status, statusText: response.statusMessage ?? '', headers: headersOf(response.rawHeaders) }));
      } catch (error) {
        response.destroy();
        fail(error);
      }
    });
    request.on('error', fail);
    sendBody(source, request).catch((error: unknown) => {
      source.destroy();
      request.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/**
 * A fetch that sends streamed bodies over node:http(s) and everything else through `next`; `proxied` says which
 * addresses `next` reaches through a proxy, whose uploads go to `next` too.
 */
export function sendingStreamsOverNodeHttp(next: typeof fetch, proxied: (url: URL) => boolean): typeof fetch {
  return async (input, init) => {
    const body = init?.body;
    if (init === undefined || !(body instanceof ReadableStream)) return next(input, init);
    const url = requestUrl(input);
    if (proxied(url)) return next(input, init);
    return sendStream(url, init, body as ReadableStream<Uint8Array>);
  };
}

/**
 * The addresses Electron's uploads leave to Chromium's fetch: all but plain http to this computer. Chromium applies the
 * system's proxy, PAC and certificate store, which node:http would go around; none of them applies to the loopback
 * (Chromium never proxies it), so an upload to the Local workspace or a server on this computer goes at node:http's
 * rate.
 */
export function notLoopbackHttp(url: URL): boolean {
  return !(url.protocol === 'http:' && isLoopbackHost(url.hostname));
}
