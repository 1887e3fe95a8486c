/**
 * The server under abuse: too many requests with one key answer 429 with Retry-After, a client that sends its headers
 * too slowly or leaves its connection idle is cut off, a building's images are limited in count and bytes, and file
 * names no desktop system can save are refused.
 */
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../server/server';
import { tinyPng } from '../../fixtures/images';
import { ADMIN_KEY, createPortfolioWithBuilding, startTestServer, type TestServer } from './harness';

let test: TestServer | undefined;
let running: RunningServer | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await test?.close();
  await running?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  test = undefined;
  running = undefined;
  dataDir = undefined;
});

describe('requests per key', () => {
  it('answers 429 with Retry-After and problem details past the limit, for that key only', async () => {
    test = await startTestServer({ config: { rateLimit: { max: 5, windowMs: 60_000 } } });
    for (let index = 0; index < 5; index++) {
      expect((await test.request({ method: 'GET', url: '/api/v2.3/accounts/current' })).statusCode).toBe(200);
    }
    const refused = await test.request({ method: 'GET', url: '/api/v2.3/accounts/current' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    const other = await test.key('account', null, 50);
    expect((await test.request({ method: 'GET', url: '/api/v2.3/accounts/current', key: other })).statusCode).toBe(200);
  });
});

describe('slow clients', () => {
  async function listening(config: { headersTimeoutMs?: number; idleTimeoutMs?: number }): Promise<URL> {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cd-limits-'));
    running = await startServer({ dataDir, port: 0, bootstrapKey: ADMIN_KEY, worker: false, config });
    return new URL(running.url);
  }

  /** Opens a connection, writes `text` and resolves with how long the server kept it open (or rejects after `maxMs`). */
  function heldOpen(url: URL, text: string, maxMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
      socket.on('data', () => undefined);
      socket.on('close', () => resolve(Date.now() - started));
      socket.on('error', () => undefined);
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`The server kept the connection open for more than ${maxMs} ms.`));
      }, maxMs);
    });
  }

  it('closes a connection whose headers do not arrive in time', async () => {
    const url = await listening({ headersTimeoutMs: 1_000, idleTimeoutMs: 60_000 });
    // Node checks the headers' deadline on a timer of its own: within a few seconds of it.
    await expect(heldOpen(url, 'GET /api/v2.3/accounts/current HTTP/1.1\r\nHost: x\r\nX-Slow: ', 15_000)).resolves.toBeLessThan(15_000);
  });

  it('closes a connection that sits idle', async () => {
    const url = await listening({ headersTimeoutMs: 60_000, idleTimeoutMs: 1_000 });
    await expect(heldOpen(url, '', 10_000)).resolves.toBeLessThan(10_000);
  });
});

describe('building images', () => {
  const image = (buildingId: string, name: string, bytes: Uint8Array) =>
    test?.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/images/${name}`,
      headers: { 'content-type': 'image/png' },
      payload: Buffer.from(bytes),
    });

  it('holds at most the configured count: a new name past it is 409, a replaced one is fine', async () => {
    test = await startTestServer({ config: { maxBuildingImages: 2 } });
    const { buildingId } = await createPortfolioWithBuilding(test);
    for (const name of ['a.png', 'b.png']) expect((await image(buildingId, name, tinyPng()))?.statusCode).toBeLessThan(300);
    expect((await image(buildingId, 'c.png', tinyPng()))?.statusCode).toBe(409);
    expect((await image(buildingId, 'a.png', tinyPng(2, 2)))?.statusCode).toBeLessThan(300);
  });

  it('holds at most the configured bytes in all: 413 past them, and nothing of the refused one is kept', async () => {
    const big = tinyPng(200, 200);
    test = await startTestServer({ config: { maxBuildingImageBytes: Math.floor(big.length * 1.5) } });
    const { buildingId } = await createPortfolioWithBuilding(test);
    expect((await image(buildingId, 'first.png', big))?.statusCode).toBeLessThan(300);
    expect((await image(buildingId, 'second.png', big))?.statusCode).toBe(413);
    const building = (await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}` })).json<{ images: string[] }>();
    expect(building.images).toEqual(['first.png']);
  });
});

describe('file names', () => {
  it.each(['CON', 'nul.ifc', 'COM1.txt', 'lpt9.pdf', 'model:stream.ifc', 'model.ifc.', 'model.ifc '])('refuses %j with 400 naming why', async (name) => {
    test = await startTestServer();
    const { buildingId } = await createPortfolioWithBuilding(test);
    const file = (await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/files`, payload: { type: 0 } })).json<{ id: string }>();
    const upload = await test.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/files/${file.id}/upload/${encodeURIComponent(name)}`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('ISO-10303-21;'),
    });
    expect(upload.statusCode).toBe(400);
    expect(upload.json<{ errors: { path: string }[] }>().errors[0]?.path).toBe('fileName');
  });
});
