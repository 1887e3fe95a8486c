// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BuildingResponse, PortfolioResponse } from '../../../../shared/api/schemas';
import { MAX_IMAGE_UPLOAD_BYTES } from '../../../../shared/ipc';
import { LOCAL_ID_PREFIX } from '../../../../renderer/db/schema';
import { useConnectionsStore } from '../../../../renderer/stores/connections';
import { useImagesStore } from '../../../../renderer/stores/images';
import { useSyncStore } from '../../../../renderer/stores/sync';
import { tinyJpeg, tinyPng } from '../../../fixtures/images';
import { storeContext, testBridge } from '../harness';
import { NO_ANSWER, problem, remoteConnection, startApiServer, type ApiServer } from '../api-server';

let run = 0;
let disposers: Array<() => void> = [];

afterEach(() => {
  for (const dispose of disposers) dispose();
  disposers = [];
  window.dispatchEvent(new Event('online'));
});

async function start(server: ApiServer) {
  run += 1;
  const connection = remoteConnection(`images-${run}`);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
    'api:upload-image': (upload) => server.handleImageUpload(upload),
  });
  storeContext(bridge.handle);
  await useConnectionsStore().ensureLoaded();
  const sync = useSyncStore();
  const images = useImagesStore();
  disposers.push(() => images.$dispose(), () => sync.$dispose());
  await vi.waitFor(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
  return { bridge, sync, images };
}

async function withBuilding() {
  const server = await startApiServer();
  const portfolio = await server.createPortfolio('Noord');
  const building = await server.createBuilding(portfolio.id, 'Tower 9');
  return { server, portfolio, building, ...(await start(server)) };
}

function png(name: string, type = 'image/png'): File {
  return new File([tinyPng(3, 2)], name, { type });
}

describe('useImagesStore', () => {
  it('adds a PNG and a JPEG to a building, and the sync brings their names into the cache', async () => {
    const { server, building, bridge, sync, images } = await withBuilding();

    expect(await images.addBuildingImage(building.id, png('facade.png'))).toMatchObject({ ok: true, value: 'facade.png' });
    expect(await images.addBuildingImage(building.id, new File([tinyJpeg()], 'entrance.jpeg', { type: 'image/jpeg' }))).toMatchObject({
      ok: true,
      value: 'entrance.jpeg',
    });

    const sent = bridge.requestsOf('api:upload-image');
    expect(sent.map(({ target, id, fileName, contentType }) => ({ target, id, fileName, contentType }))).toEqual([
      { target: 'building', id: building.id, fileName: 'facade.png', contentType: 'image/png' },
      { target: 'building', id: building.id, fileName: 'entrance.jpeg', contentType: 'image/jpeg' },
    ]);
    expect(Buffer.from(sent[0]!.data, 'base64')).toEqual(Buffer.from(tinyPng(3, 2)));
    expect((await server.request<BuildingResponse>('GET', `/buildings/${building.id}`)).json.images).toEqual(['facade.png', 'entrance.jpeg']);
    await vi.waitFor(async () => expect((await sync.db!.buildings.get(building.id))?.images).toEqual(['facade.png', 'entrance.jpeg']));
  });

  it('sets a portfolio logo, which the sync brings into the cache', async () => {
    const { server, portfolio, sync, images } = await withBuilding();
    expect(await images.setPortfolioLogo(portfolio.id, png('logo.png'))).toMatchObject({ ok: true, value: 'logo.png' });
    expect((await server.request<PortfolioResponse>('GET', `/portfolios/${portfolio.id}`)).json.logo).toBe('logo.png');
    await vi.waitFor(async () => expect((await sync.db!.portfolios.get(portfolio.id))?.logo).toBe('logo.png'));
  });

  it('sends a name the API takes: no path, no control characters, an extension of its type', async () => {
    const { building, bridge, images } = await withBuilding();
    expect(await images.addBuildingImage(building.id, png('C:\\fakepath\\site..plan\u0007.png'))).toMatchObject({ ok: true, value: 'site.plan-.png' });
    expect(await images.addBuildingImage(building.id, new File([tinyJpeg()], 'scan', { type: '' }))).toMatchObject({ ok: true, value: 'scan.jpg' });
    expect(bridge.requestsOf('api:upload-image').map((upload) => [upload.fileName, upload.contentType])).toEqual([
      ['site.plan-.png', 'image/png'],
      ['scan.jpg', 'image/jpeg'],
    ]);
  });

  it('refuses what is not a PNG or JPEG of at most 10 MiB, without sending it', async () => {
    const { building, bridge, images } = await withBuilding();
    const big = new Uint8Array(MAX_IMAGE_UPLOAD_BYTES + 1);
    big.set(tinyPng());
    const refused = [
      new File(['just text'], 'notes.png', { type: 'image/png' }),
      new File([tinyJpeg()], 'photo.png', { type: 'image/png' }),
      new File([tinyPng()], 'drawing.gif', { type: 'image/gif' }),
      new File([], 'empty.png', { type: 'image/png' }),
      new File([big], 'huge.png', { type: 'image/png' }),
    ];
    const outcomes = [];
    for (const file of refused) outcomes.push(await images.addBuildingImage(building.id, file));
    expect(outcomes).toEqual([
      { ok: false, failure: { kind: 'host', code: 'invalid-request', message: 'Only PNG and JPEG images can be added.' } },
      { ok: false, failure: { kind: 'host', code: 'invalid-request', message: 'Only PNG and JPEG images can be added.' } },
      { ok: false, failure: { kind: 'host', code: 'invalid-request', message: 'Only PNG and JPEG images can be added.' } },
      { ok: false, failure: { kind: 'host', code: 'invalid-request', message: 'The image is empty.' } },
      { ok: false, failure: { kind: 'host', code: 'invalid-request', message: 'The image is larger than 10 MiB.' } },
    ]);
    expect(bridge.requestsOf('api:upload-image')).toEqual([]);
  });

  it('says why an upload did not happen: offline, not on the server yet, refused or unanswered by the server', async () => {
    const { server, building, bridge, images } = await withBuilding();
    expect(await images.addBuildingImage(`${LOCAL_ID_PREFIX}new-building`, png('a.png'))).toEqual({ ok: false, failure: { kind: 'not-on-server' } });

    server.overrides.set('addBuildingImage', () => problem(403, 'Forbidden', 'This key may only read.'));
    expect(await images.addBuildingImage(building.id, png('a.png'))).toMatchObject({
      ok: false,
      failure: { kind: 'problem', status: 403, problem: { detail: 'This key may only read.' } },
    });
    server.overrides.set('addBuildingImage', () => NO_ANSWER);
    expect(await images.addBuildingImage(building.id, png('a.png'))).toMatchObject({ ok: false, failure: { kind: 'network', message: 'Connection refused.' } });
    server.overrides.delete('addBuildingImage');

    window.dispatchEvent(new Event('offline'));
    const before = bridge.requestsOf('api:upload-image').length;
    expect(await images.addBuildingImage(building.id, png('a.png'))).toEqual({ ok: false, failure: { kind: 'offline' } });
    expect(bridge.requestsOf('api:upload-image')).toHaveLength(before);
  });

  it('answers the server’s refusal of a building it does not know', async () => {
    const { images } = await withBuilding();
    const outcome = await images.addBuildingImage('00000000-0000-4000-8000-000000000000', png('a.png'));
    expect(outcome).toMatchObject({ ok: false, failure: { kind: 'problem', status: 404 } });
  });
});
