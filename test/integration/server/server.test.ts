/**
 * A listening server's close against real sockets: it waits for the requests under way, and for nothing else.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../server/server';

const KEY = 'server-close-test-key-0123456789abcdefghijklmnop';
/** Far below the minute and more a connection held a close up for, far above a close on a loaded machine. */
const CLOSE_WITHIN_MS = 10_000;

let dataDir: string;
let server: RunningServer;
let closing: Promise<void> | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cd-server-close-'));
  server = await startServer({ dataDir, port: 0, bootstrapKey: KEY, logger: false });
  closing = undefined;
});

afterEach(async () => {
  closing ??= server.close();
  await closing;
  await rm(dataDir, { recursive: true, force: true });
});

/** Whether `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('closing a listening server', () => {
  it('does not wait for a connection that never carried a request', async () => {
    const silent = await connect(server.url);
    const ended = new Promise((resolve) => silent.once('close', resolve));
    silent.on('error', () => undefined);

    closing = server.close();
    expect(await settlesWithin(closing, CLOSE_WITHIN_MS)).toBe(true);
    await ended;
  });

  it('answers the request under way, then does not wait for its keep-alive connection', async () => {
    const agent = new http.Agent({ keepAlive: true });
    const body = JSON.stringify({ name: 'Sent across the close' });
    const request = http.request(`${server.url}/api/v2.3/portfolios`, {
      method: 'POST',
      agent,
      headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    // The head and half the body are on the server before it closes; the rest follows once it is closing.
    request.write(body.slice(0, 10));
    await new Promise<void>((resolve) => server.app.server.once('request', () => resolve()));

    closing = server.close();
    request.end(body.slice(10));
    const response = await answered;
    response.resume();
    expect(response.statusCode).toBe(201);
    expect(await settlesWithin(closing, CLOSE_WITHIN_MS)).toBe(true);
    agent.destroy();
  });
});
