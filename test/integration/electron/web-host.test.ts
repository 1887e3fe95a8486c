/**
 * The browser host: static files with the CSP, and the Bridge over a WebSocket guarded by the session token, the
 * page's origin and the Host header, for one page at a time. Driven with real sockets on 127.0.0.1.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BridgeEventSink, BridgeHandlers } from '../../../electron/bridge-dispatch';
import { CONTENT_SECURITY_POLICY } from '../../../electron/content-security-policy';
import { SpoolStore } from '../../../electron/uploads/spool';
import { startWebHost, type WebHost } from '../../../electron/web-host';
import { httpSpoolPieceSender } from '../../../renderer/spool-pieces';
import { BridgeError } from '../../../shared/ipc';
import { SPOOL_CHUNK_BYTES } from '../../../shared/uploads';
import {
  ANOTHER_PAGE_CLOSE_CODE,
  ANOTHER_PAGE_CLOSE_REASON,
  SESSION_HEADER,
  SPOOL_PATH,
  SPOOL_PIECE_BYTES,
  bridgeHostMessageOf,
  invokeFrameOf,
  type BridgeHostMessage,
} from '../../../shared/web-bridge-protocol';

const TOKEN = 'session-token-for-the-test';
let staticDir: string;
let web: WebHost;
let sink: BridgeEventSink | undefined;
let spools: SpoolStore;
const hostLog: string[] = [];
/** An asset large enough that a client breaking off leaves most of it unsent. */
const LARGE_ASSET_BYTES = 32 * 1024 * 1024;

/** Handlers for the channels the test calls; the others are never reached because the test does not call them. */
function handlers(): BridgeHandlers {
  const unused = async (): Promise<never> => {
    throw new BridgeError('unavailable', 'Not part of this test.');
  };
  return {
    'app:info': async () => ({ version: '1.2.3', host: 'browser', platform: 'linux', userDataDir: '/tmp/x' }),
    'connections:list': async () => ({ connections: [], activeId: null }),
    'connections:add': unused,
    'connections:update': unused,
    'connections:remove': unused,
    'connections:activate': async () => {
      throw new BridgeError('not-found', 'This connection no longer exists.');
    },
    'connections:test': unused,
    'connections:test-draft': unused,
    'vault:status': unused,
    'vault:has-key': unused,
    'vault:set-key': unused,
    'vault:clear-key': unused,
    'api:request': unused,
    'api:upload-image': unused,
    'local:status': async () => ({ state: 'running' }),
    'local:restart': unused,
    'local:migrate': unused,
    'shell:open-external': async () => {
      throw new Error('an internal detail that must not reach the page');
    },
    'dialog:choose-folder': unused,
    'dropfolders:list': unused,
    'dropfolders:add': unused,
    'dropfolders:update': unused,
    'dropfolders:remove': unused,
    'dropfolders:pause': unused,
    'dropfolders:resume': unused,
    'dropfolders:files': unused,
    'dropfolders:retry': unused,
    'dropfolders:rescan': unused,
    'dropfolders:open-folder': unused,
    'passports:targets': unused,
    'passports:add-target': unused,
    'passports:update-target': unused,
    'passports:remove-target': unused,
    'passports:request': unused,
    'passports:history': unused,
    'passports:retry': unused,
    'passports:open-file': unused,
    'dialog:choose-files': unused,
    'uploads:open-spool': async ({ fileName, size }) => ({ spoolId: await spools.open(fileName, size) }),
    'uploads:write-spool': async ({ spoolId, offset, data }) => ({ written: await spools.write(spoolId, offset, data) }),
    'uploads:start': unused,
    'uploads:list': unused,
    'uploads:cancel': unused,
    'uploads:retry': unused,
    'uploads:forget': unused,
    'files:download': unused,
    'app:start-at-login': unused,
    'app:set-start-at-login': unused,
    'app:take-opened-files': unused,
    'app:export-diagnostics': unused,
    'app:open-logs': unused,
    'app:update-state': unused,
    'app:restart-to-update': unused,
    'network:proxy': unused,
    'network:set-proxy': unused,
    'network:test-proxy': unused,
  };
}

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(os.tmpdir(), 'web-host-'));
  spools = new SpoolStore(path.join(staticDir, 'spools'), { unclaimedMs: 600_000, stalledMs: 600_000 }, Date.now, () => undefined);
  await mkdir(path.join(staticDir, 'assets'));
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><div id="app"></div>');
  await writeFile(path.join(staticDir, 'assets', 'app-1234.js'), 'console.log(1)');
  await writeFile(path.join(staticDir, 'assets', 'large-1234.js'), Buffer.alloc(LARGE_ASSET_BYTES, 0x20));
  // A file that stat calls a file but that cannot be read: reading this process's memory at offset 0 fails (EIO).
  await symlink('/proc/self/mem', path.join(staticDir, 'assets', 'unreadable-1234.js'));
  await writeFile(path.join(os.tmpdir(), 'web-host-secret.txt'), 'secret');
  web = await startWebHost({
    port: 0,
    staticDir,
    handlers: handlers(),
    onEvent: (each) => {
      sink = each;
      return () => {
        sink = undefined;
      };
    },
    log: (message) => hostLog.push(message),
    sessionToken: TOKEN,
  });
});

afterAll(async () => {
  await web.close();
  await spools.close();
  await rm(staticDir, { recursive: true, force: true });
  await rm(path.join(os.tmpdir(), 'web-host-secret.txt'), { force: true });
});

function get(pathname: string, host = `127.0.0.1:${web.port}`): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: web.port, path: pathname, headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** A bridge socket on its way to the host. */
function socketTo(options: { token?: string; origin?: string; host?: string } = {}): WebSocket {
  const token = options.token ?? TOKEN;
  return new WebSocket(`ws://127.0.0.1:${web.port}/bridge?session=${encodeURIComponent(token)}`, {
    origin: options.origin ?? `http://127.0.0.1:${web.port}`,
    headers: options.host === undefined ? {} : { host: options.host },
  });
}

/** Resolves once the socket is open, before the host said whether it accepts the page; rejects when refused. */
function opened(socket: WebSocket): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Resolves with the code and reason the host closed the socket with. */
async function closedBy(socket: WebSocket): Promise<{ code: number; reason: string }> {
  const [code, reason] = (await once(socket, 'close')) as [number, Buffer];
  return { code, reason: String(reason) };
}

/** Whether this process holds `file` open. */
async function isOpen(file: string): Promise<boolean> {
  const descriptors = await readdir('/proc/self/fd');
  const targets = await Promise.all(descriptors.map((fd) => readlink(path.join('/proc/self/fd', fd)).catch(() => '')));
  return targets.includes(file);
}

/** Waits until `condition` holds; throws naming `what` when it does not within 10 s (a guard, not an assertion on time). */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A bridge socket opened by hand over TCP, to send what no WebSocket client would. */
async function rawBridgeSocket(): Promise<Socket> {
  const socket = netConnect(web.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    [
      `GET /bridge?session=${TOKEN} HTTP/1.1`,
      `Host: 127.0.0.1:${web.port}`,
      `Origin: http://127.0.0.1:${web.port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  let head = '';
  while (!head.includes('\r\n\r\n')) head += String((await once(socket, 'data'))[0]);
  expect(head).toMatch(/^HTTP\/1\.1 101 /);
  return socket;
}

/** Opens a bridge socket the host accepts: resolves once the host said `ready`. */
async function connect(options: { token?: string; origin?: string; host?: string } = {}): Promise<WebSocket> {
  const socket = socketTo(options);
  // Heard from the start: `ready` may arrive in the same packet as the handshake's answer.
  const ready = nextMessage(socket);
  await opened(socket);
  expect(await ready).toEqual({ type: 'ready' });
  return socket;
}

/** Sends an `app:info` call with this id and expects an answer: the socket is open and served. */
async function expectServed(socket: WebSocket, id: number): Promise<void> {
  socket.send(JSON.stringify({ type: 'invoke', id, channel: 'app:info', request: {} }));
  expect(await nextMessage(socket)).toMatchObject({ id, result: { ok: true } });
}

function nextMessage(socket: WebSocket): Promise<BridgeHostMessage> {
  return new Promise((resolve) => {
    socket.once('message', (data) => {
      const message = bridgeHostMessageOf(JSON.parse(String(data)));
      if (message !== undefined) resolve(message);
    });
  });
}

describe('static files', () => {
  it('serves the page and its assets with the CSP, and routes of the app as the page', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['cache-control']).toBe('no-store');
    const asset = await get('/assets/app-1234.js');
    expect(asset).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect((await get('/connections')).body).toContain('id="app"');
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('never serves a file outside its folder', async () => {
    for (const attempt of ['/../web-host-secret.txt', '/%2e%2e/web-host-secret.txt', '/assets/..%2f..%2fweb-host-secret.txt', '/%00']) {
      const answer = await get(attempt);
      expect(answer.body).not.toContain('secret');
    }
  });

  it('answers a file that cannot be read with a 500, and goes on serving', async () => {
    const failed = await get('/assets/unreadable-1234.js');
    expect(failed.status).toBe(500);
    expect(failed.headers['cache-control']).toBe('no-store');
    expect(hostLog).toContain('Serving a file of the app failed');
    expect((await get('/assets/app-1234.js')).status).toBe(200);
  });

  it('closes the file when a client breaks off mid-transfer', async () => {
    const file = path.join(staticDir, 'assets', 'large-1234.js');
    await new Promise<void>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: web.port, path: '/assets/large-1234.js', headers: { host: `127.0.0.1:${web.port}` } });
      request.on('response', (response) => {
        response.once('data', () => {
          request.socket?.resetAndDestroy();
          resolve();
        });
      });
      request.on('error', reject);
      request.end();
    });
    await until(async () => !(await isOpen(file)), 'the host to close the file');
    expect((await get('/assets/app-1234.js')).status).toBe(200);
  });

  it('answers only requests addressed to 127.0.0.1 or localhost (no DNS rebinding)', async () => {
    expect((await get('/', 'attacker.example:80')).status).toBe(421);
    expect((await get('/', `localhost:${web.port}`)).status).toBe(200);
  });
});

describe('the bridge socket', () => {
  it('is refused without the session token, from another origin, or for another host', async () => {
    await expect(connect({ token: 'wrong' })).rejects.toThrow('403');
    await expect(connect({ token: '' })).rejects.toThrow('403');
    await expect(connect({ origin: 'http://evil.example' })).rejects.toThrow('403');
    await expect(connect({ host: 'evil.example' })).rejects.toThrow('403');
  });

  it('answers calls by id, refuses invalid ones, and hides internal errors', async () => {
    const socket = await connect();
    try {
      socket.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:info', request: {} }));
      expect(await nextMessage(socket)).toEqual({
        type: 'result',
        id: 1,
        result: { ok: true, value: { version: '1.2.3', host: 'browser', platform: 'linux', userDataDir: '/tmp/x' } },
      });
      socket.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'connections:activate', request: { connectionId: 'x' } }));
      expect(await nextMessage(socket)).toMatchObject({ id: 2, result: { ok: false, error: { code: 'not-found' } } });
      socket.send(JSON.stringify({ type: 'invoke', id: 3, channel: 'connections:activate', request: { connectionId: 7 } }));
      expect(await nextMessage(socket)).toMatchObject({ id: 3, result: { ok: false, error: { code: 'invalid-request' } } });
      socket.send(JSON.stringify({ type: 'invoke', id: 4, channel: 'no:such-channel', request: {} }));
      expect(await nextMessage(socket)).toMatchObject({ id: 4, result: { ok: false, error: { code: 'invalid-request' } } });
      socket.send(JSON.stringify({ type: 'invoke', id: 5, channel: 'shell:open-external', request: { url: 'https://example.org' } }));
      const hidden = await nextMessage(socket);
      expect(hidden).toMatchObject({ id: 5, result: { ok: false, error: { code: 'internal' } } });
      expect(JSON.stringify(hidden)).not.toContain('internal detail');
    } finally {
      socket.close();
    }
  });

  it('takes a call with bytes as a binary frame, and checks it like any other', async () => {
    const socket = await connect();
    try {
      const spoolId = await spools.open('chunked.ifc', SPOOL_CHUNK_BYTES * 2);
      const data = new Uint8Array(SPOOL_CHUNK_BYTES).fill(5);
      socket.send(invokeFrameOf({ type: 'invoke', id: 11, channel: 'uploads:write-spool', request: { spoolId, offset: 0, data } }));
      expect(await nextMessage(socket)).toEqual({ type: 'result', id: 11, result: { ok: true, value: { written: SPOOL_CHUNK_BYTES } } });
      const tooLarge = new Uint8Array(SPOOL_CHUNK_BYTES + 1);
      socket.send(invokeFrameOf({ type: 'invoke', id: 12, channel: 'uploads:write-spool', request: { spoolId, offset: SPOOL_CHUNK_BYTES, data: tooLarge } }));
      expect(await nextMessage(socket)).toMatchObject({ id: 12, result: { ok: false, error: { code: 'invalid-request' } } });
      // A frame that is no call is dropped; the socket goes on.
      socket.send(Uint8Array.of(0, 0, 0, 9, 1, 2));
      await expectServed(socket, 13);
    } finally {
      socket.close();
    }
  });

  it('forwards host events to the open page', async () => {
    const socket = await connect();
    try {
      const received = nextMessage(socket);
      sink?.('local:status-changed', { state: 'failed', message: 'disk full' });
      expect(await received).toEqual({ type: 'event', event: 'local:status-changed', payload: { state: 'failed', message: 'disk full' } });
    } finally {
      socket.close();
    }
  });

  it('refuses a second page while one is open, saying why, and takes one again once it closed', async () => {
    const first = await connect();
    const second = socketTo();
    const secondMessages: unknown[] = [];
    second.on('message', (data) => secondMessages.push(String(data)));
    expect(await closedBy(second)).toEqual({ code: ANOTHER_PAGE_CLOSE_CODE, reason: ANOTHER_PAGE_CLOSE_REASON });
    expect(secondMessages).toEqual([]);
    await expectServed(first, 21);
    const firstClosed = once(first, 'close');
    first.close();
    await firstClosed;
    const third = await connect();
    try {
      await expectServed(third, 22);
    } finally {
      third.close();
    }
  });

  it('closes a socket that sends a malformed frame, and goes on', async () => {
    const raw = await rawBridgeSocket();
    const ended = once(raw, 'close');
    // A text frame with the reserved bits RSV2 and RSV3 set, which no extension of this host defines.
    raw.write(Buffer.from([0xb1, 0x80, 0, 0, 0, 0]));
    await ended;
    const socket = await connect();
    try {
      await expectServed(socket, 31);
    } finally {
      socket.close();
    }
  });
});

describe('a spool’s pieces over HTTP', () => {
  /** The page's own fetch, with the Origin a page of the host sends (Node's fetch sends none). */
  const fromPage: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: `http://127.0.0.1:${web.port}` } });
  const sender = (): ReturnType<typeof httpSpoolPieceSender> => httpSpoolPieceSender(`http://127.0.0.1:${web.port}`, TOKEN, fromPage);

  /** A PUT of `body` to a spool's address, with the headers given; answers the status and the parsed answer. */
  function put(address: string, body: Uint8Array, headers: Record<string, string>): Promise<{ status: number; answer: unknown }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port: web.port, method: 'PUT', path: address, headers: { host: `127.0.0.1:${web.port}`, ...headers, 'content-length': body.byteLength } },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += String(chunk)));
          response.on('end', () => {
            const json = response.headers['content-type']?.startsWith('application/json') === true;
            resolve({ status: response.statusCode ?? 0, answer: json ? JSON.parse(text) : text });
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }
  const pageHeaders = (): Record<string, string> => ({ origin: `http://127.0.0.1:${web.port}`, [SESSION_HEADER]: TOKEN });

  it('writes a File’s pieces to the spool byte for byte, a chunk at a time', async () => {
    const bytes = randomBytes(SPOOL_PIECE_BYTES + 3 * SPOOL_CHUNK_BYTES + 17);
    const spoolId = await spools.open('model.ifc', bytes.byteLength);
    const file = new Blob([bytes]);
    const send = sender();
    expect(await send(spoolId, 0, file.slice(0, SPOOL_PIECE_BYTES))).toEqual({ ok: true, value: { written: SPOOL_PIECE_BYTES } });
    expect(await send(spoolId, SPOOL_PIECE_BYTES, file.slice(SPOOL_PIECE_BYTES))).toEqual({ ok: true, value: { written: bytes.byteLength } });
    expect(createHash('sha256').update(await readFile(spools.fileOf(spoolId))).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('answers a piece the spool refuses with the reason, after reading it to its end', async () => {
    const spoolId = await spools.open('model.ifc', 2 * SPOOL_CHUNK_BYTES);
    const send = sender();
    const misplaced = await send(spoolId, SPOOL_CHUNK_BYTES, new Blob([new Uint8Array(SPOOL_CHUNK_BYTES)]));
    expect(misplaced).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('byte 0 comes next') } });
    expect(await send('no-such-spool', 0, new Blob([Uint8Array.of(1)]))).toMatchObject({ ok: false, error: { code: 'not-found' } });
    // The chunks before the one refused are kept: the page stops at a refusal, and the spool says where it stands.
    const tooLong = await send(spoolId, 0, new Blob([new Uint8Array(2 * SPOOL_CHUNK_BYTES + 1).fill(3)]));
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('past the') } });
    expect((await readFile(spools.fileOf(spoolId))).equals(Buffer.alloc(2 * SPOOL_CHUNK_BYTES, 3))).toBe(true);
  });

  it('refuses a piece without the session token, from another origin, or for another host, and keeps nothing of it', async () => {
    const spoolId = await spools.open('model.ifc', 4);
    const address = `${SPOOL_PATH}${spoolId}?offset=0`;
    const body = Uint8Array.of(1, 2, 3, 4);
    expect((await put(address, body, { origin: `http://127.0.0.1:${web.port}` })).status).toBe(403);
    expect((await put(address, body, { ...pageHeaders(), [SESSION_HEADER]: 'wrong' })).status).toBe(403);
    expect((await put(address, body, { ...pageHeaders(), origin: 'http://evil.example' })).status).toBe(403);
    expect((await put(address, body, { [SESSION_HEADER]: TOKEN })).status).toBe(403);
    expect((await put(address, body, { ...pageHeaders(), host: 'evil.example' })).status).toBe(421);
    expect((await readFile(spools.fileOf(spoolId))).byteLength).toBe(0);
  });

  it('refuses an address or a length that is not one of a piece', async () => {
    const spoolId = await spools.open('model.ifc', 4);
    const body = Uint8Array.of(1, 2, 3, 4);
    const refused = { ok: false, error: { code: 'invalid-request' } };
    expect(await put(`${SPOOL_PATH}${spoolId}?offset=-1`, body, pageHeaders())).toMatchObject({ status: 400, answer: refused });
    expect(await put(`${SPOOL_PATH}${spoolId}`, body, pageHeaders())).toMatchObject({ status: 400, answer: refused });
    expect(await put(`${SPOOL_PATH}?offset=0`, body, pageHeaders())).toMatchObject({ status: 400, answer: refused });
    expect(await put(`${SPOOL_PATH}%E0%A4%A?offset=0`, body, pageHeaders())).toMatchObject({ status: 400, answer: refused });
    const { status } = await fetch(`http://127.0.0.1:${web.port}${SPOOL_PATH}${spoolId}?offset=0`, { headers: pageHeaders() });
    expect(status).toBe(405);
    const announced = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port: web.port, method: 'PUT', path: `${SPOOL_PATH}${spoolId}?offset=0`, headers: { ...pageHeaders(), host: `127.0.0.1:${web.port}`, 'content-length': SPOOL_PIECE_BYTES + 1 } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
          request.destroy();
        },
      );
      request.on('error', reject);
      request.write(Uint8Array.of(1));
    });
    expect(announced).toBe(400);
  });

  it('keeps what arrived of a piece whose page broke off, and goes on', async () => {
    const spoolId = await spools.open('model.ifc', 4 * SPOOL_CHUNK_BYTES);
    const request = httpRequest({
      host: '127.0.0.1',
      port: web.port,
      method: 'PUT',
      path: `${SPOOL_PATH}${spoolId}?offset=0`,
      headers: { ...pageHeaders(), host: `127.0.0.1:${web.port}`, 'content-length': 4 * SPOOL_CHUNK_BYTES },
    });
    request.on('error', () => undefined);
    request.write(new Uint8Array(2 * SPOOL_CHUNK_BYTES + 5).fill(9));
    await until(async () => (await readFile(spools.fileOf(spoolId))).byteLength >= SPOOL_CHUNK_BYTES, 'the first chunk on disk');
    request.destroy();
    await until(async () => hostLog.includes('A piece of a file for a spool broke off'), 'the host to hear the break');
    const kept = (await readFile(spools.fileOf(spoolId))).byteLength;
    expect([SPOOL_CHUNK_BYTES, 2 * SPOOL_CHUNK_BYTES]).toContain(kept);
    expect(await sender()(spoolId, kept, new Blob([new Uint8Array(4 * SPOOL_CHUNK_BYTES - kept)]))).toEqual({ ok: true, value: { written: 4 * SPOOL_CHUNK_BYTES } });
  });

  it('tells the page when the host cannot be reached', async () => {
    const gone = httpSpoolPieceSender('http://127.0.0.1:9', TOKEN, fromPage);
    expect(await gone('any', 0, new Blob([Uint8Array.of(1)]))).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });
});
