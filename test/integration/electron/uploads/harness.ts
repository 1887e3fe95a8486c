/**
 * Uploads through the desktop host against a real server: the server with its job worker on 127.0.0.1 (stopped and
 * started again on the same port and data, to be away for a while), which counts the file creates and upload requests
 * that reach it; the real host with its Bridge handlers; and a TCP proxy that can hold an upload's request half sent,
 * or hold the server's answers, to stop the host at exactly that point.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { dispatchBridgeCall } from '../../../../electron/bridge-dispatch';
import type { DesktopHost, DesktopHostOptions } from '../../../../electron/desktop';
import { startServer, type RunningServer } from '../../../../server/server';
import { isChannelValue, type IpcChannel, type IpcRequest, type IpcResult, type IpcValue } from '../../../../shared/ipc';
import { SPOOL_CHUNK_BYTES, type UploadEntry } from '../../../../shared/uploads';
import { startTestDesktopHost } from '../desktop-harness';
import { waitFor } from '../wait-for';

/** The administrator key of the test server. */
export const KEY = 'upload-test-key-0123456789abcdefghijklmnopqrstuvwxyz';

/** A server that counts what reaches it, and can be away for a while. */
export interface UploadServer {
  url: string;
  port: number;
  /** The address of every upload request that reached the server (also those cut off). */
  uploads: string[];
  /** The address of every file create that reached the server. */
  creates: string[];
  /** One JSON request with the administrator key, straight to the server; throws for anything but 2xx. */
  request<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  /** The bytes the server holds for a building file, read through its signed download address. */
  content(kind: 'buildings' | 'portfolios', ownerId: string, fileId: string): Promise<Buffer>;
  /** Stops the server; its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server with its worker on a fresh data folder. */
export async function startUploadServer(): Promise<UploadServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-upload-server-'));
  let running: RunningServer | undefined;
  const uploads: string[] = [];
  const creates: string[] = [];
  const launch = async (port: number): Promise<RunningServer> => {
    const server = await startServer({ dataDir, port, bootstrapKey: KEY, logger: false, worker: { pollMs: 50 } });
    server.app.server.on('request', (request: IncomingMessage) => {
      const url = request.url ?? '';
      if (request.method !== 'POST') return;
      if (url.includes('/upload/')) uploads.push(url);
      else if (/\/files\/?$/.test(url)) creates.push(url);
    });
    return server;
  };
  running = await launch(0);
  const url = running.url;
  const port = Number(new URL(url).port);
  const request = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/api/v2.3${route}`, {
      method,
      headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return (text === '' ? null : JSON.parse(text)) as T;
  };
  return {
    url,
    port,
    uploads,
    creates,
    request,
    content: async (kind, ownerId, fileId) => {
      const link = await request<{ url: string }>('GET', `/${kind}/${ownerId}/files/${fileId}/download`);
      const response = await fetch(new URL(link.url, url));
      if (!response.ok) throw new Error(`download: ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    },
    stop: async () => {
      await running?.close();
      running = undefined;
    },
    restart: async () => {
      running = await launch(port);
    },
    close: async () => {
      await running?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a portfolio with a building; answers their ids. */
export async function createBuilding(server: UploadServer, name: string): Promise<{ portfolioId: string; buildingId: string }> {
  const portfolio = await server.request<{ id: string }>('POST', '/portfolios', { name: `${name} portfolio` });
  const building = await server.request<{ id: string }>('POST', '/buildings', { portfolioId: portfolio.id, name });
  return { portfolioId: portfolio.id, buildingId: building.id };
}

/** The desktop host with what it sent the page, and typed calls of its Bridge as the page makes them. */
export interface TestHost {
  host: DesktopHost;
  userDataDir: string;
  /** Every `uploads:changed` event, in order. */
  changes: UploadEntry[];
  /** When each of `changes` came (`performance.now()`). */
  changedAt: number[];
  /** What the host logged. */
  logged: string[];
  call<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcValue<C>>>;
  /** A call that must succeed. */
  value<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcValue<C>>;
  /** Waits until the upload's latest event passes `probe`; answers that entry. */
  until(uploadId: string, what: string, probe: (entry: UploadEntry) => boolean, timeoutMs?: number): Promise<UploadEntry>;
  /** The states an upload went through, in order. */
  statesOf(uploadId: string): string[];
}

/** Starts the host on `userDataDir` with short timings and records its upload events and log. */
export async function startHost(
  userDataDir: string,
  options: Partial<Pick<DesktopHostOptions, 'vault' | 'chooseFiles' | 'chooseSaveTarget' | 'tuning' | 'startAtLogin'>> = {},
): Promise<TestHost> {
  const logged: string[] = [];
  const host = await startTestDesktopHost(userDataDir, {
    log: (message) => logged.push(message),
    ...options,
    tuning: {
      clientRetry: { attempts: 2, baseDelayMs: 20 },
      ...options.tuning,
      uploads: { retryBaseMs: 200, retryMaxMs: 1_000, unclaimedMs: 60_000, stalledMs: 60_000, ...options.tuning?.uploads },
    },
  });
  const changes: UploadEntry[] = [];
  const changedAt: number[] = [];
  host.onEvent((event, payload) => {
    if (event !== 'uploads:changed') return;
    changes.push(payload as UploadEntry);
    changedAt.push(performance.now());
  });
  const call = async <C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcValue<C>>> => {
    const result = await dispatchBridgeCall(host.handlers, channel, request, () => undefined);
    if (result.ok) expect(isChannelValue(channel, result.value)).toBe(true);
    return result as IpcResult<IpcValue<C>>;
  };
  const value = async <C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcValue<C>> => {
    const result = await call(channel, request);
    if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
    return result.value;
  };
  const latest = (uploadId: string): UploadEntry | undefined => changes.findLast((entry) => entry.id === uploadId);
  return {
    host,
    userDataDir,
    changes,
    changedAt,
    logged,
    call,
    value,
    until: (uploadId, what, probe, timeoutMs) =>
      waitFor(
        what,
        () => {
          const entry = latest(uploadId);
          return entry !== undefined && probe(entry) ? entry : undefined;
        },
        timeoutMs,
      ),
    statesOf: (uploadId) => {
      const states: string[] = [];
      for (const entry of changes) if (entry.id === uploadId && states.at(-1) !== entry.state) states.push(entry.state);
      return states;
    },
  };
}

/** A chunk of a spool as the page sends it. */
export interface SpoolChunkSent {
  offset: number;
  data: Uint8Array;
}

/** The pieces of `bytes` as the page sends them: chunks of at most SPOOL_CHUNK_BYTES, with their offsets. */
export function chunksOf(bytes: Uint8Array): SpoolChunkSent[] {
  const chunks: SpoolChunkSent[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += SPOOL_CHUNK_BYTES) {
    chunks.push({ offset, data: bytes.slice(offset, offset + SPOOL_CHUNK_BYTES) });
  }
  return chunks;
}

/** Writes a file of `bytes` random bytes, a MiB at a time. */
export async function randomFile(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += 1024 * 1024) {
    if (!out.write(randomBytes(Math.min(1024 * 1024, bytes - written)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** The SHA-256 of some bytes, to compare large contents in one line of a failure. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A TCP proxy in front of the server that can stop an upload's request half sent, and the server's answers. */
export interface GateProxy {
  url: string;
  /** From now on, a connection that sends an upload request of `fileName` stops forwarding it after its first bytes, until released. */
  holdUploads(fileName: string): void;
  /** Resolves once an upload request is being held. */
  uploadHeld(): Promise<void>;
  releaseUploads(): void;
  /** Stops forwarding the server's answers, until released. */
  holdAnswers(): void;
  releaseAnswers(): void;
  close(): Promise<void>;
}

/** Starts a proxy to the server's port on 127.0.0.1. */
export async function startGateProxy(port: number): Promise<GateProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let heldName: string | undefined;
  let answersHeld = false;
  const heldUploads: Socket[] = [];
  let announceHeld: () => void = () => undefined;
  let held = new Promise<void>((resolve) => (announceHeld = resolve));

  const proxy = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    if (answersHeld) upstream.pause();
    client.on('data', (chunk: Buffer) => {
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => {
          if (!heldUploads.includes(client)) client.resume();
        });
      }
      if (heldName !== undefined && chunk.toString('latin1').includes(`/upload/${encodeURIComponent(heldName)} HTTP/1.1`)) {
        client.pause();
        heldUploads.push(client);
        announceHeld();
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) {
        upstream.pause();
        client.once('drain', () => {
          if (!answersHeld) upstream.resume();
        });
      }
    });
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    holdUploads: (fileName) => {
      heldName = fileName;
      held = new Promise<void>((resolve) => (announceHeld = resolve));
    },
    uploadHeld: () => held,
    releaseUploads: () => {
      heldName = undefined;
      for (const client of heldUploads.splice(0)) client.resume();
    },
    holdAnswers: () => {
      answersHeld = true;
      for (const { upstream } of pairs) upstream.pause();
    },
    releaseAnswers: () => {
      answersHeld = false;
      for (const { upstream } of pairs) upstream.resume();
    },
    close: async () => {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
