import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildingFileElementResponse, BuildingFileResponse, BuildingResponse, PortfolioResponse } from '../../../../shared/api/schemas';
import {
  applyServerBuildings,
  applyServerFiles,
  applyServerList,
  beginElementPull,
  finishElementPull,
  writeElementPage,
  catalogueItemsMissingDetails,
  writeCatalogueLists,
} from '../../../../renderer/db/apply-pull';
import { buildingsWithFiguresDue, writeBuildingFigures } from '../../../../renderer/db/building-figures';
import { CacheDb } from '../../../../renderer/db/cache-db';
import { elementCount, scanElements } from '../../../../renderer/db/reads';
import { elementCursorKey, elementKey, serverFieldsOf, type ElementCursorRow, type ElementRow, type OutboxEntity } from '../../../../renderer/db/schema';
import { readElementCursor } from '../../../../renderer/db/sync-state';

const B1 = '11111111-1111-4111-8111-111111111111';
const F1 = '21111111-1111-4111-8111-111111111111';
const F2 = '22222222-2222-4222-8222-222222222222';

let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

function open(): CacheDb {
  const db = new CacheDb('unit', { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  return db;
}

/** Every element of a file as screens read them. */
async function rowsOf(db: CacheDb, fileId: string): Promise<ElementRow[]> {
  const rows: ElementRow[] = [];
  await scanElements(db, fileId, (chunk) => rows.push(...chunk));
  return rows;
}

async function edit(db: CacheDb, entity: OutboxEntity, key: string): Promise<void> {
  await db.outbox.add({
    opId: crypto.randomUUID(),
    entity,
    key,
    op: 'update',
    fields: {},
    createdAt: '2025-01-01T00:00:00.000Z',
    attempts: 0,
    lastError: null,
    state: 'pending',
    aggregate: `${entity}:${key}`,
  });
}

function portfolio(id: string, name: string): PortfolioResponse {
  return { id, name } as PortfolioResponse;
}

function building(id: string, changes: Partial<BuildingResponse> = {}): BuildingResponse {
  return { id, portfolioId: 'p', name: id, isDirty: false, mostRecentBimInfo: null, ...changes } as BuildingResponse;
}

function file(id: string, stamp: string, changes: Partial<BuildingFileResponse> = {}): BuildingFileResponse {
  return { id, buildingId: B1, type: 0, status: 3, isActive: true, lastModifiedDate: stamp, ...changes } as BuildingFileResponse;
}

function element(fileId: string, id: string, name: string): BuildingFileElementResponse {
  return { id, buildingFileId: fileId, name } as BuildingFileElementResponse;
}

function cursorOf(fileId: string, stamp: string): Omit<ElementCursorRow, 'target'> {
  return {
    key: elementCursorKey(fileId),
    kind: 'element-cursor',
    buildingId: B1,
    fileId,
    stamp,
    pageSize: 2,
    nextSkip: 0,
    pagesDone: 0,
    expectedCount: null,
    startedAt: '2025-01-01T00:00:00.000Z',
  };
}

/** Writes `elements` page by page (pages of two) where the cursor says, and ends the file's pull. */
async function pullFile(db: CacheDb, fileId: string, stamp: string, elements: BuildingFileElementResponse[]): Promise<void> {
  let cursor = await beginElementPull(db, cursorOf(fileId, stamp), null);
  for (let skip = 0; skip < elements.length; skip += 2) {
    const page = elements.slice(skip, skip + 2);
    cursor = { ...cursor, nextSkip: skip + page.length, pagesDone: cursor.pagesDone + 1 };
    await writeElementPage(db, cursor, page, { phase: 'elements', buildingId: B1, fileId, pagesDone: cursor.pagesDone, totalPages: null });
  }
  await finishElementPull(db, cursor);
}

describe('applying a complete list', () => {
  it('writes new and changed rows, removes rows the list lacks, and leaves rows with outbox entries alone', async () => {
    const db = open();
    await applyServerList(db, 'portfolios', [portfolio('a', 'A'), portfolio('b', 'B'), portfolio('c', 'C'), portfolio('local:x', 'mine')]);
    // The user edits b (its server values kept as base) and c; the server renames b and a and drops c.
    await db.portfolios.put({ ...portfolio('b', 'B edited'), base: portfolio('b', 'B') });
    await edit(db, 'portfolios', 'b');
    await edit(db, 'portfolios', 'c');
    await edit(db, 'portfolios', 'local:x');

    const applied = await applyServerList(db, 'portfolios', [portfolio('a', 'A2'), portfolio('b', 'B2'), portfolio('d', 'D')]);

    expect(await db.portfolios.orderBy('id').toArray()).toEqual([
      portfolio('a', 'A2'),
      { ...portfolio('b', 'B edited'), base: portfolio('b', 'B') },
      portfolio('c', 'C'),
      portfolio('d', 'D'),
      portfolio('local:x', 'mine'),
    ]);
    // The user hears of c, which the server no longer has; a locally created row is missing by nature.
    expect(applied.keptMissing).toEqual([{ table: 'portfolios', key: 'c' }]);
  });

  it('removes the sub-resource lists of a removed catalogue item, except those with local changes', async () => {
    const db = open();
    const material = (id: string) => ({ id, name: { en: id } }) as never;
    await applyServerList(db, 'materials', [material('m1'), material('m2')]);
    await writeCatalogueLists(
      db,
      ['m1', 'm2'].flatMap((ownerId) => [
        { table: 'materialMatches' as const, ownerId, items: [{ value: ownerId, matchType: 10 }] },
        { table: 'materialFinancialValues' as const, ownerId, items: [] },
      ]),
      '2025-01-01T00:00:00.000Z',
    );
    expect(await catalogueItemsMissingDetails(db)).toEqual({ materials: [], products: [] });
    await edit(db, 'materialMatches', 'm2');

    await applyServerList(db, 'materials', [material('m3')]);

    expect(await db.materials.toCollection().primaryKeys()).toEqual(['m3']);
    expect(await db.materialMatches.toCollection().primaryKeys()).toEqual(['m2']);
    expect(await db.materialFinancialValues.count()).toBe(0);
    expect(await catalogueItemsMissingDetails(db)).toEqual({ materials: ['m3'], products: [] });
  });
});

describe('applying the buildings and their files', () => {
  it('answers the source files whose elements are missing or older, once the server has finished with them', async () => {
    const db = open();
    await applyServerBuildings(db, [building(B1)]);
    const first = await applyServerFiles(db, B1, [
      file(F1, 't1'),
      file(F2, 't1', { status: 4 }),
      file('info', 't1', { type: 1 }),
    ]);
    expect(first.due.map((due) => due.fileId)).toEqual([F1]);

    await pullFile(db, F1, 't1', [element(F1, 'a', 'A')]);
    const same = await applyServerFiles(db, B1, [file(F1, 't1'), file(F2, 't1', { status: 3 }), file('info', 't1', { type: 1 })]);
    expect(same.due).toEqual([{ buildingId: B1, fileId: F2, stamp: 't1' }]);

    const moved = await applyServerFiles(db, B1, [file(F1, 't2'), file(F2, 't1', { status: 4 })]);
    expect(moved.due).toEqual([{ buildingId: B1, fileId: F1, stamp: 't2' }]);
    expect((await db.files.get(F1))?.elementsStamp).toBe('t1');
  });

  it('marks the figures due when the files change, when isDirty clears or when mostRecentBimInfo moves, not while dirty', async () => {
    const db = open();
    const at = '2025-01-01T00:00:00.000Z';
    const figures = { circular: {}, financial: {}, validation: {} } as never;
    await applyServerBuildings(db, [building(B1)]);
    await applyServerFiles(db, B1, [file(F1, 't1')]);
    expect(await buildingsWithFiguresDue(db)).toEqual([B1]);
    await writeBuildingFigures(db, B1, figures, at);
    expect(await buildingsWithFiguresDue(db)).toEqual([]);

    await applyServerBuildings(db, [building(B1)]);
    await applyServerFiles(db, B1, [file(F1, 't1')]);
    expect(await buildingsWithFiguresDue(db)).toEqual([]);

    await applyServerFiles(db, B1, [file(F1, 't2')]);
    await applyServerBuildings(db, [building(B1, { isDirty: true })]);
    expect(await buildingsWithFiguresDue(db)).toEqual([]);
    await applyServerBuildings(db, [building(B1, { isDirty: false })]);
    expect(await buildingsWithFiguresDue(db)).toEqual([B1]);
    await writeBuildingFigures(db, B1, figures, at);

    await applyServerBuildings(db, [building(B1, { mostRecentBimInfo: '2025-02-01T00:00:00.000Z' })]);
    expect(await buildingsWithFiguresDue(db)).toEqual([B1]);
  });

  it("removes a removed file's elements, staged pages and cursor, but keeps elements with local changes", async () => {
    const db = open();
    await applyServerBuildings(db, [building(B1)]);
    await applyServerFiles(db, B1, [file(F1, 't1'), file(F2, 't1')]);
    await pullFile(db, F1, 't1', [element(F1, 'a', 'A'), element(F1, 'b', 'B'), element(F1, 'c', 'C')]);
    await pullFile(db, F2, 't1', [element(F2, 'a', 'A')]);
    const cursor = await beginElementPull(db, cursorOf(F1, 't2'), null);
    await writeElementPage(db, cursor, [element(F1, 'z', 'Z')], { phase: 'lists', collection: 'x' });
    await db.elements.put({ ...element(F1, 'b', 'B mine'), base: element(F1, 'b', 'B') });
    await edit(db, 'elements', elementKey(F1, 'b'));

    await applyServerFiles(db, B1, [file(F2, 't1')]);

    expect(await db.files.toCollection().primaryKeys()).toEqual([F2]);
    expect(await rowsOf(db, F1)).toEqual([{ ...element(F1, 'b', 'B mine'), base: element(F1, 'b', 'B') }]);
    expect(await elementCount(db, F2)).toBe(1);
    expect(await db.elementSets.get(F1)).toMatchObject({ shown: null, staged: null });
    expect(await db.elementBlocks.filter((block) => block.buildingFileId === F1).count()).toBe(0);
    expect(await readElementCursor(db, F1)).toBeUndefined();
  });

  it("removes a removed building's files and figures, unless the building has local changes", async () => {
    const db = open();
    await applyServerBuildings(db, [building(B1), building('b2')]);
    await applyServerFiles(db, B1, [file(F1, 't1')]);
    await pullFile(db, F1, 't1', [element(F1, 'a', 'A')]);
    await edit(db, 'buildings', 'b2');

    const applied = await applyServerBuildings(db, []);

    expect(await db.buildings.toCollection().primaryKeys()).toEqual(['b2']);
    expect(await db.files.count()).toBe(0);
    expect(await db.elements.count()).toBe(0);
    expect(await db.elementBlocks.count()).toBe(0);
    expect(await db.buildingFigures.toCollection().primaryKeys()).toEqual(['b2']);
    expect(applied.keptMissing).toEqual([{ table: 'buildings', key: 'b2' }]);
  });
});

describe('writing pulled elements', () => {
  it('replaces the elements of a file in one step, keeping local values of elements with outbox entries', async () => {
    const db = open();
    await applyServerBuildings(db, [building(B1)]);
    await applyServerFiles(db, B1, [file(F1, 't1')]);
    await pullFile(db, F1, 't1', [element(F1, 'a', 'A'), element(F1, 'b', 'B'), element(F1, 'c', 'C')]);
    const server = element(F1, 'b', 'B');
    await db.elements.put({ ...server, name: 'B mine', base: server });
    await edit(db, 'elements', elementKey(F1, 'b'));
    await db.elements.put(element(F1, 'new', 'created here'));
    await edit(db, 'elements', elementKey(F1, 'new'));

    let cursor = await beginElementPull(db, cursorOf(F1, 't2'), null);
    expect(cursor.target).toBe('staging');
    cursor = { ...cursor, nextSkip: 2, pagesDone: 1 };
    await writeElementPage(db, cursor, [element(F1, 'b', 'B2'), element(F1, 'd', 'D')], { phase: 'lists', collection: 'x' });
    // Until the last page arrived, the file's elements are the complete older set.
    expect((await rowsOf(db, F1)).map((row) => row.id)).toEqual(['a', 'b', 'c', 'new']);
    expect(await readElementCursor(db, F1)).toMatchObject({ nextSkip: 2, pagesDone: 1, stamp: 't2' });

    await finishElementPull(db, cursor);

    expect(await rowsOf(db, F1)).toEqual([{ ...server, name: 'B mine', base: server }, element(F1, 'd', 'D'), element(F1, 'new', 'created here')]);
    expect((await db.elementSets.get(F1))?.staged).toBeNull();
    // The older generation's blocks went with it.
    expect(await db.elementBlocks.count()).toBe(1);
    expect(await readElementCursor(db, F1)).toBeUndefined();
    expect((await db.files.get(F1))?.elementsStamp).toBe('t2');
  });

  it('writes the pages of a file never held completely straight into its elements', async () => {
    const db = open();
    await applyServerBuildings(db, [building(B1)]);
    await applyServerFiles(db, B1, [file(F1, 't1')]);

    let cursor = await beginElementPull(db, cursorOf(F1, 't1'), null);
    expect(cursor.target).toBe('elements');
    cursor = { ...cursor, nextSkip: 2, pagesDone: 1 };
    await writeElementPage(db, cursor, [element(F1, 'a', 'A'), element(F1, 'b', 'B')], { phase: 'lists', collection: 'x' });

    expect((await db.elementSets.get(F1))?.staged).toBeNull();
    expect((await rowsOf(db, F1)).map((row) => row.id)).toEqual(['a', 'b']);
    expect((await db.files.get(F1))?.elementsStamp).toBeNull();
    await finishElementPull(db, cursor);
    expect((await db.files.get(F1))?.elementsStamp).toBe('t1');
    expect(await readElementCursor(db, F1)).toBeUndefined();
  });

  it('drops the partial pages of an unfinished first pull when the file changed, keeping elements with local changes', async () => {
    const db = open();
    await applyServerBuildings(db, [building(B1)]);
    await applyServerFiles(db, B1, [file(F1, 't1')]);
    const first = { ...(await beginElementPull(db, cursorOf(F1, 't1'), null)), nextSkip: 2, pagesDone: 1 };
    await writeElementPage(db, first, [element(F1, 'a', 'A'), element(F1, 'b', 'B')], { phase: 'lists', collection: 'x' });
    const server = element(F1, 'b', 'B');
    await db.elements.put({ ...server, name: 'B mine', base: server });
    await edit(db, 'elements', elementKey(F1, 'b'));

    const again = { ...(await beginElementPull(db, cursorOf(F1, 't2'), null)), nextSkip: 2, pagesDone: 1 };
    expect(again.target).toBe('elements');
    expect((await rowsOf(db, F1)).map((row) => row.id)).toEqual(['b']);
    await writeElementPage(db, again, [element(F1, 'b', 'B2'), element(F1, 'c', 'C')], { phase: 'lists', collection: 'x' });
    await finishElementPull(db, again);

    expect(await rowsOf(db, F1)).toEqual([{ ...server, name: 'B mine', base: server }, element(F1, 'c', 'C')]);
  });

  it("strips the cache's own fields from a row, leaving the server's values", () => {
    const row = { ...file(F1, 't1'), elementsStamp: 't0', base: file(F1, 't0') };
    expect(serverFieldsOf(row)).toEqual(file(F1, 't1'));
  });
});
