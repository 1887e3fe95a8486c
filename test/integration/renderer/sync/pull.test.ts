import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CacheDb } from '../../../../renderer/db/cache-db';
import { elementKey, type OutboxEntity, type PullProgress } from '../../../../renderer/db/schema';
import { elementsByIds } from '../../../../renderer/db/reads';
import { readElementCursor, readPullState } from '../../../../renderer/db/sync-state';
import type { ApiCall, ApiPort } from '../../../../renderer/api/port';
import { PAGES_AHEAD } from '../../../../renderer/sync/element-pages';
import { fillCatalogueDetails, pull, pullBuildingFigures, pullFileStatus, pullMaterialDetails, pullProductDetails } from '../../../../renderer/sync/pull';
import {
  cachedElements,
  createBuilding,
  createElementFile,
  elementIds,
  expectCacheEqualsServer,
  freshIndexedDb,
  importIfc,
  openCache,
  queuedPort,
  recording,
  serverElements,
  startSyncServer,
  writeElements,
  type Fault,
  type SyncServer,
} from './harness';

const PAGE = 50;

let server: SyncServer;
let port: ApiPort;
let ifc: { buildingId: string; fileId: string };
beforeAll(async () => {
  server = await startSyncServer();
  port = queuedPort(server);
  const { buildingId } = await createBuilding(server, 'Duplex');
  ifc = { buildingId, fileId: await importIfc(server, buildingId, 'duplex.ifc') };
  await createBuilding(server, 'Empty');
});
afterAll(async () => {
  await server.close();
});

let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

/** A cache on a fresh IndexedDB (or on `factory`, as a reloaded page finds it). */
function cache(factory = freshIndexedDb()): CacheDb {
  const db = openCache(factory);
  opened.push(db);
  return db;
}

async function fullPull(db: CacheDb, api: ApiPort = port): Promise<void> {
  expect(await pull({ db, api, pageSize: PAGE })).toMatchObject({ status: 'complete', issues: [] });
}

/** A port whose network misbehaves as `fault` says. */
function faulty(fault: (url: URL) => Fault): ApiPort {
  return queuedPort(server, fault);
}

function listElementCalls(calls: readonly ApiCall[], fileId?: string): ApiCall[] {
  return calls.filter((call) => call.operationId === 'listElements' && (fileId === undefined || call.params?.['fileId'] === fileId));
}

/** Writes a local edit as the edit helpers do: the row with its server values as base, and its outbox entry. */
async function editLocally<T extends { base?: unknown }>(db: CacheDb, entity: OutboxEntity, key: string, row: T, changes: Partial<T>): Promise<void> {
  await db.transaction('rw', [entity, 'outbox'], async () => {
    await db.table(entity).put({ ...row, ...changes, base: row });
    await db.outbox.add({
      opId: crypto.randomUUID(),
      entity,
      key,
      op: 'update',
      fields: changes,
      createdAt: new Date().toISOString(),
      attempts: 0,
      lastError: null,
      state: 'pending',
      aggregate: `${entity}:${key}`,
    });
  });
}

/** The element page of `fileId` a call asks for (its `$skip` in pages), or null for any other call. */
function pageAsked(call: ApiCall, fileId: string): number | null {
  return call.operationId === 'listElements' && call.params?.['fileId'] === fileId ? Number(call.query?.['$skip']) / PAGE : null;
}

/**
 * A port that hands on each element page of `fileId` after `delayMs(page)`, and notes for each request how many pages
 * of the file were already written (from the pull's progress, fed through `written`) and how many were in flight.
 */
function pacedPages(fileId: string, delayMs: (page: number) => number) {
  const seen = { written: 0, inFlight: 0, mostInFlight: 0, asked: [] as Array<{ page: number; written: number }> };
  const paced: ApiPort = async (call) => {
    const page = pageAsked(call, fileId);
    if (page === null) return port(call);
    seen.asked.push({ page, written: seen.written });
    seen.inFlight += 1;
    seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
    try {
      const answer = await port(call);
      await new Promise((resolve) => setTimeout(resolve, delayMs(page)));
      return answer;
    } finally {
      seen.inFlight -= 1;
    }
  };
  const onProgress = (progress: PullProgress): void => {
    if (progress.phase === 'elements' && progress.fileId === fileId) seen.written = progress.pagesDone;
  };
  return { port: paced, onProgress, seen };
}

/** Every write of an element of `fileId` into blocks, in the order the cache took them. */
function elementWrites(db: CacheDb, fileId: string): string[] {
  const ids: string[] = [];
  db.elementBlocks.hook('creating', (_key, block) => {
    if (block.buildingFileId === fileId) ids.push(...block.rows.map((row) => row.id));
  });
  db.elementBlocks.hook('updating', (_changes, _key, block) => {
    if (block.buildingFileId === fileId) ids.push(...block.rows.map((row) => row.id));
  });
  return ids;
}

describe('pull', () => {
  it('makes the cache equal to the server: every collection, every element, the figures', async () => {
    const { buildingId } = await createBuilding(server, 'Made');
    const fileId = await createElementFile(server, buildingId, 120);
    const db = cache();
    const progress: PullProgress[] = [];

    const result = await pull({ db, api: port, pageSize: PAGE, onProgress: (each) => progress.push(each) });

    expect(result).toEqual({ status: 'complete', issues: [], keptMissing: [] });
    await expectCacheEqualsServer(db, server);
    expect(await cachedElements(db, ifc.fileId)).toHaveLength(382);
    expect(await cachedElements(db, fileId)).toHaveLength(120);
    expect(await db.classificationMethods.count()).toBeGreaterThan(0);
    expect(await db.materials.count()).toBeGreaterThan(100);
    expect(await db.fileStatuses.get(ifc.fileId)).toMatchObject({ id: ifc.fileId, status: 3, elementCount: 382, buildingId: ifc.buildingId });
    // Progress: each page, out of the total the file's status announced when it has a count.
    const pagesOf = (id: string) =>
      progress.flatMap((each) => (each.phase === 'elements' && each.fileId === id ? [[each.pagesDone, each.totalPages]] : []));
    expect(pagesOf(ifc.fileId)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((done) => [done, 8]));
    expect(pagesOf(fileId)).toEqual([0, 1, 2, 3].map((done) => [done, null]));
    const state = await readPullState(db);
    expect(state.lastSuccessAt).not.toBeNull();
    expect(state).toMatchObject({ lastError: null, progress: null, issues: [] });
  });

  it('costs one list request per collection (two per catalogue: the platform and the own database) and one per building when nothing changed', async () => {
    const db = cache();
    await fullPull(db);
    const counted = recording(port);

    expect(await pull({ db, api: counted.port, pageSize: PAGE })).toMatchObject({ status: 'complete' });

    const buildings = (await server.request<unknown[]>('GET', '/buildings')).json;
    expect(counted.calls.map((call) => call.operationId).sort()).toEqual(
      [
        ...buildings.map(() => 'listBuildingFiles'),
        'getCurrentAccount',
        'listBuildings',
        'listClassificationMethods',
        'listMaterials',
        'listMaterials',
        'listPortfolios',
        'listProducts',
        'listProducts',
      ].sort(),
    );
    await expectCacheEqualsServer(db, server);
  });

  it("pulls again only the elements of a file whose stamp moved, and that building's figures", async () => {
    const { buildingId } = await createBuilding(server, 'Changing');
    const fileId = await createElementFile(server, buildingId, 70);
    const db = cache();
    await fullPull(db);
    await writeElements(server, buildingId, fileId, elementIds(10, 3), 'renamed', 'PUT');
    await writeElements(server, buildingId, fileId, elementIds(70, 2), 'added');
    const counted = recording(port);

    await fullPull(db, counted.port);

    const pages = listElementCalls(counted.calls);
    // The file's status has no count of elements made through the API: the page past the end is asked for ahead, and dropped.
    expect(pages.map((call) => [call.params?.['fileId'], call.query?.['$skip'], call.query?.['$orderby']])).toEqual([
      [fileId, 0, 'id'],
      [fileId, PAGE, 'id'],
      [fileId, 2 * PAGE, 'id'],
    ]);
    const figureCalls = counted.calls.filter((call) => call.operationId.startsWith('getBuilding') && call.operationId !== 'getBuildingFileStatus');
    expect(figureCalls.map((call) => [call.operationId, call.params?.['id']])).toEqual([
      ['getBuildingCircular', buildingId],
      ['getBuildingFinancial', buildingId],
      ['getBuildingValidation', buildingId],
    ]);
    expect(await cachedElements(db, fileId)).toEqual(await serverElements(server, buildingId, fileId));
    await expectCacheEqualsServer(db, server);
  });

  it('resumes a pull killed in the middle of a file at the next page, not the first', async () => {
    const { buildingId } = await createBuilding(server, 'Killed');
    const fileId = await createElementFile(server, buildingId, 260);
    const factory = freshIndexedDb();
    const first = cache(factory);
    let pagesServed = 0;
    const dying: ApiPort = async (call) => {
      if (call.operationId === 'listElements' && call.params?.['fileId'] === fileId && ++pagesServed > 3) throw new Error('killed');
      return port(call);
    };

    await expect(pull({ db: first, api: dying, pageSize: PAGE })).rejects.toThrow('killed');
    expect(await readElementCursor(first, fileId)).toMatchObject({ nextSkip: 3 * PAGE, pagesDone: 3, stamp: (await first.files.get(fileId))?.lastModifiedDate });
    // A file the cache never held takes its pages as they come, and is marked as not yet complete.
    expect(await cachedElements(first, fileId)).toEqual((await serverElements(server, buildingId, fileId)).slice(0, 3 * PAGE));
    expect((await first.files.get(fileId))?.elementsStamp).toBeNull();
    // The page was killed: nothing closes the database; a reload opens it again.
    const reloaded = cache(factory);
    const counted = recording(port);

    expect(await pull({ db: reloaded, api: counted.port, pageSize: PAGE })).toMatchObject({ status: 'complete' });

    expect(listElementCalls(counted.calls, fileId).map((call) => call.query?.['$skip'])).toEqual([150, 200, 250, 300]);
    expect(counted.calls.some((call) => call.operationId === 'getBuildingFileStatus' && call.params?.['fileId'] === fileId)).toBe(false);
    await expectCacheEqualsServer(reloaded, server);
  });

  it('asks for the next pages while one is written, and writes them in order when they arrive out of order', async () => {
    const { buildingId } = await createBuilding(server, 'Paged');
    const fileId = await createElementFile(server, buildingId, 300);
    const db = cache();
    const writes = elementWrites(db, fileId);
    // Every third page takes longest, so the page after it arrives first.
    const paced = pacedPages(fileId, (page) => [60, 10, 35][page % 3] ?? 0);

    expect(await pull({ db, api: paced.port, pageSize: PAGE, onProgress: paced.onProgress })).toMatchObject({ status: 'complete' });

    // Page k + 2 is asked for before page k is written, and never further ahead.
    expect(paced.seen.asked.some(({ page, written }) => page - written === PAGES_AHEAD)).toBe(true);
    expect(paced.seen.asked.every(({ page, written }) => page - written <= PAGES_AHEAD)).toBe(true);
    expect(paced.seen.mostInFlight).toBeGreaterThanOrEqual(2);
    // Six full pages and no count of elements: the empty page 6 ends the file; page 7, asked for ahead, is dropped.
    expect(paced.seen.asked.map(({ page }) => page)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // One write per element, page after page in the server's order.
    const server300 = await serverElements(server, buildingId, fileId);
    expect(writes).toEqual(server300.map((element) => element.id));
    await expectCacheEqualsServer(db, server);
  });

  it('stopped with pages in flight, drops them and resumes where the cache is, without loss or a second write', async () => {
    const { buildingId } = await createBuilding(server, 'Stopped in flight');
    const fileId = await createElementFile(server, buildingId, 300);
    const elements = await serverElements(server, buildingId, fileId);
    const db = cache();
    const writes = elementWrites(db, fileId);
    const controller = new AbortController();
    const paced = pacedPages(fileId, () => 30);

    const aborted = await pull({
      db,
      api: paced.port,
      pageSize: PAGE,
      signal: controller.signal,
      onProgress: (progress) => {
        paced.onProgress(progress);
        if (progress.phase === 'elements' && progress.fileId === fileId && progress.pagesDone === 2) controller.abort();
      },
    });

    expect(aborted).toMatchObject({ status: 'incomplete', retryable: true, stoppedBy: { failure: { reason: 'aborted' } } });
    expect(Math.max(...paced.seen.asked.map(({ page }) => page))).toBeGreaterThan(2);
    // The answers of the pages in flight arrive after the stop, and are not written.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(paced.seen.inFlight).toBe(0);
    expect(await readElementCursor(db, fileId)).toMatchObject({ nextSkip: 2 * PAGE, pagesDone: 2 });
    expect(await cachedElements(db, fileId)).toEqual(elements.slice(0, 2 * PAGE));

    // A 503 for a page asked for ahead stops the pull once the pages before it are written.
    const failing: ApiPort = (call) => (pageAsked(call, fileId) === 4 ? faulty(() => 503)(call) : paced.port(call));
    expect(await pull({ db, api: failing, pageSize: PAGE })).toMatchObject({ status: 'incomplete', stoppedBy: { where: `listElements:${fileId}` } });
    expect(await readElementCursor(db, fileId)).toMatchObject({ nextSkip: 4 * PAGE, pagesDone: 4 });
    expect(await cachedElements(db, fileId)).toEqual(elements.slice(0, 4 * PAGE));

    const counted = recording(port);
    await fullPull(db, counted.port);

    expect(listElementCalls(counted.calls, fileId).map((call) => call.query?.['$skip'])).toEqual([4 * PAGE, 5 * PAGE, 6 * PAGE, 7 * PAGE]);
    expect(writes).toEqual(elements.map((element) => element.id));
    await expectCacheEqualsServer(db, server);
  });

  it('starts a file again from its first page when its stamp moved since the pull stopped', async () => {
    const { buildingId } = await createBuilding(server, 'Moved');
    const fileId = await createElementFile(server, buildingId, 120);
    const db = cache();
    const stopping = faulty((url) => (url.pathname.endsWith(`${fileId}/elements`) && url.searchParams.get('$skip') === String(PAGE) ? 503 : 'pass'));
    expect(await pull({ db, api: stopping, pageSize: PAGE })).toMatchObject({ status: 'incomplete', retryable: true });
    await writeElements(server, buildingId, fileId, elementIds(0, 1), 'changed', 'PUT');
    const counted = recording(port);

    await fullPull(db, counted.port);

    expect(listElementCalls(counted.calls, fileId).map((call) => call.query?.['$skip'])).toEqual([0, 50, 100, 150]);
    await expectCacheEqualsServer(db, server);
  });

  it('neither overwrites nor deletes rows with local changes, and tells which ones the server no longer has', async () => {
    const { portfolioId, buildingId } = await createBuilding(server, 'Edited');
    const fileId = await createElementFile(server, buildingId, 60);
    const gone = await createBuilding(server, 'Gone while edited');
    const db = cache();
    await fullPull(db);
    const portfolio = await db.portfolios.get(portfolioId);
    const [element] = await elementsByIds(db, fileId, ['E0005']);
    const goneRow = await db.buildings.get(gone.buildingId);
    if (portfolio === undefined || element === undefined || goneRow === undefined) throw new Error('not pulled');
    await editLocally(db, 'portfolios', portfolioId, portfolio, { name: 'Mine' });
    await editLocally(db, 'elements', elementKey(fileId, 'E0005'), element, { name: 'mine' });
    await editLocally(db, 'buildings', gone.buildingId, goneRow, { name: 'Mine too' });
    // Meanwhile on the server: the portfolio renamed, every element renamed, the other building deleted.
    await server.request('PUT', `/portfolios/${portfolioId}`, { name: 'Theirs' });
    await writeElements(server, buildingId, fileId, elementIds(0, 60), 'theirs', 'PUT');
    expect((await server.request('DELETE', `/buildings/${gone.buildingId}`)).status).toBe(204);

    const result = await pull({ db, api: port, pageSize: PAGE });

    expect(result).toMatchObject({ status: 'complete', keptMissing: [{ table: 'buildings', key: gone.buildingId }] });
    expect(await db.portfolios.get(portfolioId)).toEqual({ ...portfolio, name: 'Mine', base: portfolio });
    expect(await elementsByIds(db, fileId, ['E0005'])).toEqual([{ ...element, name: 'mine', base: element }]);
    expect(await db.buildings.get(gone.buildingId)).toEqual({ ...goneRow, name: 'Mine too', base: goneRow });
    expect((await elementsByIds(db, fileId, ['E0006']))[0]?.name).toBe('theirs');
    expect((await db.files.get(fileId))?.elementsStamp).toBe((await db.files.get(fileId))?.lastModifiedDate);
    expect((await readPullState(db)).keptMissing).toEqual([{ table: 'buildings', key: gone.buildingId }]);
  });

  it('deletes rows the server no longer lists, with what hangs on them', async () => {
    const doomed = await createBuilding(server, 'Doomed');
    const doomedFile = await createElementFile(server, doomed.buildingId, 30);
    const kept = await createBuilding(server, 'Keeps a file');
    const deletedFile = await createElementFile(server, kept.buildingId, 30);
    const db = cache();
    await fullPull(db);
    expect(await cachedElements(db, doomedFile)).toHaveLength(30);

    expect((await server.request('DELETE', `/buildings/${kept.buildingId}/files/${deletedFile}`)).status).toBe(204);
    expect((await server.request('DELETE', `/buildings/${doomed.buildingId}`)).status).toBe(204);
    expect((await server.request('DELETE', `/portfolios/${doomed.portfolioId}`)).status).toBe(204);
    await fullPull(db);

    expect(await db.portfolios.get(doomed.portfolioId)).toBeUndefined();
    expect(await db.buildings.get(doomed.buildingId)).toBeUndefined();
    expect(await db.buildingFigures.get(doomed.buildingId)).toBeUndefined();
    expect(await db.files.get(doomedFile)).toBeUndefined();
    expect(await db.files.get(deletedFile)).toBeUndefined();
    expect(await cachedElements(db, doomedFile)).toEqual([]);
    expect(await cachedElements(db, deletedFile)).toEqual([]);
    expect(await db.buildings.get(kept.buildingId)).toBeDefined();
    await expectCacheEqualsServer(db, server);
  });

  it('stops at a 5xx, 429 or lost answer with the last complete data intact, and completes later', async () => {
    const { portfolioId, buildingId } = await createBuilding(server, 'Flaky');
    const fileId = await createElementFile(server, buildingId, 80);
    const db = cache();
    await fullPull(db);
    const before = await cachedElements(db, fileId);
    const stampBefore = (await db.files.get(fileId))?.elementsStamp;
    const successBefore = (await readPullState(db)).lastSuccessAt;
    await server.request('PUT', `/portfolios/${portfolioId}`, { name: 'Renamed' });
    await writeElements(server, buildingId, fileId, elementIds(0, 80), 'new names', 'PUT');

    const onElements = (status: Fault) => (url: URL) =>
      url.pathname.endsWith(`${fileId}/elements`) && url.searchParams.get('$skip') === String(PAGE) ? status : 'pass';
    for (const fault of [500, 429, 'network'] as const) {
      const result = await pull({ db, api: faulty(onElements(fault)), pageSize: PAGE });
      expect(result).toMatchObject({ status: 'incomplete', retryable: true, stoppedBy: { where: `listElements:${fileId}` } });
      expect(await cachedElements(db, fileId)).toEqual(before);
      expect((await db.files.get(fileId))?.elementsStamp).toBe(stampBefore);
    }
    // The complete lists before the failure were applied; the element pages wait in staging with their cursor.
    expect((await db.portfolios.get(portfolioId))?.name).toBe('Renamed');
    expect(await readElementCursor(db, fileId)).toMatchObject({ nextSkip: PAGE, pagesDone: 1 });
    const state = await readPullState(db);
    expect(state.lastSuccessAt).toBe(successBefore);
    expect(state.lastError).toMatchObject({ where: `listElements:${fileId}`, failure: { kind: 'network' } });

    const noList = await pull({ db, api: faulty((url) => (url.pathname.endsWith('/buildings') ? 'network' : 'pass')), pageSize: PAGE });
    expect(noList).toMatchObject({ status: 'incomplete', retryable: true, stoppedBy: { where: 'listBuildings', failure: { kind: 'network' } } });
    expect(await cachedElements(db, fileId)).toEqual(before);

    const counted = recording(port);
    await fullPull(db, counted.port);
    expect(listElementCalls(counted.calls, fileId).map((call) => call.query?.['$skip'])).toEqual([PAGE]);
    await expectCacheEqualsServer(db, server);
  });

  it('stops without retrying at 401 or 403: the key must change first', async () => {
    const db = cache();
    await fullPull(db);
    const result = await pull({ db, api: faulty((url) => (url.pathname.endsWith('/portfolios') ? 401 : 'pass')), pageSize: PAGE });
    expect(result).toMatchObject({ status: 'incomplete', retryable: false, stoppedBy: { where: 'listPortfolios', failure: { kind: 'problem', status: 401 } } });
    await expectCacheEqualsServer(db, server);
  });

  it('reports and skips a collection the server refuses, applying the others', async () => {
    const db = cache();
    await fullPull(db);
    const { buildingId } = await createBuilding(server, 'Applied despite refusals');
    const refusedBuilding = ifc.buildingId;
    const materialsBefore = await db.materials.count();
    await db.transaction('rw', db.materials, () => db.materials.clear());
    const refusing = faulty((url) =>
      url.pathname.endsWith('/materials') ? 400 : url.pathname.endsWith(`${refusedBuilding}/files`) ? 404 : 'pass',
    );

    const result = await pull({ db, api: refusing, pageSize: PAGE });

    expect(result.status).toBe('complete');
    expect(result.issues.map((issue) => [issue.where, issue.failure.kind === 'problem' ? issue.failure.status : issue.failure.kind])).toEqual([
      ['listMaterials', 400],
      [`listBuildingFiles:${refusedBuilding}`, 404],
    ]);
    expect(await db.materials.count()).toBe(0);
    expect(await db.buildings.get(buildingId)).toBeDefined();
    expect(await cachedElements(db, ifc.fileId)).toHaveLength(382);
    const state = await readPullState(db);
    expect(state.issues).toHaveLength(2);
    expect(state.lastError).toMatchObject({ where: `listBuildingFiles:${refusedBuilding}` });

    await fullPull(db);
    expect(await db.materials.count()).toBe(materialsBefore);
    expect((await readPullState(db)).lastError).toBeNull();
  });

  it('skips an answer of the wrong shape without applying any of it', async () => {
    const db = cache();
    await fullPull(db);
    const portfolios = await db.portfolios.toArray();
    const garbled: ApiPort = async (call) =>
      call.operationId === 'listPortfolios' ? { kind: 'ok', status: 200, value: [{ id: 'x' }, { name: 'no id' }], location: null } : port(call);

    const result = await pull({ db, api: garbled, pageSize: PAGE });

    expect(result).toMatchObject({ status: 'complete', issues: [{ where: 'listPortfolios', failure: { kind: 'invalid-answer' } }] });
    expect(await db.portfolios.toArray()).toEqual(portfolios);
  });

  it('takes a page longer than asked as the whole rest, from a server that ignores $top and $skip', async () => {
    const db = cache();
    const ignoring: ApiPort = (call) => port(call.operationId === 'listElements' ? { ...call, query: {} } : call);
    const counted = recording(ignoring);

    await fullPull(db, counted.port);

    expect(listElementCalls(counted.calls, ifc.fileId)).toHaveLength(1);
    await expectCacheEqualsServer(db, server);
  });

  it('stops before its next request once its signal is aborted, resumable later', async () => {
    const db = cache();
    const controller = new AbortController();
    const result = await pull({
      db,
      api: port,
      pageSize: PAGE,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.phase === 'elements' && progress.pagesDone === 2) controller.abort();
      },
    });
    expect(result).toMatchObject({ status: 'incomplete', retryable: true, stoppedBy: { failure: { kind: 'network', reason: 'aborted' } } });
    await fullPull(db);
    await expectCacheEqualsServer(db, server);
  });
});

describe('on demand', () => {
  it("fetches a catalogue item's sub-resources when opened and the rest in the background", async () => {
    const db = cache();
    await fullPull(db);
    const materials = (await server.request<{ id: string }[]>('GET', '/materials')).json;
    const [material] = materials;
    if (material === undefined) throw new Error('no materials');
    const product = await server.request<{ id: string }>('POST', '/products', { type: 'LengthProduct', name: { en: 'Frame' } });
    expect(product.status).toBe(201);
    await server.request('POST', `/products/${product.json.id}/children`, { value: 2, childId: material.id });
    await server.request('POST', `/products/${product.json.id}/matches`, { value: 'Frame', matchType: 10 });
    await fullPull(db);

    expect(await pullMaterialDetails({ db, api: port }, material.id)).toEqual({ ok: true, value: undefined });
    expect((await db.materialMatches.get(material.id))?.items).toEqual((await server.request('GET', `/materials/${material.id}/matches`)).json);
    expect(await pullProductDetails({ db, api: port }, product.json.id)).toEqual({ ok: true, value: undefined });
    expect((await db.productChildren.get(product.json.id))?.items).toEqual((await server.request('GET', `/products/${product.json.id}/children`)).json);
    expect((await db.productMatches.get(product.json.id))?.items).toEqual([{ value: 'Frame', matchType: 10 }]);

    const counted = recording(port);
    const filled = await fillCatalogueDetails({ db, api: counted.port, concurrency: 3 });

    expect(filled).toEqual({ filled: materials.length - 1, issues: [], stoppedBy: null });
    expect(counted.calls).toHaveLength((materials.length - 1) * 2);
    for (const { id } of materials.slice(0, 20)) {
      expect((await db.materialFinancialValues.get(id))?.items).toEqual((await server.request('GET', `/materials/${id}/financialvalues`)).json);
    }
    expect(await fillCatalogueDetails({ db, api: counted.port })).toEqual({ filled: 0, issues: [], stoppedBy: null });
    expect(counted.calls).toHaveLength((materials.length - 1) * 2);
  });

  it('stops the background fill at the first failure that is not a refusal', async () => {
    const db = cache();
    await fullPull(db);
    const result = await fillCatalogueDetails({ db, api: faulty(() => 503), concurrency: 2 });
    expect(result).toMatchObject({ filled: 0, issues: [], stoppedBy: { failure: { kind: 'problem', status: 503 } } });
    expect(await db.materialMatches.count()).toBe(0);
  });

  it("fetches a building's figures and a file's status on demand", async () => {
    const db = cache();
    await fullPull(db);
    await db.transaction('rw', db.buildingFigures, () => db.buildingFigures.clear());

    expect(await pullBuildingFigures({ db, api: port }, ifc.buildingId)).toEqual({ ok: true, value: undefined });
    expect((await db.buildingFigures.get(ifc.buildingId))?.validation).toEqual((await server.request('GET', `/buildings/${ifc.buildingId}/validation`)).json);
    const status = await pullFileStatus({ db, api: port }, ifc.buildingId, ifc.fileId);
    expect(status).toMatchObject({ ok: true, value: { id: ifc.fileId, status: 3, elementCount: 382 } });
    expect(await db.fileStatuses.get(ifc.fileId)).toMatchObject({ status: 3, elementCount: 382, buildingId: ifc.buildingId });
    expect(await pullBuildingFigures({ db, api: faulty(() => 404) }, ifc.buildingId)).toMatchObject({ ok: false, class: 'rejected' });
  });
});
