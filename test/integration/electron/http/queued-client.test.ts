import { EventEmitter } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createQueuedClient,
  type QueuedClient,
  type QueuedClientOptions,
  type TransferProgress,
} from '../../../../electron/http/queued-client';
import type { Routes } from '../../../../shared/api/routes';

const KEY = 'qc-vault-key-5b0e7c1d9a3f42';
const ACCOUNT = { id: '6f9619ff-8b86-4011-b42d-00cf4fc964ff', name: 'Bureau Kring', accountType: 3 };
const BUILDING_ID = '9804b68f-25b5-4224-a408-1eca54aaa5bc';
const FILE_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const UPLOAD_PARAMS = { buildingId: BUILDING_ID, fileId: FILE_ID, fileName: 'model.ifc' };
const UPLOAD_PATH = `/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/upload/model.ifc`;

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

type Handler = (request: IncomingMessage, response: ServerResponse, index: number) => void | Promise<void>;

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let handler: Handler;
/** Requests the fault server has not answered yet, and the most there ever were at once. */
const open = new Set<ServerResponse>();
let maxOpen = 0;
const arrivals = new EventEmitter();
let clients: QueuedClient<Routes>[] = [];
let waits: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const index = seen.length;
    seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers });
    // A fresh connection per request: a test never inherits a socket that the previous test's faults broke.
    response.shouldKeepAlive = false;
    open.add(response);
    maxOpen = Math.max(maxOpen, open.size);
    arrivals.emit('request');
    void Promise.resolve(handler(request, response, index)).catch(() => cut(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  open.clear();
  maxOpen = 0;
  waits = [];
  handler = (_request, response) => reply(response, 404, problem(404, 'Not Found'));
});

afterEach(async () => {
  for (const response of [...open]) cut(response);
  await Promise.all(clients.map((client) => client.close()));
  clients = [];
  vi.restoreAllMocks();
});

function reply(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  open.delete(response);
  const contentType = status >= 400 ? 'application/problem+json' : 'application/json';
  response.writeHead(status, { 'content-type': contentType, ...headers });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

/** Ends the connection without an answer (or in the middle of one). */
function cut(response: ServerResponse): void {
  open.delete(response);
  response.socket?.destroy();
}

function problem(status: number, title: string, detail = `${title}.`) {
  return { type: 'about:blank', title, status, detail, instance: '/', errors: [], message: detail };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function requestsSeen(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (seen.length < count) return;
      arrivals.off('request', check);
      resolve();
    };
    arrivals.on('request', check);
    check();
  });
}

function clientFor(overrides: Partial<QueuedClientOptions<'v2.3'>> = {}): QueuedClient<Routes> {
  const client = createQueuedClient({
    baseUrl,
    apiVersion: 'v2.3',
    apiKey: async () => KEY,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...overrides,
  });
  clients.push(client);
  return client;
}

function bytes(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, index) => (index * 7) % 256);
}

function portfolioId(index: number): string {
  return `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
}

/** Everything a result holds, errors and their causes included, as a log line would show it. */
function everything(value: unknown): string {
  const visited = new WeakSet<object>();
  const json = JSON.stringify(value, (_key, each: unknown) => {
    if (each instanceof Headers) return Object.fromEntries(each);
    if (each instanceof Error) {
      const errors = (each as { errors?: unknown }).errors;
      return { ...each, name: each.name, message: each.message, stack: each.stack, cause: each.cause, errors };
    }
    if (typeof each === 'object' && each !== null) {
      if (visited.has(each)) return '[seen]';
      visited.add(each);
    }
    return each;
  });
  return `${json}\n${inspect(value, { depth: 10 })}`;
}

describe('retries', () => {
  it('sends the key from the vault with every attempt and gets past two 503 answers', async () => {
    let vaultReads = 0;
    handler = (_request, response, index) =>
      index < 2 ? reply(response, 503, problem(503, 'Service Unavailable')) : reply(response, 200, ACCOUNT);
    const client = clientFor({
      apiKey: async () => {
        vaultReads += 1;
        return KEY;
      },
    });

    const account = await client.call('getCurrentAccount');

    expect(account.kind).toBe('ok');
    if (account.kind === 'ok') expect(account.value.name).toBe('Bureau Kring');
    expect(seen.map((each) => `${each.method} ${each.path}`)).toEqual(Array(3).fill('GET /api/v2.3/accounts/current'));
    expect(seen.map((each) => each.headers['x-api-key'])).toEqual([KEY, KEY, KEY]);
    expect(vaultReads).toBe(3);
    // Full jitter with random() = 0.5: half of 500 ms, then half of 1000 ms.
    expect(waits).toEqual([250, 500]);
  });

  it('gives up after the configured attempts and returns the last answer', async () => {
    handler = (_request, response) => reply(response, 502, problem(502, 'Bad Gateway'));
    const result = await clientFor({ retry: { attempts: 3 } }).call('listPortfolios');
    expect(result).toMatchObject({ kind: 'problem', status: 502 });
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('waits at least as long as Retry-After asks before trying again', async () => {
    handler = (_request, response, index) =>
      index === 0 ? reply(response, 429, problem(429, 'Too Many Requests'), { 'retry-after': '1' }) : reply(response, 200, []);
    const result = await clientFor({ random: () => 0 }).call('listPortfolios');
    expect(result).toMatchObject({ kind: 'ok', status: 200, value: [] });
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it('returns a 429 at once when Retry-After asks for more than the longest wait', async () => {
    handler = (_request, response) => reply(response, 429, problem(429, 'Too Many Requests'), { 'retry-after': '120' });
    const result = await clientFor().call('listPortfolios');
    expect(result).toMatchObject({ kind: 'problem', status: 429 });
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry a 400, and says what the server said', async () => {
    handler = (_request, response) => reply(response, 400, problem(400, 'Bad Request', 'The name is blank.'));
    const result = await clientFor().call('createPortfolio', { body: { name: ' ' } });
    expect(result).toMatchObject({ kind: 'problem', status: 400, problem: { detail: 'The name is blank.' } });
    expect(seen).toHaveLength(1);
  });

  it('tries a GET again when the connection breaks in the middle of the answer', async () => {
    handler = (_request, response, index) => {
      if (index > 0) return reply(response, 200, [{ id: portfolioId(1), name: 'Noord', logo: null }]);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write('[{"id":', () => cut(response));
    };
    const once = await clientFor({ retry: { attempts: 1 } }).call('listPortfolios');
    expect(once).toMatchObject({ kind: 'network', error: { reason: 'unreachable' } });

    seen = [];
    const retried = await clientFor().call('listPortfolios');
    expect(retried).toMatchObject({ kind: 'ok', value: [{ name: 'Noord' }] });
    expect(seen).toHaveLength(2);
  });

  it('does not repeat a POST whose answer was lost, unless it carries an Idempotency-Key', async () => {
    const created = { id: portfolioId(2), name: 'Zuid', logo: null };
    handler = async (request, response, index) => {
      await readBody(request);
      if (index >= 2) return reply(response, 201, created, { location: `/api/v2.3/portfolios/${created.id}` });
      response.writeHead(201, { 'content-type': 'application/json', 'content-length': '500' });
      response.write('{"id":', () => cut(response));
    };
    const client = clientFor();

    const plain = await client.call('createPortfolio', { body: { name: 'Zuid' } });
    expect(plain).toMatchObject({ kind: 'network', error: { reason: 'unreachable' } });
    expect(seen).toHaveLength(1);

    const keyed = await client.callLoose('createPortfolio', { headers: { 'Idempotency-Key': 'a1b2c3' }, body: { name: 'Zuid' } });
    expect(keyed).toMatchObject({ kind: 'ok', status: 201, value: created });
    expect(seen).toHaveLength(3);
    expect(seen[2]?.headers['idempotency-key']).toBe('a1b2c3');
  });

  it('repeats a POST after a 5xx only when the caller vouches for it', async () => {
    handler = async (request, response, index) => {
      await readBody(request);
      if (index === 0 || index === 1) reply(response, 503, problem(503, 'Service Unavailable'));
      else reply(response, 201, { id: portfolioId(3), name: 'Oost', logo: null });
    };
    const client = clientFor();
    expect(await client.call('createPortfolio', { body: { name: 'Oost' } })).toMatchObject({ kind: 'problem', status: 503 });
    expect(seen).toHaveLength(1);
    expect(await client.call('createPortfolio', { body: { name: 'Oost' } }, { retryUnsafe: true })).toMatchObject({ kind: 'ok' });
    expect(seen).toHaveLength(3);
  });

  it('sends a POST again when the server could not even be connected to', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const result = await clientFor({ baseUrl: `http://127.0.0.1:${port}` }).call('createPortfolio', { body: { name: 'West' } });
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'unreachable', message: 'The server could not be reached (nothing answers at its address).' } });
    expect(waits).toHaveLength(4);
  });

  it('makes a single attempt when asked to', async () => {
    handler = (_request, response) => reply(response, 503, problem(503, 'Service Unavailable'));
    const result = await clientFor().callLoose('getCurrentAccount', {}, { retry: false });
    expect(result).toMatchObject({ kind: 'problem', status: 503 });
    expect(seen).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('ends a call within one timeout when the server accepts the connection and never answers, and goes on once it answers', async () => {
    // A paused server: the connection is accepted and held, not a byte comes back.
    const held = new Set<Socket>();
    let answering = false;
    const silent = createNetServer((socket) => {
      if (answering) {
        socket.once('data', () => {
          const body = JSON.stringify(ACCOUNT);
          socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
        });
        return;
      }
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const address = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const client = clientFor({ baseUrl: address, timeoutMs: 300, sleep: undefined });
      const started = performance.now();
      const result = await client.call('getCurrentAccount');
      const elapsed = performance.now() - started;
      expect(result).toMatchObject({ kind: 'network', error: { reason: 'timeout', message: 'The server did not answer in time.' } });
      // One attempt, not five: the caller learns within the timeout that the server does not answer.
      expect(held.size).toBe(1);
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1_500);

      answering = true;
      expect(await client.call('getCurrentAccount')).toMatchObject({ kind: 'ok', value: ACCOUNT });
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('ends a call whose answer stops in the middle of its body, after one timeout of silence', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`[${JSON.stringify({ id: portfolioId(1), name: 'Noord', logo: null })}`);
    };
    const started = performance.now();
    const result = await clientFor({ timeoutMs: 300 }).call('listPortfolios');
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'timeout' } });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(seen).toHaveLength(1);
  });

  it('counts only silence: a slow answer that keeps arriving is not cut off', async () => {
    const piece = JSON.stringify({ id: portfolioId(4), name: 'x'.repeat(100), logo: null });
    const pieces = 40;
    handler = async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      for (let index = 0; index < pieces; index += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        response.write(`${index === 0 ? '' : ','}${piece}`);
      }
      open.delete(response);
      response.end(']');
    };
    const result = await clientFor({ timeoutMs: 600, retry: { attempts: 1 } }).call('listPortfolios');
    expect(result.kind).toBe('ok');
    if (result.kind === 'ok') expect(result.value).toHaveLength(pieces);
  });
});

describe('the queue', () => {
  it('never has more calls in flight than its concurrency', async () => {
    const held: { response: ServerResponse; id: string }[] = [];
    let activity = { queued: 0, running: 0 };
    const reported: { queued: number; running: number }[] = [];
    // Answers one request whenever every call the client says is running has reached the server: a client that sent
    // more than its limit would show them here before anything was answered.
    const step = (): void => {
      if (held.length === 0 || held.length !== activity.running) return;
      const next = held.shift()!;
      reply(next.response, 200, { id: next.id, name: 'P', logo: null });
    };
    handler = (request, response) => {
      held.push({ response, id: (request.url ?? '').split('/').pop() ?? '' });
      step();
    };
    const client = clientFor({
      concurrency: 2,
      onActivity: (now) => {
        activity = now;
        reported.push(now);
        queueMicrotask(step);
      },
    });

    const ids = [1, 2, 3, 4, 5, 6].map(portfolioId);
    const results = await Promise.all(ids.map((id) => client.call('getPortfolio', { params: { id } })));

    expect(results.map((result) => (result.kind === 'ok' ? result.value.id : result.kind))).toEqual(ids);
    expect(maxOpen).toBe(2);
    expect(Math.max(...reported.map((each) => each.running))).toBe(2);
    expect(Math.max(...reported.map((each) => each.queued))).toBe(4);
    expect(reported.at(-1)).toEqual({ queued: 0, running: 0 });
  });

  it('sends queued calls in the order they were made', async () => {
    handler = (request, response) => reply(response, 200, { id: (request.url ?? '').split('/').pop(), name: 'P', logo: null });
    const client = clientFor({ concurrency: 1 });
    const ids = [7, 8, 9, 10].map(portfolioId);
    await Promise.all(ids.map((id) => client.call('getPortfolio', { params: { id } })));
    expect(seen.map((each) => each.path)).toEqual(ids.map((id) => `/api/v2.3/portfolios/${id}`));
  });

  it('lets a waiting call be aborted without it ever reaching the server', async () => {
    const held: ServerResponse[] = [];
    handler = (_request, response) => void held.push(response);
    const client = clientFor({ concurrency: 1 });
    const running = client.call('getCurrentAccount');
    await requestsSeen(1);
    const controller = new AbortController();
    const waiting = client.call('listPortfolios', undefined, { signal: controller.signal });
    controller.abort();
    expect(await waiting).toMatchObject({ kind: 'network', error: { reason: 'aborted' } });
    reply(held[0]!, 200, ACCOUNT);
    expect(await running).toMatchObject({ kind: 'ok' });
    expect(seen).toHaveLength(1);
  });

  it('on close, refuses new calls, drops waiting ones, and lets the running one finish without retries', async () => {
    const held: ServerResponse[] = [];
    handler = (_request, response) => void held.push(response);
    const client = clientFor({ concurrency: 1 });
    const running = client.call('getCurrentAccount');
    const waiting = client.call('listPortfolios');
    await requestsSeen(1);

    let closed = false;
    const closing = client.close().then(() => (closed = true));
    expect(await waiting).toMatchObject({ kind: 'network', error: { reason: 'aborted', message: 'listPortfolios: the client was closed.' } });
    expect(await client.call('listPortfolios')).toMatchObject({ kind: 'network', error: { reason: 'aborted' } });
    expect(closed).toBe(false);

    reply(held[0]!, 503, problem(503, 'Service Unavailable'));
    expect(await running).toMatchObject({ kind: 'problem', status: 503 });
    await closing;
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('uploads', () => {
  function receiveUploads(answers: number[] = []): { bodies: Buffer[] } {
    const bodies: Buffer[] = [];
    handler = async (request, response, index) => {
      bodies.push(await readBody(request));
      const status = answers[index] ?? 201;
      if (status >= 400) reply(response, status, problem(status, 'Failed'));
      else reply(response, status, undefined, { location: `/api/v2.3/buildings/${BUILDING_ID}/files/${FILE_ID}/status` });
    };
    return { bodies };
  }

  it('reports the bytes of an upload as they are sent, up to the body size', async () => {
    const { bodies } = receiveUploads();
    const content = bytes(300 * 1024);
    const progress: TransferProgress[] = [];
    const result = await clientFor().call(
      'uploadBuildingFile',
      { params: UPLOAD_PARAMS, body: content },
      { onProgress: (each) => progress.push(each) },
    );

    expect(result).toMatchObject({ kind: 'ok', status: 201 });
    expect(seen[0]?.path).toBe(UPLOAD_PATH);
    expect(seen[0]?.headers['content-length']).toBe(String(content.byteLength));
    expect(seen[0]?.headers['x-api-key']).toBe(KEY);
    expect(Buffer.compare(bodies[0]!, content)).toBe(0);
    const uploads = progress.filter((each) => each.direction === 'upload');
    expect(uploads.length).toBeGreaterThan(1);
    expect(uploads.every((each) => each.total === content.byteLength)).toBe(true);
    expect(uploads.map((each) => each.loaded)).toEqual([...uploads.map((each) => each.loaded)].sort((a, b) => a - b));
    expect(uploads.at(-1)?.loaded).toBe(content.byteLength);
  });

  it('opens a stream factory again for a retry and sends the whole body each time', async () => {
    const { bodies } = receiveUploads([503]);
    const content = bytes(150 * 1024);
    let opened = 0;
    const progress: TransferProgress[] = [];
    const result = await clientFor().call(
      'uploadBuildingFile',
      {
        params: UPLOAD_PARAMS,
        body: () => {
          opened += 1;
          return Readable.from([content.subarray(0, 100_000), content.subarray(100_000)]);
        },
      },
      { retryUnsafe: true, bodySize: content.byteLength, onProgress: (each) => progress.push(each) },
    );

    expect(result).toMatchObject({ kind: 'ok', status: 201 });
    expect(opened).toBe(2);
    expect(bodies.map((body) => Buffer.compare(body, content))).toEqual([0, 0]);
    expect(seen.map((each) => each.headers['content-length'])).toEqual([String(content.byteLength), String(content.byteLength)]);
    // Progress starts over with the second attempt.
    expect(progress.map((each) => each.loaded)).toEqual([100_000, content.byteLength, 100_000, content.byteLength]);
  });

  it('does not resend a one-shot stream that was partly sent: the failure is returned', async () => {
    handler = (request, response) => {
      request.once('data', () => cut(response));
    };
    const content = bytes(4 * 1024 * 1024);
    const oneShot = Readable.from(Array.from({ length: 64 }, (_, index) => content.subarray(index * 65_536, (index + 1) * 65_536)));
    const result = await clientFor().call('uploadBuildingFile', { params: UPLOAD_PARAMS, body: oneShot }, { retryUnsafe: true });
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'unreachable' } });
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('refuses a body that is not file content', async () => {
    const result = await clientFor().call('uploadBuildingFile', {
      params: UPLOAD_PARAMS,
      // @ts-expect-error an upload takes bytes, a Blob or a stream, not JSON
      body: { content: 'text' },
    });
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'invalid-request' } });
    expect(seen).toHaveLength(0);
  });
});

describe('downloads', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'cd-queued-client-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  function serveContent(content: Uint8Array, answers: number[] = []): void {
    handler = (_request, response, index) => {
      const status = answers[index] ?? 200;
      if (status >= 400) return reply(response, status, problem(status, 'Not Found', 'The content no longer exists.'));
      open.delete(response);
      response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(content.byteLength) });
      response.end(Buffer.from(content));
    };
  }

  it('streams the body into the destination with progress, and sends no key', async () => {
    const content = bytes(256 * 1024);
    serveContent(content);
    const target = path.join(folder, 'passport.pdf');
    const progress: TransferProgress[] = [];

    const result = await clientFor().download(`${baseUrl}/api/v2.3/downloads/signed-token?expires=1`, createWriteStream(target), {
      onProgress: (each) => progress.push(each),
    });

    expect(result).toEqual({ kind: 'ok', bytes: content.byteLength });
    expect(Buffer.compare(await readFile(target), content)).toBe(0);
    expect(seen[0]?.headers['x-api-key']).toBeUndefined();
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((each) => each.direction === 'download' && each.total === content.byteLength)).toBe(true);
    expect(progress.at(-1)?.loaded).toBe(content.byteLength);
  });

  it('tries again after a 503 while nothing was written yet', async () => {
    const content = bytes(1000);
    serveContent(content, [503]);
    const target = path.join(folder, 'retried.pdf');
    const result = await clientFor().download(`${baseUrl}/files/a`, createWriteStream(target));
    expect(result).toEqual({ kind: 'ok', bytes: 1000 });
    expect(seen).toHaveLength(2);
    expect((await readFile(target)).byteLength).toBe(1000);
  });

  it("answers a failed download with the server's problem details", async () => {
    serveContent(bytes(10), [404]);
    const destination = createWriteStream(path.join(folder, 'missing.pdf'));
    const result = await clientFor().download(`${baseUrl}/files/gone`, destination);
    destination.destroy();
    expect(result).toMatchObject({ kind: 'problem', status: 404, problem: { detail: 'The content no longer exists.' } });
    expect(seen).toHaveLength(1);
  });

  it('does not retry once part of the body was written', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '100000' });
      response.write(Buffer.from(bytes(20_000)), () => cut(response));
    };
    const destination = createWriteStream(path.join(folder, 'partial.pdf'));
    const result = await clientFor().download(`${baseUrl}/files/partial`, destination);
    destination.destroy();
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'unreachable' } });
    expect(seen).toHaveLength(1);
  });

  it('refuses an address that is not http(s)', async () => {
    const destination = createWriteStream(path.join(folder, 'nothing'));
    const result = await clientFor().download('file:///etc/passwd', destination);
    destination.destroy();
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'invalid-request' } });
  });
});

describe('the key', () => {
  it('never appears in a result, an error or a log line, whatever goes wrong', async () => {
    const logged: unknown[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args));
    }
    const closedPort = await (async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      return port;
    })();
    handler = (request, response) => {
      if (request.url === '/api/v2.3/portfolios') return reply(response, 401, problem(401, 'Unauthorized', 'The API key is unknown.'));
      if (request.url === '/api/v2.3/accounts/current') return;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('[', () => cut(response));
    };
    const options = { retry: { attempts: 2 }, timeoutMs: 200 };

    const results = [
      await clientFor(options).call('listPortfolios'),
      await clientFor(options).call('getCurrentAccount'),
      await clientFor(options).call('listAvailableDatabases'),
      await clientFor({ ...options, baseUrl: `http://127.0.0.1:${closedPort}` }).call('listPortfolios'),
      await clientFor({ ...options, apiKey: async () => `${KEY}\n` }).call('listPortfolios'),
    ];

    expect(results.map((result) => (result.kind === 'network' ? result.error.reason : result.kind))).toEqual([
      'problem',
      'timeout',
      'unreachable',
      'unreachable',
      'invalid-request',
    ]);
    expect(seen.filter((each) => each.headers['x-api-key'] === KEY).length).toBe(seen.length);
    for (const result of results) expect(everything(result)).not.toContain(KEY);
    expect(everything(logged)).not.toContain(KEY);
  });
});

describe('versions and types', () => {
  it('calls the v2.1 paths for a v2.1 connection', async () => {
    handler = (_request, response) => reply(response, 200, ACCOUNT);
    const client = createQueuedClient({ baseUrl, apiVersion: 'v2.1', apiKey: async () => KEY });
    const result = await client.callLoose('getCurrentAccount');
    await client.close();
    expect(result).toMatchObject({ kind: 'ok', status: 200 });
    expect(seen[0]?.path).toBe('/api/v2.1/accounts/current');
  });

  it('answers an unknown operation as an invalid request without calling the server', async () => {
    const result = await clientFor().callLoose('dropAllTables', {});
    expect(result).toMatchObject({ kind: 'network', error: { reason: 'invalid-request', message: 'Unknown operation dropAllTables.' } });
    expect(seen).toHaveLength(0);
  });

  it('keeps the input types of the route table', async () => {
    handler = (_request, response) => reply(response, 200, ACCOUNT);
    const client = clientFor();
    // @ts-expect-error getPortfolio needs its id
    const missing = await client.call('getPortfolio', {});
    expect(missing).toMatchObject({ kind: 'network', error: { reason: 'invalid-request' } });
    // @ts-expect-error the signal belongs in the options; one in the input is not used
    const ignored = await client.call('getCurrentAccount', { signal: AbortSignal.abort() });
    expect(ignored).toMatchObject({ kind: 'ok', status: 200 });
    expect(seen).toHaveLength(1);
  });
});
