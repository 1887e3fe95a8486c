import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamingFetch } from '../../../../electron/http/streaming-fetch';

const MIB = 1024 * 1024;
/** The server takes this much of an upload before it stops reading. */
const TAKEN_BEFORE_HOLD = 8 * MIB;

// A full garbage collection on demand, to see which chunks of a body something still holds.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let server: Server;
let base: string;
/** The upload the server holds back, once it has taken its first bytes. */
let held: { request: IncomingMessage; received: () => number } | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/redirect') {
      request.resume();
      response.writeHead(307, { location: '/target' }).end();
      return;
    }
    let received = 0;
    if (request.url === '/hold') {
      // Takes 8 MiB, then reads nothing until the test resumes it: a server slower than the disk.
      request.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received >= TAKEN_BEFORE_HOLD && held === undefined) {
          request.pause();
          held = { request, received: () => received };
        }
      });
    } else {
      request.on('data', (chunk: Buffer) => (received += chunk.byteLength));
    }
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/plain' }).end(String(received)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A body of `total` bytes in 64 KiB chunks, read only when fetch asks, with a weak reference to every chunk handed out. */
function countedBody(total: number): { body: ReadableStream<Uint8Array>; pulled: () => number; alive: () => number } {
  let pulled = 0;
  const chunks: WeakRef<Uint8Array>[] = [];
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) {
          controller.close();
          return;
        }
        const chunk = new Uint8Array(Math.min(64 * 1024, total - pulled)).fill(7);
        pulled += chunk.byteLength;
        chunks.push(new WeakRef(chunk));
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled, alive: () => chunks.filter((chunk) => chunk.deref() !== undefined).length };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('streamingFetch', () => {
  it('keeps no copy of what a streamed body sent: the chunks on the server are free in the client', async () => {
    const total = 32 * MIB;
    const { body, pulled, alive } = countedBody(total);
    const answer = streamingFetch(`${base}/hold`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    await until(() => held !== undefined);
    const sentChunks = pulled() / (64 * 1024);
    expect(sentChunks).toBeGreaterThanOrEqual(TAKEN_BEFORE_HOLD / (64 * 1024));
    collectGarbage();
    // Fetch's copy for redirects would hold every chunk sent so far; without it only those still in the socket's buffer live.
    expect(alive()).toBeLessThan(sentChunks / 4);
    held?.request.resume();
    const response = await answer;
    expect(await response.text()).toBe(String(total));
    expect(pulled()).toBe(total);
  });

  it('refuses to follow a redirect with a streamed body, and follows one without', async () => {
    const { body } = countedBody(MIB);
    await expect(streamingFetch(`${base}/redirect`, { method: 'POST', body, duplex: 'half' } as RequestInit)).rejects.toThrow();
    const followed = await streamingFetch(`${base}/redirect`);
    expect(followed.url).toBe(`${base}/target`);
    expect(await followed.text()).toBe('0');
    const manual = await streamingFetch(`${base}/redirect`, { method: 'POST', body: countedBody(MIB).body, duplex: 'half', redirect: 'manual' } as RequestInit);
    expect(manual.status).toBe(307);
  });
});
