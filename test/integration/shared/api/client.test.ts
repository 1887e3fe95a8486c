import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient } from '../../../../shared/api/client';
import { startServer, type RunningServer } from '../../../../server/server';

const key = 'client-against-server-key-0123456789abcdef';
let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cd-client-'));
  server = await startServer({ dataDir, port: 0, bootstrapKey: key });
});
afterAll(async () => {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the typed client against the real server', () => {
  it('runs the manual building file workflow end to end', async () => {
    const client = createApiClient({ baseUrl: server.url, apiKey: () => key });
    const account = await client.call('getCurrentAccount');
    expect(account).toMatchObject({ kind: 'ok', status: 200, value: { accountType: 3 } });

    const portfolio = await client.call('createPortfolio', { body: { name: 'Client portfolio' } });
    if (portfolio.kind !== 'ok') throw new Error(`createPortfolio: ${JSON.stringify(portfolio)}`);
    const building = await client.call('createBuilding', { body: { portfolioId: portfolio.value.id, name: 'Client building' } });
    if (building.kind !== 'ok') throw new Error(`createBuilding: ${JSON.stringify(building)}`);
    expect(building.headers.get('location')).toBe(`/api/v2.3/buildings/${building.value.id}`);

    const file = await client.call('createBuildingFile', { params: { buildingId: building.value.id }, body: { type: 0, name: 'manual' } });
    if (file.kind !== 'ok') throw new Error(`createBuildingFile: ${JSON.stringify(file)}`);
    const fileParams = { buildingId: building.value.id, fileId: file.value.id };
    expect(await client.call('setBuildingFileImporting', { params: fileParams })).toMatchObject({ kind: 'ok', status: 204 });
    for (const id of ['B', 'A', 'C']) {
      const created = await client.call('createElement', { params: fileParams, body: { id, volume: 1 } });
      expect(created.kind).toBe('ok');
    }
    const page = await client.call('listElements', { params: fileParams, query: { $top: 2, $orderby: 'id desc' } });
    if (page.kind !== 'ok') throw new Error(`listElements: ${JSON.stringify(page)}`);
    expect(page.value.map((element) => element.id)).toEqual(['C', 'B']);

    const refine = await client.call('startBuildingFileRefinement', { params: fileParams });
    expect(refine).toMatchObject({ kind: 'ok', status: 202 });
  });

  it('uploads bytes and reads them back through the signed address', async () => {
    const client = createApiClient({ baseUrl: server.url, apiKey: () => key });
    const portfolio = await client.call('createPortfolio', { body: { name: 'Uploads' } });
    if (portfolio.kind !== 'ok') throw new Error('createPortfolio failed');
    const file = await client.call('createPortfolioFile', { params: { portfolioId: portfolio.value.id }, body: { name: 'notes.txt' } });
    if (file.kind !== 'ok') throw new Error('createPortfolioFile failed');
    const params = { portfolioId: portfolio.value.id, fileId: file.value.id };
    const content = new TextEncoder().encode('site notes, 2026');
    const upload = await client.call('uploadPortfolioFile', { params: { ...params, fileName: 'notes.txt' }, body: content, contentType: 'text/plain' });
    expect(upload).toMatchObject({ kind: 'ok', status: 204 });
    const download = await client.call('getPortfolioFileDownload', { params });
    if (download.kind !== 'ok') throw new Error('download failed');
    const bytes = await fetch(download.value.url);
    expect(bytes.headers.get('content-type')).toContain('text/plain');
    expect(await bytes.text()).toBe('site notes, 2026');
  });

  it('does not carry the key through a redirect to another origin', async () => {
    // A front that sends every call on to the real server, at another origin.
    const front = createServer((request, response) => {
      request.resume();
      response.writeHead(302, { location: `${server.url}${request.url ?? ''}` }).end();
    });
    front.listen(0, '127.0.0.1');
    await once(front, 'listening');
    const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    try {
      const redirected = await createApiClient({ baseUrl: frontUrl, apiKey: () => key }).call('getCurrentAccount');
      expect(redirected).toMatchObject({
        kind: 'network',
        error: { reason: 'invalid-response', message: expect.stringContaining(`another address (${server.url})`) as unknown },
      });
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('answers problems and network failures as values', async () => {
    const client = createApiClient({ baseUrl: server.url, apiKey: () => key });
    const missing = await client.call('getBuilding', { params: { id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing).toMatchObject({ kind: 'problem', status: 404, problem: { status: 404, title: 'Not Found' } });
    const wrongKey = await createApiClient({ baseUrl: server.url, apiKey: () => 'nope' }).call('listBuildings');
    expect(wrongKey).toMatchObject({ kind: 'problem', status: 401 });
    const unreachable = await createApiClient({ baseUrl: 'http://127.0.0.1:1', apiKey: () => key }).call('listBuildings');
    expect(unreachable).toMatchObject({ kind: 'network', error: { reason: 'unreachable' } });
  });
  it('keeps an element’s phase and classification when it is edited through a v2.1 connection (decisions §12)', async () => {
    const v23 = createApiClient({ baseUrl: server.url, apiKey: () => key });
    const v21 = createApiClient({ baseUrl: server.url, apiVersion: 'v2.1', apiKey: () => key });
    const portfolio = await v23.call('createPortfolio', { body: { name: 'v2.1 portfolio' } });
    if (portfolio.kind !== 'ok') throw new Error(`createPortfolio: ${JSON.stringify(portfolio)}`);
    const building = await v23.call('createBuilding', { body: { portfolioId: portfolio.value.id, name: 'v2.1 building' } });
    if (building.kind !== 'ok') throw new Error(`createBuilding: ${JSON.stringify(building)}`);
    const file = await v23.call('createBuildingFile', { params: { buildingId: building.value.id }, body: { type: 0, name: 'v21' } });
    if (file.kind !== 'ok') throw new Error(`createBuildingFile: ${JSON.stringify(file)}`);
    const params = { buildingId: building.value.id, fileId: file.value.id };
    await v23.call('setBuildingFileImporting', { params });
    // The app sends v2.3 shapes whatever the connection's version; the v2.1 client translates them.
    const body = { id: 'wall-1', name: 'Wall', phaseLookup: 'Nieuw', classificationLookup: '21.1', volume: 2 } as unknown as Parameters<typeof v21.call<'createElement'>>[1]['body'];
    const created = await v21.call('createElement', { params, body });
    expect(created).toMatchObject({ kind: 'ok', status: 201, value: { id: 'wall-1', phaseLookup: ['Nieuw'], classificationLookup: ['21.1'] } });
    const replaced = await v21.call('replaceElement', { params: { ...params, elementId: 'wall-1' }, body: { ...body, phaseLookup: 'Sloop' } as typeof body });
    expect(replaced.kind).toBe('ok');
    const read = await v23.call('getElement', { params: { ...params, elementId: 'wall-1' } });
    expect(read).toMatchObject({ kind: 'ok', value: { phaseLookup: ['Sloop'], classificationLookup: ['21.1'], volume: 2 } });
  });
});
