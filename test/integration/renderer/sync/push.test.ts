import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runApiCall } from '../../../../electron/http/api-request';
import { createQueuedClient } from '../../../../electron/http/queued-client';
import type { CacheDb } from '../../../../renderer/db/cache-db';
import {
  createBuilding as createLocalBuilding,
  createElement,
  createMaterial,
  createPortfolio,
  createProduct,
  deleteElements,
  discardParked,
  editBuilding,
  editElements,
  editMaterialMatches,
  editProductChildren,
  resolveConflict,
} from '../../../../renderer/db/edits';
import { EDIT_CONFLICT_PROBLEM_TYPE, readConflict } from '../../../../renderer/db/outbox';
import { filesWithRefinement, readPushState } from '../../../../renderer/db/push-writes';
import { elementsByIds } from '../../../../renderer/db/reads';
import { isLocalId, type OutboxEntry, type PushProgress } from '../../../../renderer/db/schema';
import type { ApiCall, ApiPort } from '../../../../renderer/api/port';
import { pull } from '../../../../renderer/sync/pull';
import { push, type PushOptions, type PushResult } from '../../../../renderer/sync/push';
import type { BuildingFileStatusResponse, BuildingResponse, ProductChild } from '../../../../shared/api/schemas';
import {
  cachedElements,
  createBuilding,
  createElementFile,
  elementIds,
  expectCacheEqualsServer,
  freshIndexedDb,
  KEY,
  openCache,
  queuedPort,
  recording,
  serverElements,
  startSyncServer,
  writeElements,
  type SyncServer,
} from './harness';

let server: SyncServer;
let port: ApiPort;
beforeAll(async () => {
  server = await startSyncServer();
  port = queuedPort(server);
});
afterAll(async () => {
  await server.close();
});

let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

/** A cache on a fresh IndexedDB holding everything the server has. */
async function pulledCache(): Promise<CacheDb> {
  const db = openCache(freshIndexedDb());
  opened.push(db);
  expect(await pull({ db, api: port, pageSize: 100 })).toMatchObject({ status: 'complete' });
  return db;
}

function pushNow(db: CacheDb, api: ApiPort = port, options: Partial<PushOptions> = {}): Promise<PushResult> {
  return push({ db, api, pollIntervalMs: 20, pageSize: 100, ...options });
}

/** Waits until the server has no building being recalculated, so figures and files are settled for a comparison. */
async function settled(): Promise<void> {
  for (;;) {
    const buildings = (await server.request<BuildingResponse[]>('GET', '/buildings')).json;
    if (buildings.every((building) => !building.isDirty)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A source file with `count` elements, refined by the server (Mapped). */
async function mappedFile(buildingId: string, count: number): Promise<string> {
  const fileId = await createElementFile(server, buildingId, count);
  expect((await server.request('POST', `/buildings/${buildingId}/files/${fileId}/startrefinement`)).status).toBe(202);
  for (;;) {
    const status = (await server.request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`)).json;
    if (status.status === 3) break;
    expect(status.status).not.toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await settled();
  return fileId;
}

async function serverBuilding(id: string): Promise<BuildingResponse> {
  return (await server.request<BuildingResponse>('GET', `/buildings/${id}`)).json;
}

async function buildingsNamed(name: string): Promise<BuildingResponse[]> {
  return (await server.request<BuildingResponse[]>('GET', '/buildings')).json.filter((building) => building.name === name);
}

async function outbox(db: CacheDb): Promise<OutboxEntry[]> {
  return db.outbox.orderBy('seq').toArray();
}

function operations(calls: readonly ApiCall[]): string[] {
  return calls.map((call) => call.operationId);
}

/** A port whose network lets the requests `drop` picks reach the server, then loses their answers (once each). */
function droppingPort(drop: (url: URL, method: string) => boolean, attempts = 1): ApiPort {
  const dropped = new Set<string>();
  const lossyFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const response = await fetch(input, init);
    const key = `${method} ${url.pathname}`;
    if (!drop(url, method) || dropped.has(key)) return response;
    dropped.add(key);
    await response.arrayBuffer();
    throw new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
  };
  const client = createQueuedClient({
    baseUrl: server.url,
    apiVersion: 'v2.3',
    apiKey: async () => KEY,
    fetch: lossyFetch,
    retry: { attempts },
    sleep: async () => {},
  });
  return (call) => runApiCall(client, 'v2.3', call);
}

describe('push', () => {
  it('sends edits made offline once the server is back, each exactly once', async () => {
    const { portfolioId, buildingId } = await createBuilding(server, 'Offline');
    const fileId = await mappedFile(buildingId, 3);
    const db = await pulledCache();
    await editBuilding(db, buildingId, { addressCity: 'Delft' });
    const newBuilding = await createLocalBuilding(db, portfolioId, { name: 'Made offline', grossSurfaceArea: 80 });
    const elementId = await createElement(db, fileId, { name: 'Made offline', volume: 2, materialName: 'Beton' });
    await editElements(db, fileId, ['E0000'], { floor: '05' });

    const offline = await pushNow(db, queuedPort(server, () => 'network'));

    expect(offline).toMatchObject({ status: 'incomplete', retryable: true, pushed: 0, parked: 0 });
    expect(offline.lastError?.failure).toMatchObject({ kind: 'network' });
    expect((await outbox(db)).map((entry) => entry.state)).toEqual(['pending', 'pending', 'pending', 'pending']);

    const online = recording(port);
    expect(await pushNow(db, online.port)).toEqual({ status: 'done', pushed: 4, parked: 0, retryable: false });

    expect(await db.outbox.count()).toBe(0);
    expect((await serverBuilding(buildingId)).addressCity).toBe('Delft');
    const made = await buildingsNamed('Made offline');
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ portfolioId, grossSurfaceArea: 80 });
    // The local row moved to the server's id.
    expect(await db.buildings.get(newBuilding)).toBeUndefined();
    expect(await db.buildings.get(made[0]?.id ?? '')).toMatchObject({ name: 'Made offline' });
    const elements = await serverElements(server, buildingId, fileId);
    expect(elements.filter((element) => element.id === elementId)).toHaveLength(1);
    expect(elements.find((element) => element.id === 'E0000')?.floor).toBe('05');
    expect(operations(online.calls).filter((id) => id === 'createBuilding')).toHaveLength(1);

    // Nothing is left to send: another push makes no request.
    const again = recording(port);
    expect(await pushNow(db, again.port)).toMatchObject({ status: 'done', pushed: 0 });
    expect(again.calls).toEqual([]);
    expect((await readPushState(db)).lastSuccessAt).not.toBeNull();
  });

  it("follows a file's workflow for a batch of element edits and pulls the file again", async () => {
    const { buildingId } = await createBuilding(server, 'Batch');
    const fileId = await mappedFile(buildingId, 50);
    const db = await pulledCache();
    await editElements(db, fileId, elementIds(0, 50), { floor: '07' });
    const newId = await createElement(db, fileId, { name: 'Extra', materialName: 'Beton', volume: 1.5 });
    await deleteElements(db, fileId, ['E0049']);
    const progress: PushProgress[] = [];
    const recorded = recording(port);

    expect(await pushNow(db, recorded.port, { onProgress: (each) => progress.push(each) })).toEqual({ status: 'done', pushed: 52, parked: 0, retryable: false });

    const workflow = operations(recorded.calls).filter((id) => !['getElement', 'replaceElement'].includes(id));
    const order = ['getBuildingFileStatus', 'setBuildingFileImporting', 'createElement', 'deleteElement', 'startBuildingFileRefinement'];
    expect(workflow.filter((id) => order.includes(id)).slice(0, 5)).toEqual(order);
    expect(operations(recorded.calls).filter((id) => id === 'replaceElement')).toHaveLength(50);
    // After the refinement started, the status was followed to Mapped, then the file listed and its elements pulled.
    const afterStart = workflow.slice(workflow.indexOf('startBuildingFileRefinement') + 1);
    expect(afterStart[0]).toBe('getBuildingFileStatus');
    expect(afterStart).toContain('listBuildingFiles');
    expect(afterStart).toContain('listElements');
    const fileSteps = progress.filter((each) => each.phase === 'file');
    expect(fileSteps.map((each) => each.step)).toContain('importing');
    expect(fileSteps.filter((each) => each.step === 'refining').at(-1)?.status).toBe(3);
    expect(fileSteps.at(-1)?.step).toBe('pulling');

    const onServer = await serverElements(server, buildingId, fileId);
    expect(onServer).toHaveLength(50);
    expect(onServer.filter((element) => element.floor === '07')).toHaveLength(49);
    expect(onServer.find((element) => element.id === newId)).toMatchObject({ name: 'Extra', volume: 1.5 });
    expect(await cachedElements(db, fileId)).toEqual(onServer);
    const file = (await server.request<{ lastModifiedDate: string; status: number }>('GET', `/buildings/${buildingId}/files/${fileId}`)).json;
    expect(file.status).toBe(3);
    expect((await db.files.get(fileId))?.elementsStamp).toBe(file.lastModifiedDate);
    expect(await filesWithRefinement(db)).toEqual([]);
  });

  it('turns a create answered 409 into a replace, and a delete answered 404 into done', async () => {
    const { buildingId } = await createBuilding(server, 'Conflicting ids');
    const fileId = await mappedFile(buildingId, 5);
    const db = await pulledCache();
    // Behind the cache's back: an element with the id the user is about to use appears, one the user deletes goes.
    await writeElements(server, buildingId, fileId, ['X-1'], 'server');
    expect((await server.request('DELETE', `/buildings/${buildingId}/files/${fileId}/elements/E0004`)).status).toBe(204);
    await createElement(db, fileId, { id: 'X-1', name: 'mine', volume: 3 });
    await deleteElements(db, fileId, ['E0004']);
    const recorded = recording(port);

    expect(await pushNow(db, recorded.port)).toEqual({ status: 'done', pushed: 2, parked: 0, retryable: false });

    expect(operations(recorded.calls).filter((id) => ['createElement', 'replaceElement', 'deleteElement'].includes(id))).toEqual([
      'createElement',
      'replaceElement',
      'deleteElement',
    ]);
    const onServer = await serverElements(server, buildingId, fileId);
    expect(onServer.filter((element) => element.id === 'X-1')).toEqual([expect.objectContaining({ name: 'mine', volume: 3 })]);
    expect(onServer.map((element) => element.id)).not.toContain('E0004');
    expect(await cachedElements(db, fileId)).toEqual(onServer);
  });

  it("keeps the user's mapping of an element edited twice before the refinement", async () => {
    const { buildingId } = await createBuilding(server, 'Mapped twice');
    const fileId = await mappedFile(buildingId, 2);
    const db = await pulledCache();
    const current = (await elementsByIds(db, fileId, ['E0000']))[0]?.mapping?.id;
    const [chosen] = await db.materials.filter((material) => material.id !== current).limit(1).toArray();
    await editElements(db, fileId, ['E0000'], { materialId: chosen?.id });
    await editElements(db, fileId, ['E0000'], { floor: '04' });
    const recorded = recording(port);

    expect(await pushNow(db, recorded.port)).toMatchObject({ status: 'done', pushed: 2 });

    const replaces = recorded.calls.filter((call) => call.operationId === 'replaceElement');
    expect(replaces.map((call) => (call.body as { materialId: unknown }).materialId)).toEqual([chosen?.id, chosen?.id]);
    const [element] = (await serverElements(server, buildingId, fileId)).filter((each) => each.id === 'E0000');
    expect(element).toMatchObject({ floor: '04', mapping: { type: 10, id: chosen?.id } });
    expect((await elementsByIds(db, fileId, ['E0000']))[0]?.mapping).toEqual(element?.mapping);
  });

  it('makes no duplicate when the answer to an applied create was lost', async () => {
    const { portfolioId, buildingId } = await createBuilding(server, 'Lost answers');
    const fileId = await mappedFile(buildingId, 2);
    const db = await pulledCache();
    const localId = await createLocalBuilding(db, portfolioId, { name: 'Created once' });
    const elementId = await createElement(db, fileId, { name: 'Created once', volume: 1 });
    const lossy = droppingPort((url, method) => method === 'POST' && (url.pathname.endsWith('/buildings') || url.pathname.endsWith('/elements')));

    const first = await pushNow(db, lossy);

    // The server made the building, but the push never heard so: the entry stays pending.
    expect(first).toMatchObject({ status: 'incomplete', retryable: true, pushed: 0 });
    expect(await buildingsNamed('Created once')).toHaveLength(1);

    const second = recording(lossy);
    const afterBuilding = await pushNow(db, second.port);
    // The retry listed the buildings and took the one the lost answer was about, without a second create.
    expect(operations(second.calls)).toContain('listBuildings');
    expect(operations(second.calls)).not.toContain('createBuilding');
    expect(afterBuilding).toMatchObject({ status: 'incomplete', retryable: true, pushed: 1 });

    // The element's POST was applied too and its answer lost; the retry's POST is answered 409 and becomes a PUT.
    const third = recording(port);
    expect(await pushNow(db, third.port)).toEqual({ status: 'done', pushed: 1, parked: 0, retryable: false });
    expect(operations(third.calls)).toEqual(expect.arrayContaining(['createElement', 'replaceElement']));

    const made = await buildingsNamed('Created once');
    expect(made).toHaveLength(1);
    expect(await db.buildings.get(localId)).toBeUndefined();
    expect(await db.buildings.get(made[0]?.id ?? '')).toMatchObject({ name: 'Created once' });
    const elements = await serverElements(server, buildingId, fileId);
    expect(elements.filter((element) => element.id === elementId)).toHaveLength(1);
    expect(elements).toHaveLength(3);
  });

  it('sends the Idempotency-Key, so a client that repeats a create gets the first answer back', async () => {
    const { portfolioId } = await createBuilding(server, 'Repeated');
    const db = await pulledCache();
    await createLocalBuilding(db, portfolioId, { name: 'Repeated once' });
    const [entry] = await outbox(db);
    // The host's queued client repeats a POST that carries the key when its answer is lost.
    const recorded = recording(droppingPort((url, method) => method === 'POST' && url.pathname.endsWith('/buildings'), 2));

    expect(await pushNow(db, recorded.port)).toEqual({ status: 'done', pushed: 1, parked: 0, retryable: false });

    expect(recorded.calls.find((call) => call.operationId === 'createBuilding')?.headers).toEqual({ 'Idempotency-Key': entry?.opId });
    expect(await buildingsNamed('Repeated once')).toHaveLength(1);
  });

  it('parks an entry the server refuses with its problem details; its aggregate waits, others go on', async () => {
    const a = await createBuilding(server, 'Refused A');
    const b = await createBuilding(server, 'Refused B');
    const db = await pulledCache();
    await editBuilding(db, a.buildingId, { cadastralArea: 1.5 });
    await editBuilding(db, a.buildingId, { name: 'Refused A later' });
    await editBuilding(db, b.buildingId, { name: 'Refused B renamed' });

    const result = await pushNow(db);

    expect(result).toMatchObject({ status: 'done', pushed: 1, parked: 1, retryable: false });
    const [refused, waiting] = await outbox(db);
    expect(refused).toMatchObject({ state: 'parked', attempts: 1 });
    expect(refused?.lastError?.failure).toMatchObject({ kind: 'problem', status: 400 });
    const problem = refused?.lastError?.failure.kind === 'problem' ? refused.lastError.failure.problem : undefined;
    expect(problem?.errors.map((error) => error.path).join()).toContain('cadastralArea');
    expect(result.lastError).toEqual(refused?.lastError);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 0, fields: { name: 'Refused A later' } });
    expect((await serverBuilding(a.buildingId)).name).toBe('Refused A');
    expect((await serverBuilding(b.buildingId)).name).toBe('Refused B renamed');

    // Once the user discards the refused change, the waiting one goes.
    await discardParked(db, refused?.seq ?? 0);
    expect(await pushNow(db)).toMatchObject({ status: 'done', pushed: 1, parked: 0 });
    expect(await serverBuilding(a.buildingId)).toMatchObject({ name: 'Refused A later', cadastralArea: null });
  });

  it('parks a change of a field the server changed too; keeping mine sends it', async () => {
    const { buildingId } = await createBuilding(server, 'Contested');
    const db = await pulledCache();
    const before = await serverBuilding(buildingId);
    expect((await server.request('PUT', `/buildings/${buildingId}`, { portfolioId: before.portfolioId, name: 'Contested', addressCity: 'Leiden', addressStreet: 'Breestraat' })).status).toBe(200);
    await editBuilding(db, buildingId, { addressCity: 'Delft', energyLabel: 'A' });

    const result = await pushNow(db);

    expect(result).toMatchObject({ status: 'done', pushed: 0, parked: 1 });
    const [entry] = await outbox(db);
    expect(entry?.lastError?.failure).toMatchObject({ kind: 'problem', status: 409, problem: { type: EDIT_CONFLICT_PROBLEM_TYPE } });
    expect((await readConflict(db, entry?.seq ?? 0))?.fields).toEqual([{ path: 'addressCity', base: null, mine: 'Delft', theirs: 'Leiden' }]);
    expect(await serverBuilding(buildingId)).toMatchObject({ addressCity: 'Leiden', energyLabel: null });

    await resolveConflict(db, entry?.seq ?? 0, 'mine');
    expect(await pushNow(db)).toMatchObject({ status: 'done', pushed: 1, parked: 0 });

    // The user's fields, and the server's change of a field the user left alone.
    const after = await serverBuilding(buildingId);
    expect(after).toMatchObject({ addressCity: 'Delft', energyLabel: 'A', addressStreet: 'Breestraat' });
    expect(await db.buildings.get(buildingId)).toEqual(after);
  });

  it("takes theirs: the server's value stays, the user's other fields still go", async () => {
    const { buildingId } = await createBuilding(server, 'Contested too');
    const db = await pulledCache();
    const before = await serverBuilding(buildingId);
    expect((await server.request('PUT', `/buildings/${buildingId}`, { portfolioId: before.portfolioId, name: 'Contested too', addressCity: 'Leiden' })).status).toBe(200);
    await editBuilding(db, buildingId, { addressCity: 'Delft', energyLabel: 'B' });
    expect(await pushNow(db)).toMatchObject({ parked: 1 });
    const [entry] = await outbox(db);

    await resolveConflict(db, entry?.seq ?? 0, 'theirs');
    expect(await pushNow(db)).toMatchObject({ status: 'done', pushed: 1, parked: 0 });

    const after = await serverBuilding(buildingId);
    expect(after).toMatchObject({ addressCity: 'Leiden', energyLabel: 'B' });
    expect(await db.buildings.get(buildingId)).toEqual(after);
    expect(await db.outbox.count()).toBe(0);
  });

  it('creates a new portfolio before the building in it, and the real ids replace the temporary ones everywhere', async () => {
    const db = await pulledCache();
    const portfolioId = await createPortfolio(db, { name: 'Fresh portfolio' });
    const buildingId = await createLocalBuilding(db, portfolioId, { name: 'Fresh building' });
    await editBuilding(db, buildingId, { addressCity: 'Zwolle' });

    expect(await pushNow(db)).toEqual({ status: 'done', pushed: 3, parked: 0, retryable: false });

    const [made] = await buildingsNamed('Fresh building');
    const portfolios = (await server.request<Array<{ id: string; name: string }>>('GET', '/portfolios')).json;
    expect(made).toMatchObject({ portfolioId: portfolios.find((each) => each.name === 'Fresh portfolio')?.id, addressCity: 'Zwolle' });
    expect(await db.buildings.get(made?.id ?? '')).toEqual(made);
    const ids = [...(await db.buildings.toCollection().primaryKeys()), ...(await db.portfolios.toCollection().primaryKeys())];
    expect(ids.filter((id) => isLocalId(id))).toEqual([]);
    await settled();
    expect(await pull({ db, api: port })).toMatchObject({ status: 'complete', keptMissing: [] });
  });

  it('creates a material with its matches and a product holding it', async () => {
    const db = await pulledCache();
    const materialId = await createMaterial(db, { name: { nl: 'Proefhout' }, lifeTime: 30 });
    await editMaterialMatches(db, materialId, [{ value: 'Proefhout', matchType: 11 }]);
    const productId = await createProduct(db, { type: 30, name: { nl: 'Proefdeur' } });
    const child: ProductChild = {
      childId: materialId,
      value: 2,
      circular: {
        inheritFeedstockPercentages: true,
        recycledPercentageFeedstock: null,
        rapidRenewablesPercentageFeedstock: null,
        inheritEndOfLifePercentages: true,
        recycledPercentageEndOfLife: null,
        landfillPercentageEndOfLife: null,
        inheritEfficiencyPercentages: true,
        efficiencyPercentageRecyclingFeedstock: null,
        efficiencyPercentageRecyclingEndOfLife: null,
      },
    };
    await editProductChildren(db, productId, [child]);

    expect(await pushNow(db)).toEqual({ status: 'done', pushed: 4, parked: 0, retryable: false });

    const [material] = await db.materials.filter((row) => row.name.nl === 'Proefhout').toArray();
    const [product] = await db.products.filter((row) => row.name.nl === 'Proefdeur').toArray();
    expect(isLocalId(material?.id ?? 'local:')).toBe(false);
    expect((await server.request('GET', `/materials/${material?.id}`)).json).toMatchObject({ name: { nl: 'Proefhout' }, lifeTime: 30 });
    expect((await server.request('GET', `/materials/${material?.id}/matches`)).json).toEqual([{ value: 'Proefhout', matchType: 11 }]);
    expect((await server.request('GET', `/products/${product?.id}/children`)).json).toEqual([{ ...child, childId: material?.id }]);
    expect(await db.productChildren.get(product?.id ?? '')).toMatchObject({ items: [{ ...child, childId: material?.id }] });
  });

  it('resumes a batch stopped between setimporting and startrefinement from the file status', async () => {
    const { buildingId } = await createBuilding(server, 'Interrupted');
    const fileId = await mappedFile(buildingId, 4);
    const db = await pulledCache();
    await editElements(db, fileId, ['E0001', 'E0002'], { name: 'edited' });
    const noRefinement = queuedPort(server, (url) => (url.pathname.endsWith('/startrefinement') ? 'network' : 'pass'));

    expect(await pushNow(db, noRefinement)).toMatchObject({ status: 'incomplete', retryable: true, pushed: 2 });
    const status = (await server.request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`)).json;
    expect(status.status).toBe(7);
    expect(await db.outbox.count()).toBe(0);

    const resumed = recording(port);
    expect(await pushNow(db, resumed.port)).toEqual({ status: 'done', pushed: 0, parked: 0, retryable: false });
    expect(operations(resumed.calls).slice(0, 2)).toEqual(['getBuildingFileStatus', 'startBuildingFileRefinement']);
    expect(operations(resumed.calls)).not.toContain('setBuildingFileImporting');
    const onServer = await serverElements(server, buildingId, fileId);
    expect(onServer.filter((element) => element.name === 'edited').map((element) => element.id)).toEqual(['E0001', 'E0002']);
    expect(await cachedElements(db, fileId)).toEqual(onServer);
    expect((await server.request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`)).json.status).toBe(3);
  });

  it('stops at 401 and reports it as not retryable, the entry kept pending', async () => {
    const { buildingId } = await createBuilding(server, 'Unauthorised');
    const db = await pulledCache();
    await editBuilding(db, buildingId, { addressCity: 'Breda' });

    const result = await pushNow(db, queuedPort(server, () => 401));

    expect(result).toMatchObject({ status: 'incomplete', retryable: false, pushed: 0, parked: 0 });
    expect(result.lastError?.failure).toMatchObject({ kind: 'problem', status: 401 });
    expect(await outbox(db)).toEqual([expect.objectContaining({ state: 'pending', attempts: 1, lastError: result.lastError })]);
    expect((await readPushState(db)).lastError).toEqual(result.lastError);
  });

  it('stops before its next request when its signal is aborted', async () => {
    const { buildingId } = await createBuilding(server, 'Aborted');
    const db = await pulledCache();
    await editBuilding(db, buildingId, { addressCity: 'Ede' });
    const controller = new AbortController();
    controller.abort();
    const recorded = recording(port);

    expect(await pushNow(db, recorded.port, { signal: controller.signal })).toMatchObject({ status: 'incomplete', retryable: true, pushed: 0 });
    expect(recorded.calls).toEqual([]);
    expect(await db.outbox.count()).toBe(1);
  });

  it('leaves the cache equal to the server once everything is pushed and pulled', async () => {
    await settled();
    const db = await pulledCache();

    await expectCacheEqualsServer(db, server);
    expect(await db.outbox.count()).toBe(0);
  });
});
