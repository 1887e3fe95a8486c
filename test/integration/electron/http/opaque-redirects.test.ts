/**
 * Redirects as the desktop app meets them. Electron cannot run here, so its two parts are stood in for over a real
 * server on 127.0.0.1: `session.fetch`, which keeps a redirect in `redirect: 'manual'` mode to itself (an opaque
 * redirect: status 0, no headers, no Location; or, as Electron's `net` does, the error "Redirect was cancelled"), and
 * `net.request` in `manual` mode, which tells a redirect's status and address without following it (here node:http,
 * which never follows one).
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFollowingOwnRedirects } from '../../../../shared/api/own-redirects';
import { revealingRedirects, type RedirectLocator } from '../../../../electron/http/opaque-redirects';

const KEY = 'key-of-the-own-server';
let own: Server;
let ownBase: string;
let elsewhere: Server;
let elsewhereBase: string;
const seen: { where: 'own' | 'elsewhere'; method: string | undefined; url: string | undefined; key: string | undefined }[] = [];

function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  return once(server, 'listening').then(() => `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

beforeAll(async () => {
  own = createServer((request, response) => {
    const key = request.headers['x-api-key'];
    seen.push({ where: 'own', method: request.method, url: request.url, key: typeof key === 'string' ? key : undefined });
    request.resume();
    if (request.url === '/moved') response.writeHead(301, { location: '/target' }).end();
    else if (request.url === '/away') response.writeHead(302, { location: `${elsewhereBase}/target` }).end();
    else if (request.url === '/post-moved') response.writeHead(307, { location: '/target' }).end();
    else response.writeHead(200, { 'content-type': 'text/plain' }).end(`answered ${request.url ?? ''}`);
  });
  elsewhere = createServer((request, response) => {
    const key = request.headers['x-api-key'];
    seen.push({ where: 'elsewhere', method: request.method, url: request.url, key: typeof key === 'string' ? key : undefined });
    request.resume();
    response.writeHead(200).end('elsewhere');
  });
  ownBase = await listen(own);
  elsewhereBase = await listen(elsewhere);
});
afterAll(async () => {
  own.close();
  elsewhere.close();
});

/** Electron's `session.fetch` as it answers in `manual` mode: a redirect comes back opaque. */
const sessionFetchStandIn: typeof fetch = async (input, init) => {
  const answer = await fetch(input, init);
  if (init?.redirect !== 'manual' || answer.status < 300 || answer.status > 399) return answer;
  await answer.body?.cancel();
  const opaque = new Response(null, { status: 200 });
  Object.defineProperties(opaque, { type: { value: 'opaqueredirect' }, status: { value: 0 }, ok: { value: false }, statusText: { value: '' } });
  return opaque;
};

/** Electron's `session.fetch` as its `net` ends a redirect in `manual` mode that is not followed. */
const cancellingSessionFetchStandIn: typeof fetch = async (input, init) => {
  const answer = await fetch(input, init);
  if (init?.redirect !== 'manual' || answer.status < 300 || answer.status > 399) return answer;
  await answer.body?.cancel();
  throw new Error('Redirect was cancelled');
};

/** `net.request` in `manual` mode: a redirect's status and address, not followed. */
const netRequestStandIn: RedirectLocator = (url, init) =>
  new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)) }, (response) => {
      response.resume();
      const location = response.headers.location;
      const status = response.statusCode ?? 0;
      resolve(status >= 300 && status <= 399 && location !== undefined ? { status, location: new URL(location, url).href } : undefined);
    });
    request.on('error', reject);
    request.end();
  });

const withKey = (method = 'GET'): RequestInit => ({ method, headers: { 'x-api-key': KEY } });

describe.each([
  ['an opaque redirect', sessionFetchStandIn],
  ['"Redirect was cancelled"', cancellingSessionFetchStandIn],
])('redirects through the desktop app’s session, which answers %s', (_answer, sessionFetch) => {
  const desktopFetch = revealingRedirects(sessionFetch, netRequestStandIn);

  it('follows a redirect of a read that stays on the key’s origin', async () => {
    seen.length = 0;
    const answer = await fetchFollowingOwnRedirects(desktopFetch, `${ownBase}/moved`, withKey());
    expect(answer).toBeInstanceOf(Response);
    expect(await (answer as Response).text()).toBe('answered /target');
    expect(seen.filter((each) => each.url === '/target')).toEqual([{ where: 'own', method: 'GET', url: '/target', key: KEY }]);
  });

  it('refuses one to another origin, saying where, and the key never goes there', async () => {
    seen.length = 0;
    const answer = await fetchFollowingOwnRedirects(desktopFetch, `${ownBase}/away`, withKey());
    expect(answer).toEqual({
      refused: `The server redirected this call to another address (${elsewhereBase}). The app does not follow it, so that the key of this server is never sent there.`,
    });
    expect(seen.filter((each) => each.where === 'elsewhere')).toEqual([]);
  });

  it('never sends a call that changes something twice: its redirect is refused as one that cannot be checked', async () => {
    seen.length = 0;
    const answer = await fetchFollowingOwnRedirects(desktopFetch, `${ownBase}/post-moved`, { ...withKey('POST'), body: '{}' });
    expect(answer).toEqual({ refused: expect.stringContaining('cannot tell where to') });
    expect(seen).toEqual([{ where: 'own', method: 'POST', url: '/post-moved', key: KEY }]);
  });
});

describe('the shared redirect logic', () => {
  it('without it, session.fetch’s opaque answer is refused as a redirect, not taken for an unreachable server', async () => {
    const answer = await fetchFollowingOwnRedirects(sessionFetchStandIn, `${ownBase}/moved`, withKey());
    expect(answer).toEqual({ refused: expect.stringContaining('cannot tell where to') });
  });
});
