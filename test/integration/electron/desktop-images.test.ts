/**
 * `api:upload-image` through the desktop host's Bridge handlers: a real server on 127.0.0.1 as a remote connection and
 * the host's own queued client between them. Only the vault is in memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '../../../electron/bridge-dispatch';
import type { DesktopHost } from '../../../electron/desktop';
import type { BuildingResponse, PortfolioResponse } from '../../../shared/api/schemas';
import { isChannelValue, MAX_IMAGE_UPLOAD_BYTES, type ImageUpload, type IpcResult, type IpcValue } from '../../../shared/ipc';
import { startServer, type RunningServer } from '../../../server/server';
import { tinyJpeg, tinyPng } from '../../fixtures/images';
import { startTestDesktopHost } from './desktop-harness';

const KEY = 'images-admin-key-0123456789abcdefghijklmnopqrstuvwxyz';

let userDataDir: string;
let remoteDataDir: string;
let remote: RunningServer;
let host: DesktopHost;
let connectionId: string;
let building: BuildingResponse;
let portfolio: PortfolioResponse;
const logged: string[] = [];

async function upload(request: ImageUpload): Promise<IpcResult<IpcValue<'api:upload-image'>>> {
  const result = await dispatchBridgeCall(host.handlers, 'api:upload-image', request, (message) => logged.push(message));
  if (result.ok) expect(isChannelValue('api:upload-image', result.value)).toBe(true);
  return result as IpcResult<IpcValue<'api:upload-image'>>;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

async function api<T>(method: 'GET' | 'POST', route: string, body?: object): Promise<T> {
  const response = await fetch(`${remote.url}/api/v2.3${route}`, {
    method,
    headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}.`);
  return (await response.json()) as T;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  userDataDir = await mkdtemp(path.join(os.tmpdir(), 'desktop-images-'));
  remoteDataDir = await mkdtemp(path.join(os.tmpdir(), 'desktop-images-remote-'));
  remote = await startServer({ dataDir: remoteDataDir, port: 0, bootstrapKey: KEY, logger: false, worker: false });
  host = await startTestDesktopHost(userDataDir, {
    log: (message) => logged.push(message),
    // Short waits between retries; how many there are is the policy's, as in the app.
    tuning: { clientRetry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 } },
  });
  connectionId = (await host.provision(remote.url, KEY)).id;
  portfolio = await api<PortfolioResponse>('POST', '/portfolios', { name: 'Images' });
  building = await api<BuildingResponse>('POST', '/buildings', { portfolioId: portfolio.id, name: 'With images' });
}, 120_000);

afterAll(async () => {
  await host?.close();
  await remote?.close();
  await rm(userDataDir, { recursive: true, force: true });
  await rm(remoteDataDir, { recursive: true, force: true });
});

describe('api:upload-image', () => {
  it('adds a PNG and a JPEG to a building, which then lists both by their stored names', async () => {
    const png = await upload({ connectionId, target: 'building', id: building.id, fileName: 'facade.png', contentType: 'image/png', data: base64(tinyPng(4, 3)) });
    expect(png).toEqual({ ok: true, value: { kind: 'ok', status: 200, value: 'facade.png', location: null } });
    const jpeg = await upload({ connectionId, target: 'building', id: building.id, fileName: 'entrance.jpg', contentType: 'image/jpeg', data: base64(tinyJpeg()) });
    expect(jpeg).toMatchObject({ ok: true, value: { kind: 'ok', value: 'entrance.jpg' } });

    const stored = await api<BuildingResponse>('GET', `/buildings/${building.id}`);
    expect(stored.images).toEqual(['facade.png', 'entrance.jpg']);
  });

  it('sets a portfolio logo', async () => {
    const logo = await upload({ connectionId, target: 'portfolio', id: portfolio.id, fileName: 'logo.png', contentType: 'image/png', data: base64(tinyPng()) });
    expect(logo).toMatchObject({ ok: true, value: { kind: 'ok', value: 'logo.png' } });
    expect((await api<PortfolioResponse>('GET', `/portfolios/${portfolio.id}`)).logo).toBe('logo.png');
  });

  it('refuses content that is not what its type says, before anything is sent', async () => {
    const before = (await api<BuildingResponse>('GET', `/buildings/${building.id}`)).images;
    const jpegAsPng = await upload({ connectionId, target: 'building', id: building.id, fileName: 'wrong.png', contentType: 'image/png', data: base64(tinyJpeg()) });
    expect(jpegAsPng).toEqual({
      ok: false,
      error: { code: 'invalid-request', message: 'The file is said to be a PNG image, but its content is not a PNG image.' },
    });
    const text = await upload({ connectionId, target: 'building', id: building.id, fileName: 'notes.jpg', contentType: 'image/jpeg', data: base64(Buffer.from('just text')) });
    expect(text).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('not a JPEG image') } });
    const garbled = await upload({ connectionId, target: 'building', id: building.id, fileName: 'x.png', contentType: 'image/png', data: 'not base64!' });
    expect(garbled).toMatchObject({ ok: false, error: { code: 'invalid-request', message: 'The image data is not valid base64.' } });
    expect((await api<BuildingResponse>('GET', `/buildings/${building.id}`)).images).toEqual(before);
  });

  it('refuses an image larger than 10 MiB, and a file name that is a path', async () => {
    const big = new Uint8Array(MAX_IMAGE_UPLOAD_BYTES + 1);
    big.set(tinyPng());
    const tooBig = await upload({ connectionId, target: 'building', id: building.id, fileName: 'huge.png', contentType: 'image/png', data: base64(big) });
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'invalid-request', message: 'The image is larger than 10 MiB.' } });
    const past = new Uint8Array(MAX_IMAGE_UPLOAD_BYTES + 3);
    past.set(tinyPng());
    const pastTheSchema = await upload({ connectionId, target: 'building', id: building.id, fileName: 'huge.png', contentType: 'image/png', data: base64(past) });
    expect(pastTheSchema).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    const path = await upload({ connectionId, target: 'building', id: building.id, fileName: '../escape.png', contentType: 'image/png', data: base64(tinyPng()) });
    expect(path).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
  });

  it('answers the server’s problem for a building that does not exist', async () => {
    const missing = await upload({ connectionId, target: 'building', id: '00000000-0000-4000-8000-000000000000', fileName: 'a.png', contentType: 'image/png', data: base64(tinyPng()) });
    expect(missing).toMatchObject({ ok: true, value: { kind: 'problem', status: 404 } });
  });

  it('answers no usable answer when the server cannot be reached', async () => {
    const nobody = createServer();
    const address = await listen(nobody);
    await new Promise<void>((resolve) => nobody.close(() => resolve()));
    const offline = await host.provision(address, KEY);
    const answer = await upload({ connectionId: offline.id, target: 'building', id: building.id, fileName: 'a.png', contentType: 'image/png', data: base64(tinyPng()) });
    expect(answer).toMatchObject({ ok: true, value: { kind: 'network', reason: 'unreachable' } });
  });

  it('sends a POST that reached the server once, even when the server failed it', async () => {
    const received: string[] = [];
    const failing = createServer((request, response) => {
      received.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      request.resume();
      request.on('end', () => {
        response.writeHead(503, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify({ type: 'about:blank', title: 'Unavailable', status: 503, detail: 'Try later.' }));
      });
    });
    const address = await listen(failing);
    try {
      const flaky = await host.provision(address, KEY);
      const answer = await upload({ connectionId: flaky.id, target: 'building', id: building.id, fileName: 'a.png', contentType: 'image/png', data: base64(tinyPng()) });
      expect(answer).toMatchObject({ ok: true, value: { kind: 'problem', status: 503 } });
      expect(received).toEqual([`POST /api/v2.3/buildings/${building.id}/images/a.png image/png`]);
    } finally {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    }
  });

  it('answers not-found for a connection that does not exist', async () => {
    const answer = await upload({ connectionId: 'gone', target: 'building', id: building.id, fileName: 'a.png', contentType: 'image/png', data: base64(tinyPng()) });
    expect(answer).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });
});
