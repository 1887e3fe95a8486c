/**
 * A real API server behind a socket that can be paused, as a stopped server process is: while paused, connections are
 * accepted and requests taken, but not a byte goes on to the server or comes back, on new and open connections alike;
 * once resumed, what waited goes on. The Bridge's `api:request` is answered through the desktop host's real queued
 * client over that socket, with a timeout a test can wait for.
 */
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { fetch as nodeFetch } from 'undici';
import { onTestFinished } from 'vitest';
import { runApiCall } from '../../../electron/http/api-request';
import { createQueuedClient } from '../../../electron/http/queued-client';
import type { ApiAnswer, ApiRequest } from '../../../shared/ipc';
import { KEY, type ApiServer } from './api-server';

export interface PausedServer {
  /** Answers the Bridge's `api:request` for the server's connection through the socket. */
  handle(request: ApiRequest): Promise<ApiAnswer>;
  pause(): void;
  resume(): void;
}

/** One direction of a connection: its bytes held while the server is paused. */
function forward(from: Socket, to: Socket, paused: () => boolean, waiting: Buffer[]): void {
  from.on('data', (chunk: Buffer) => {
    if (paused()) waiting.push(chunk);
    else to.write(chunk);
  });
  from.on('end', () => to.end());
  from.on('error', () => to.destroy());
}

/** Puts `server` behind a pausable socket; its client gives up on an attempt after `timeoutMs` of silence. */
export async function pausedServer(server: ApiServer, timeoutMs: number): Promise<PausedServer> {
  const upstream = new URL(await server.listen());
  let paused = false;
  const held: Array<{ to: Socket; waiting: Buffer[] }> = [];
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const target = connect(Number(upstream.port), upstream.hostname);
    const toServer: Buffer[] = [];
    const toClient: Buffer[] = [];
    held.push({ to: target, waiting: toServer }, { to: client, waiting: toClient });
    for (const socket of [client, target]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    forward(client, target, () => paused, toServer);
    forward(target, client, () => paused, toClient);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  });
  const client = createQueuedClient({
    baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    apiVersion: 'v2.3',
    apiKey: async () => KEY,
    timeoutMs,
    // The page's window has a fetch of its own; the host's client runs in Node.
    fetch: nodeFetch as unknown as typeof fetch,
  });
  onTestFinished(() => client.close());
  return {
    handle: ({ connectionId: _connectionId, ...call }) => runApiCall(client, 'v2.3', call),
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const { to, waiting } of held) {
        for (const chunk of waiting.splice(0)) if (!to.destroyed) to.write(chunk);
      }
    },
  };
}
