/**
 * Browser mode: serves the built renderer and the Bridge over a WebSocket, on 127.0.0.1 only. The bridge holds the
 * power (keys, disk, servers), so a socket is accepted only with this start's random session token, from a page of
 * this very origin (no other site's page can drive it), and for a Host header naming this address (no DNS rebinding).
 * One page at a time: a second one is closed with `ANOTHER_PAGE_CLOSE_CODE`. The same guard lets the page PUT a File's
 * bytes for a spool (`web-host-spool.ts`). A client that breaks off, a malformed frame or a file that cannot be read
 * ends that one exchange, never the host.
 */
import { isAscii } from 'node:buffer';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { IpcEvent } from '../shared/ipc';
import {
  ANOTHER_PAGE_CLOSE_CODE,
  ANOTHER_PAGE_CLOSE_REASON,
  BRIDGE_SOCKET_PATH,
  SESSION_HEADER,
  SESSION_PARAM,
  SPOOL_PATH,
  bridgeInvokeOf,
  bridgeInvokeOfFrame,
  type BridgeHostMessage,
  type BridgeInvokeMessage,
} from '../shared/web-bridge-protocol';
import { dispatchBridgeCall, type BridgeEventSink, type BridgeHandlers, type DispatchLog } from './bridge-dispatch';
import { APP_RESPONSE_HEADERS, contentTypeOf, rendererFileFor } from './app-protocol';
import { receiveSpoolPiece } from './web-host-spool';

/** How to run the browser host. */
export interface WebHostOptions {
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (`dist/renderer`). */
  staticDir: string;
  handlers: BridgeHandlers;
  /** Subscribes to host events; the web host forwards them to every open page. */
  onEvent: (sink: BridgeEventSink) => () => void;
  log: DispatchLog;
  /** The session token; a random one when absent. */
  sessionToken?: string;
}

/** A running browser host. */
export interface WebHost {
  /** The address to open, with the session token. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A socket message larger than this is refused. Calls are JSON, the largest an image of at most 10 MiB as base64
 * (`api:upload-image`, 13.3 MiB); a call with bytes, such as a spool chunk of 1 MiB, comes as a binary frame. The
 * page itself sends a File's bytes as PUTs instead (`web-host-spool.ts`).
 */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * A text message as a string. JSON the page sends is nearly always ASCII, for which Latin-1 gives the same text many
 * times faster than UTF-8 decoding (it shows with messages of a megabyte and more); anything else is UTF-8.
 */
function messageText(data: RawData): string {
  return Buffer.isBuffer(data) && isAscii(data) ? data.toString('latin1') : String(data);
}

/** A binary message's bytes, however `ws` delivered them. */
function frameBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function serveStatic(staticDir: string, request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
  for (const [name, value] of Object.entries(APP_RESPONSE_HEADERS)) response.setHeader(name, value);
  response.setHeader('X-Frame-Options', 'DENY');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await rendererFileFor(staticDir, pathname);
  const info = file === undefined ? undefined : await stat(file).catch(() => undefined);
  if (file === undefined || info === undefined) {
    const built = await stat(path.join(staticDir, 'index.html')).catch(() => undefined);
    response
      .writeHead(built === undefined ? 503 : 404, { 'Content-Type': 'text/plain; charset=utf-8' })
      .end(built === undefined ? 'The app has not been built.' : 'Not found.');
    return;
  }
  const isIndex = path.basename(file) === 'index.html';
  // Set, not written: until the first bytes are read, a file that cannot be read can still be answered with a 500.
  response.statusCode = 200;
  response.setHeader('Content-Type', contentTypeOf(file));
  response.setHeader('Content-Length', info.size);
  // Built assets carry a content hash in their names; the page itself must always be fresh.
  response.setHeader('Cache-Control', isIndex ? 'no-store' : 'public, max-age=31536000, immutable');
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  await streamFile(await open(file), response);
}

/**
 * Sends a file's content. Resolves once the response is closed, sent or not: a client that goes away mid-transfer
 * closes the file with it. Rejects when reading fails, leaving the response to the caller.
 */
async function streamFile(handle: FileHandle, response: ServerResponse): Promise<void> {
  if (response.destroyed) {
    await handle.close();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const source = handle.createReadStream();
    source.once('error', reject);
    response.once('error', reject);
    response.once('close', () => {
      source.destroy();
      resolve();
    });
    source.pipe(response);
  });
}

/** Starts the browser host on 127.0.0.1. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.sessionToken ?? randomBytes(24).toString('base64url');
  let port = options.port;
  const allowedHosts = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];
  /** A request of this start's page: addressed to this host, from a page of its origin, with its session token. */
  const fromThisPage = (request: IncomingMessage, givenToken: string | string[] | null | undefined): boolean => {
    const origin = request.headers.origin;
    return (
      allowedHosts().includes(request.headers.host ?? '') &&
      origin !== undefined &&
      allowedHosts().some((host) => origin === `http://${host}`) &&
      typeof givenToken === 'string' &&
      sameToken(givenToken, token)
    );
  };

  const server = createServer((request, response) => {
    if (!allowedHosts().includes(request.headers.host ?? '')) {
      response.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Misdirected request.');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const { pathname } = url;
    if (pathname.startsWith(SPOOL_PATH)) {
      if (!fromThisPage(request, request.headers[SESSION_HEADER])) {
        request.resume();
        response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Forbidden.');
        return;
      }
      receiveSpoolPiece(request, response, url, options.handlers, options.log).catch((error: unknown) => {
        options.log('Taking a piece of a file for a spool failed', error);
        response.destroy();
      });
      return;
    }
    serveStatic(options.staticDir, request, response, pathname).catch((error: unknown) => {
      options.log('Serving a file of the app failed', error);
      if (response.headersSent) {
        // Part of the file went out under a Content-Length it will not reach: only closing tells the client so.
        response.destroy();
        return;
      }
      response.removeHeader('Content-Length');
      response.setHeader('Cache-Control', 'no-store');
      response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The file could not be read.');
    });
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (request, socket, head) => {
    // A client that resets during the handshake or the refusal must not take the host down with an unheard error.
    socket.on('error', (error) => options.log('A bridge socket failed before it opened', error));
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== BRIDGE_SOCKET_PATH || !fromThisPage(request, url.searchParams.get(SESSION_PARAM))) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });

  const send = (ws: WebSocket, message: BridgeHostMessage): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };

  sockets.on('connection', (ws: WebSocket) => {
    // ws closes the socket itself after an error (a malformed or oversized frame, a reset); it only must be heard.
    ws.on('error', (error) => options.log('A bridge socket failed', error));
    if ([...sockets.clients].some((other) => other !== ws && other.readyState === other.OPEN)) {
      ws.close(ANOTHER_PAGE_CLOSE_CODE, ANOTHER_PAGE_CLOSE_REASON);
      return;
    }
    send(ws, { type: 'ready' });
    ws.on('message', (data, isBinary) => {
      let parsed: unknown;
      let call: BridgeInvokeMessage | undefined;
      if (isBinary) {
        call = bridgeInvokeOfFrame(frameBytes(data));
      } else {
        try {
          parsed = JSON.parse(messageText(data));
        } catch {
          return;
        }
        call = bridgeInvokeOf(parsed);
      }
      if (call === undefined) {
        // A call whose id can be read still gets an answer, so the page does not wait for ever.
        const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
        if (typeof id === 'number') {
          send(ws, { type: 'result', id, result: { ok: false, error: { code: 'invalid-request', message: 'The call is not valid.' } } });
        }
        return;
      }
      void dispatchBridgeCall(options.handlers, call.channel, call.request, options.log).then((result) =>
        send(ws, { type: 'result', id: call.id, result }),
      );
    });
  });

  const unsubscribe = options.onEvent((event: IpcEvent, payload: unknown) => {
    for (const ws of sockets.clients) send(ws, { type: 'event', event, payload });
  });

  await new Promise<void>((resolve, reject) => {
    // A port that is taken may be tried again on another: nothing of this start is left listening.
    const refused = (error: Error): void => {
      unsubscribe();
      sockets.close();
      reject(error);
    };
    server.once('error', refused);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', refused);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?${SESSION_PARAM}=${token}`,
    port,
    async close() {
      unsubscribe();
      for (const ws of sockets.clients) ws.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
