/**
 * Failed authentications are limited per client address, before the key lookup: a client that sent too many requests
 * without a key or with a wrong one gets 429 with Retry-After, for every key, until its window ends; other addresses
 * are not affected.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../server/server';
import { ADMIN_KEY, startTestServer, type TestServer } from '../harness';

const LIMIT = { max: 20, windowMs: 60_000 };

let running: RunningServer | undefined;
let dataDir: string | undefined;
let test: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  await test?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  running = undefined;
  test = undefined;
  dataDir = undefined;
});

/** A server listening on 127.0.0.1 with the limit (and a clock the test may move). */
async function listening(now: () => Date = () => new Date()): Promise<string> {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cd-failed-auth-'));
  running = await startServer({ dataDir, port: 0, bootstrapKey: ADMIN_KEY, worker: false, now, config: { failedAuthenticationLimit: LIMIT } });
  return running.url;
}

/** `GET /accounts/current` with the given key (none when undefined). */
function current(url: string, key?: string): Promise<Response> {
  return fetch(`${url}/api/v2.3/accounts/current`, { headers: key === undefined ? {} : { 'x-api-key': key } });
}

async function expectRefused(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const problem = (await response.json()) as { status: number; detail: string };
  expect(problem.status).toBe(429);
  expect(problem.detail).toMatch(/without a valid API key: at most 20 in 60 seconds/);
}

describe('failed authentications per client address', () => {
  it('answers 429 with Retry-After after repeated requests with the same wrong key, then for the right key too', async () => {
    const url = await listening();
    for (let attempt = 0; attempt < LIMIT.max; attempt++) expect((await current(url, 'not-a-key')).status).toBe(401);
    await expectRefused(await current(url, 'not-a-key'));
    // Refused before the lookup: a guess that happened to be right would be refused as well.
    await expectRefused(await current(url, ADMIN_KEY));
  });

  it('counts different wrong keys and requests without a key alike', async () => {
    const url = await listening();
    for (let attempt = 0; attempt < LIMIT.max / 2; attempt++) expect((await current(url, `guess-${attempt}`)).status).toBe(401);
    for (let attempt = 0; attempt < LIMIT.max / 2; attempt++) expect((await current(url)).status).toBe(401);
    await expectRefused(await current(url));
    await expectRefused(await current(url, 'guess-next'));
  });

  it('does not count requests with a working key, and lets the client try again once its window ended', async () => {
    let clock = new Date('2026-06-01T12:00:00Z');
    const url = await listening(() => clock);
    for (let attempt = 0; attempt < 50; attempt++) expect((await current(url, ADMIN_KEY)).status).toBe(200);
    for (let attempt = 0; attempt < LIMIT.max; attempt++) expect((await current(url)).status).toBe(401);
    const refused = await current(url, ADMIN_KEY);
    await expectRefused(refused);
    clock = new Date(clock.getTime() + LIMIT.windowMs);
    expect((await current(url, ADMIN_KEY)).status).toBe(200);
  });

  it('limits each address on its own', async () => {
    test = await startTestServer({ config: { failedAuthenticationLimit: LIMIT } });
    const from = (remoteAddress: string, key: string | null) =>
      test?.request({ method: 'GET', url: '/api/v2.3/accounts/current', remoteAddress, key });
    for (let attempt = 0; attempt < LIMIT.max; attempt++) expect((await from('192.0.2.7', null))?.statusCode).toBe(401);
    expect((await from('192.0.2.7', ADMIN_KEY))?.statusCode).toBe(429);
    expect((await from('192.0.2.8', ADMIN_KEY))?.statusCode).toBe(200);
    // An IPv6 host counts by its /64: a fresh address in it is the same client.
    for (let attempt = 0; attempt < LIMIT.max; attempt++) expect((await from(`2001:db8:1:2::${attempt + 1}`, 'wrong'))?.statusCode).toBe(401);
    expect((await from('2001:db8:1:2:ffff::9', ADMIN_KEY))?.statusCode).toBe(429);
    expect((await from('2001:db8:1:3::1', ADMIN_KEY))?.statusCode).toBe(200);
  });
});
