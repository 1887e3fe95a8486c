import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFollowingOwnRedirects } from '../../../../shared/api/own-redirects';

const MIB = 1024 * 1024;
/** The server takes this much of an upload before it stops reading. */
const TAKEN_BEFORE_HOLD = 8 * MIB;

// A full garbage collection on demand, to see which chunks of a body something still holds.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let server: Server;
let base: string;
/** Another origin, which records the key headers it was sent. */
let elsewhere: Server;
let elsewhereBase: string;
const keysSeenElsewhere: (string | undefined)[] = [];
/** What the own server was sent after a redirect: method and key. */
const followedRequests: { method: string | undefined; key: string | undefined; body: string }[] = [];
/** The upload the server holds back, once it has taken its first bytes. */
let held: { request: IncomingMessage; received: () => number } | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/redirect') {
      request.resume();
      response.writeHead(307, { location: '/target' }).end();
      return;
    }
    if (request.url?.startsWith('/to/') === true) {
      // /to/<status>/<where>: a redirect with this status to this server's /echo, or to the other origin.
      const [, , status, where] = request.url.split('/');
      request.resume();
      response.writeHead(Number(status), { location: where === 'elsewhere' ? `${elsewhereBase}/echo` : '/echo' }).end('moved');
      return;
    }
    if (request.url === '/echo') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const key = request.headers['x-api-key'];
        followedRequests.push({ method: request.method, key: typeof key === 'string' ? key : undefined, body });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('echoed');
      });
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
  elsewhere = createServer((request, response) => {
    const key = request.headers['x-api-key'];
    keysSeenElsewhere.push(typeof key === 'string' ? key : undefined);
    request.resume();
    response.writeHead(200).end('elsewhere');
  });
  elsewhere.listen(0, '127.0.0.1');
  await once(elsewhere, 'listening');
  elsewhereBase = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const each of [server, elsewhere]) {
    each.closeAllConnections();
    await new Promise((resolve) => each.close(resolve));
  }
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

describe('fetchFollowingOwnRedirects', () => {
  it('keeps no copy of what a streamed body sent: the chunks on the server are free in the client', async () => {
    const total = 32 * MIB;
    const { body, pulled, alive } = countedBody(total);
    const answer = fetchFollowingOwnRedirects(fetch, `${base}/hold`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    await until(() => held !== undefined);
    const sentChunks = pulled() / (64 * 1024);
    expect(sentChunks).toBeGreaterThanOrEqual(TAKEN_BEFORE_HOLD / (64 * 1024));
    collectGarbage();
    // Fetch's copy for redirects would hold every chunk sent so far; without it only those still in the socket's buffer live.
    expect(alive()).toBeLessThan(sentChunks / 4);
    held?.request.resume();
    const response = await answer;
    if (!(response instanceof Response)) throw new Error(response.refused);
    expect(await response.text()).toBe(String(total));
    expect(pulled()).toBe(total);
  });

  it('refuses to follow a redirect with a streamed body: it could not be sent twice', async () => {
    const { body } = countedBody(MIB);
    await expect(fetchFollowingOwnRedirects(fetch, `${base}/redirect`, { method: 'POST', body, duplex: 'half' } as RequestInit)).rejects.toThrow();
  });

  it.each([301, 302, 303, 307, 308])('follows a %i on the same origin, with the key', async (status) => {
    followedRequests.length = 0;
    const answer = await fetchFollowingOwnRedirects(fetch, `${base}/to/${status}/here`, {
      method: 'GET',
      headers: { 'x-api-key': 'the-key' },
    });
    expect(answer).toBeInstanceOf(Response);
    expect(await (answer as Response).text()).toBe('echoed');
    expect(followedRequests).toEqual([{ method: 'GET', key: 'the-key', body: '' }]);
  });

  it('sends a POST on as a GET without its body after 303, and as the same POST after 307', async () => {
    followedRequests.length = 0;
    const init = { method: 'POST', headers: { 'x-api-key': 'the-key', 'content-type': 'application/json' }, body: '{"a":1}' };
    await fetchFollowingOwnRedirects(fetch, `${base}/to/303/here`, init);
    await fetchFollowingOwnRedirects(fetch, `${base}/to/307/here`, init);
    expect(followedRequests).toEqual([
      { method: 'GET', key: 'the-key', body: '' },
      { method: 'POST', key: 'the-key', body: '{"a":1}' },
    ]);
  });

  it.each([301, 302, 303, 307, 308])('does not follow a %i to another origin: the key never reaches it', async (status) => {
    keysSeenElsewhere.length = 0;
    const answer = await fetchFollowingOwnRedirects(fetch, `${base}/to/${status}/elsewhere`, {
      method: 'GET',
      headers: { 'x-api-key': 'the-key' },
    });
    expect(answer).toEqual({ refused: expect.stringContaining(`another address (${elsewhereBase})`) as unknown });
    expect(keysSeenElsewhere).toEqual([]);
  });

  it('without it, fetch would have sent the key on: the threat is real', async () => {
    keysSeenElsewhere.length = 0;
    await fetch(`${base}/to/302/elsewhere`, { headers: { 'x-api-key': 'the-key' } });
    expect(keysSeenElsewhere).toEqual(['the-key']);
  });
});
