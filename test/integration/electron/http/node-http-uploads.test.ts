import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notLoopbackHttp, sendingStreamsOverNodeHttp } from '../../../../electron/http/node-http-uploads';
import { completeFile, fileChunks } from '../../../../electron/uploads/file-chunks';

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  sha256: string;
  bytes: number;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let received: Received[];
let handler: Handler;

/** Reads the whole request, records it, then answers 202 with a JSON body and a header. */
const acceptAll: Handler = (request, response) => {
  const hash = createHash('sha256');
  let bytes = 0;
  request.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.byteLength;
  });
  request.on('end', () => {
    received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, sha256: hash.digest('hex'), bytes });
    response.writeHead(202, 'Accepted', { 'content-type': 'application/json', 'x-file-state': 'stored' });
    response.end(JSON.stringify({ stored: bytes }));
  });
};

beforeAll(async () => {
  server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  received = [];
  handler = acceptAll;
});

/** A stream of `count` chunks of `size` bytes, each filled with its index. */
function chunks(count: number, size: number): { stream: ReadableStream<Uint8Array>; sha256: string } {
  const hash = createHash('sha256');
  for (let index = 0; index < count; index += 1) hash.update(new Uint8Array(size).fill(index));
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index === count) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(size).fill(index));
      index += 1;
    },
  });
  return { stream, sha256: hash.digest('hex') };
}

/** No proxy applies to the test's server. */
const send = sendingStreamsOverNodeHttp(fetch, () => false);

describe('streamed uploads over node:http', () => {
  it('sends every byte with the given method and headers, and answers with the status, headers and body', async () => {
    const { stream, sha256 } = chunks(40, 64 * 1024);
    const response = await send(`${baseUrl}/upload/model.ifc?version=2`, {
      method: 'POST',
      headers: { 'x-api-key': 'key-123', 'content-type': 'application/octet-stream', 'content-length': String(40 * 64 * 1024) },
      body: stream,
    });
    expect(response.status).toBe(202);
    expect(response.statusText).toBe('Accepted');
    expect(response.headers.get('x-file-state')).toBe('stored');
    expect(await response.json()).toEqual({ stored: 40 * 64 * 1024 });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', path: '/upload/model.ifc?version=2', sha256, bytes: 40 * 64 * 1024 });
    expect(received[0]?.headers['x-api-key']).toBe('key-123');
    expect(received[0]?.headers['content-length']).toBe(String(40 * 64 * 1024));
  });

  it('sends a stream of unknown length in chunks', async () => {
    const { stream, sha256 } = chunks(5, 1000);
    const response = await send(`${baseUrl}/upload`, { method: 'PUT', body: stream });
    expect(response.status).toBe(202);
    expect(received[0]).toMatchObject({ method: 'PUT', sha256, bytes: 5000 });
    expect(received[0]?.headers['transfer-encoding']).toBe('chunked');
  });

  it('sends a file read in recycled pieces byte for byte to a server that reads slowly, and reads into the same buffers again', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'cd-node-http-uploads-'));
    try {
      const content = randomBytes(24 * 1024 * 1024);
      const file = path.join(folder, 'model.ifc');
      await writeFile(file, content);
      handler = (request, response) => {
        // A pause after every chunk keeps the socket full, so pieces wait for it while the file is read further.
        request.on('data', () => {
          request.pause();
          setTimeout(() => request.resume(), 2);
        });
        acceptAll(request, response);
      };
      const memories = new Set<ArrayBufferLike>();
      let pieces = 0;
      const reader = fileChunks(file, content.byteLength, completeFile(content.byteLength), new AbortController().signal, 'model.ifc');
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await reader.next();
          if (next.done === true) {
            controller.close();
            return;
          }
          memories.add(next.value.buffer);
          pieces += 1;
          controller.enqueue(next.value);
        },
      });
      const response = await send(`${baseUrl}/upload`, { method: 'POST', headers: { 'content-length': String(content.byteLength) }, body });
      expect(response.status).toBe(202);
      expect(received[0]).toMatchObject({ sha256: createHash('sha256').update(content).digest('hex'), bytes: content.byteLength });
      expect(pieces).toBe(24);
      expect(memories.size).toBeLessThan(pieces / 2);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('answers a problem the server sends as it is', async () => {
    handler = (request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(409, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify({ title: 'Conflict' }));
      });
    };
    const response = await send(`${baseUrl}/upload`, { method: 'POST', body: chunks(3, 100).stream });
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toEqual({ title: 'Conflict' });
  });

  it('fails on a redirect as fetch does with redirect: "error", and never sends the body to its target', async () => {
    handler = (request, response) => {
      if (request.url === '/elsewhere') {
        acceptAll(request, response);
        return;
      }
      request.resume();
      response.writeHead(307, { location: '/elsewhere' });
      response.end();
    };
    const failure = await send(`${baseUrl}/upload`, { method: 'POST', body: chunks(3, 100).stream }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as TypeError).cause)).toMatch(/redirected an upload \(HTTP 307\)/);
    expect(received).toEqual([]);
  });

  it('fails with the cause of a body that breaks off, and the server never sees a whole request', async () => {
    let ended = false;
    let aborted: () => void = () => undefined;
    const cut = new Promise<void>((resolve) => (aborted = resolve));
    let seen: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (seen = resolve));
    handler = (request) => {
      request.once('data', () => seen());
      request.resume();
      request.on('end', () => (ended = true));
      request.on('close', () => aborted());
    };
    // The file goes away once the server has the request and its first bytes, so that a request is there to break off.
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (index === 4) {
          await arrived;
          controller.error(new Error('the file went away'));
          return;
        }
        controller.enqueue(new Uint8Array(100).fill(index));
        index += 1;
      },
    });
    const failure = await send(`${baseUrl}/upload`, { method: 'POST', headers: { 'content-length': '1000' }, body }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as TypeError).cause)).toMatch(/the file went away/);
    await cut;
    expect(ended).toBe(false);
  });

  it('fails with the signal’s reason when aborted while sending', async () => {
    const controller = new AbortController();
    handler = (request) => {
      request.once('data', () => controller.abort(new DOMException('The user cancelled.', 'AbortError')));
      request.resume();
    };
    let index = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(streamController) {
        index += 1;
        streamController.enqueue(new Uint8Array(16 * 1024).fill(index % 256));
      },
    });
    const failure = await send(`${baseUrl}/upload`, { method: 'POST', body: endless, signal: controller.signal }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DOMException);
    expect((failure as DOMException).message).toBe('The user cancelled.');
  });

  it('fails at once with the reason of a signal aborted before, and cancels the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({ cancel: () => void (cancelled = true) });
    const failure = await send(`${baseUrl}/upload`, { method: 'POST', body, signal: AbortSignal.abort(new Error('stopped before')) }).catch(
      (error: unknown) => error,
    );
    expect(String(failure)).toMatch(/stopped before/);
    expect(cancelled).toBe(true);
    expect(received).toEqual([]);
  });

  it('reports an address nobody listens on as fetch does: a TypeError whose cause carries the system’s code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await send(`http://127.0.0.1:${port}/upload`, { method: 'POST', body: chunks(1, 10).stream }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('hands every request without a streamed body to the fetch it wraps', async () => {
    const wrapped: string[] = [];
    const sendOrFetch = sendingStreamsOverNodeHttp((input, init) => {
      wrapped.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    }, () => false);
    expect((await sendOrFetch(`${baseUrl}/read`)).status).toBe(202);
    expect((await sendOrFetch(`${baseUrl}/bytes`, { method: 'POST', body: new Uint8Array([1, 2, 3]) })).status).toBe(202);
    expect((await sendOrFetch(`${baseUrl}/stream`, { method: 'POST', body: chunks(1, 10).stream })).status).toBe(202);
    expect(wrapped).toEqual([`GET ${baseUrl}/read`, `POST ${baseUrl}/bytes`]);
    expect(received.map((each) => each.path)).toEqual(['/read', '/bytes', '/stream']);
  });

  it('hands a streamed upload to the fetch it wraps when a proxy applies to its address, so it goes through that proxy too', async () => {
    const wrapped: string[] = [];
    const proxiedUrls: string[] = [];
    const sendOrFetch = sendingStreamsOverNodeHttp(
      (input, init) => {
        wrapped.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return fetch(input, init);
      },
      (url) => {
        proxiedUrls.push(url.href);
        return url.pathname === '/through-proxy';
      },
    );
    const { stream, sha256 } = chunks(4, 1024);
    expect((await sendOrFetch(`${baseUrl}/through-proxy`, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit)).status).toBe(202);
    expect((await sendOrFetch(`${baseUrl}/direct`, { method: 'PUT', body: chunks(1, 10).stream })).status).toBe(202);
    expect(wrapped).toEqual([`PUT ${baseUrl}/through-proxy`]);
    expect(proxiedUrls).toEqual([`${baseUrl}/through-proxy`, `${baseUrl}/direct`]);
    expect(received.find((each) => each.path === '/through-proxy')?.sha256).toBe(sha256);
  });
});

describe('which uploads Electron leaves to Chromium', () => {
  it('keeps every address but plain http to this computer to Chromium’s fetch', () => {
    const toChromium = (address: string): boolean => notLoopbackHttp(new URL(address));
    expect(['http://127.0.0.1:47600/api', 'http://localhost:8080', 'http://[::1]:9000/', 'http://127.8.9.10/'].map(toChromium)).toEqual([false, false, false, false]);
    expect(['https://127.0.0.1:47600/api', 'https://desk.example.com', 'http://192.168.1.20:3000', 'http://desk.example.com'].map(toChromium)).toEqual([true, true, true, true]);
  });
});
