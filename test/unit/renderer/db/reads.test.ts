import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildingFileElementResponse } from '../../../../shared/api/schemas';
import { CacheDb } from '../../../../renderer/db/cache-db';
import { appendBlocks, BLOCK_ROWS, ELEMENT_TABLES, startBlockSet } from '../../../../renderer/db/element-blocks';
import { ID_BLOCKS, elementCount, elementIdsOf, elementsByIds, scanElements } from '../../../../renderer/db/reads';
import type { ElementRow } from '../../../../renderer/db/schema';

const FILE = '31111111-1111-4111-8111-111111111111';
const OTHER_FILE = '32222222-2222-4222-8222-222222222222';

let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

function idOf(index: number): string {
  return `e${String(index).padStart(5, '0')}`;
}

function element(fileId: string, id: string, name = `element ${id}`): BuildingFileElementResponse {
  return { buildingFileId: fileId, id, name } as BuildingFileElementResponse;
}

/** Writes a file's server elements as the pull does, a page of 1,000 at a time. */
async function pulled(db: CacheDb, fileId: string, ids: readonly string[]): Promise<void> {
  await db.transaction('rw', ELEMENT_TABLES, async () => {
    await startBlockSet(db, fileId, 't1', 'shown');
    for (let start = 0; start < ids.length; start += 1000) {
      await appendBlocks(db, fileId, 'shown', ids.slice(start, start + 1000).map((id) => element(fileId, id)));
    }
  });
}

/** A cache holding `count` elements of the file (ids `e00000`, `e00001`, …; in reverse when `reversed`) and two of another file. */
async function cacheWith(count: number, reversed = false): Promise<CacheDb> {
  const db = new CacheDb('reads', { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  const ids = Array.from({ length: count }, (_, index) => idOf(index));
  await pulled(db, FILE, reversed ? ids.reverse() : ids);
  await pulled(db, OTHER_FILE, ['a', 'z']);
  return db;
}

async function rowsOf(db: CacheDb, fileId: string): Promise<ElementRow[]> {
  const rows: ElementRow[] = [];
  await scanElements(db, fileId, (chunk) => rows.push(...chunk));
  return rows;
}

const idsOf = (rows: readonly (ElementRow | undefined)[]): (string | undefined)[] => rows.map((row) => row?.id);

describe('elementIdsOf', () => {
  it("lists every id of a file in the pull's order across several steps, and none of another file's", async () => {
    const count = 2 * ID_BLOCKS * BLOCK_ROWS + 7;
    const db = await cacheWith(count);
    const ids = [...(await elementIdsOf(db, FILE))];
    expect(ids).toHaveLength(count);
    expect(ids[0]).toBe('e00000');
    expect(ids[ID_BLOCKS * BLOCK_ROWS]).toBe(idOf(ID_BLOCKS * BLOCK_ROWS));
    expect(ids.at(-1)).toBe(idOf(count - 1));
    expect(new Set(ids).size).toBe(count);
    expect(await elementCount(db, FILE)).toBe(count);
    expect([...(await elementIdsOf(db, OTHER_FILE))]).toEqual(['a', 'z']);
  });

  it('answers the first ones only when asked for a limit, and what it has when aborted', async () => {
    const db = await cacheWith(ID_BLOCKS * BLOCK_ROWS + 10);
    expect([...(await elementIdsOf(db, FILE, 3))]).toEqual(['e00000', 'e00001', 'e00002']);
    const controller = new AbortController();
    const listing = elementIdsOf(db, FILE, undefined, controller.signal);
    controller.abort();
    const partial = await listing;
    expect(partial.length).toBeLessThan(ID_BLOCKS * BLOCK_ROWS + 10);
    expect([...partial]).toEqual(Array.from({ length: partial.length }, (_, index) => idOf(index)));
  });

  it('lists the pages a pull appends to the shown set after the file was listed', async () => {
    const db = new CacheDb('growing', { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const page = (from: number) => Array.from({ length: 1000 }, (_, index) => element(FILE, idOf(from + index)));
    await db.transaction('rw', ELEMENT_TABLES, async () => {
      await startBlockSet(db, FILE, 't1', 'shown');
      await appendBlocks(db, FILE, 'shown', page(0));
    });
    expect((await elementIdsOf(db, FILE)).length).toBe(1000);
    await db.transaction('rw', ELEMENT_TABLES, () => appendBlocks(db, FILE, 'shown', page(1000)));
    expect(await elementCount(db, FILE)).toBe(2000);
    const ids = await elementIdsOf(db, FILE);
    expect([ids.length, ids.at(1999)]).toEqual([2000, idOf(1999)]);
  });

  it('answers nothing for a file without elements', async () => {
    const db = await cacheWith(0);
    expect([...(await elementIdsOf(db, FILE))]).toEqual([]);
    expect([...(await elementIdsOf(db, 'never-pulled'))]).toEqual([]);
    expect(await elementCount(db, 'never-pulled')).toBe(0);
  });
});

describe('elementsByIds', () => {
  it.each([
    ['in key order', false],
    ['in another order', true],
  ])('finds rows of blocks written %s, in the order asked, undefined for an id the file lacks', async (_, reversed) => {
    const db = await cacheWith(3 * BLOCK_ROWS, reversed);
    const run = [idOf(10), idOf(11), idOf(12), idOf(13)];
    expect(idsOf(await elementsByIds(db, FILE, run))).toEqual(run);
    expect(idsOf(await elementsByIds(db, FILE, [idOf(1400), idOf(2), 'nope', idOf(700)]))).toEqual([idOf(1400), idOf(2), undefined, idOf(700)]);
    expect(idsOf(await elementsByIds(db, OTHER_FILE, ['z', idOf(2)]))).toEqual(['z', undefined]);
  });

  it('answers the same after the whole file was listed (the index kept in memory)', async () => {
    const db = await cacheWith(3 * BLOCK_ROWS, true);
    await elementIdsOf(db, FILE);
    expect(idsOf(await elementsByIds(db, FILE, [idOf(1400), 'nope', idOf(0)]))).toEqual([idOf(1400), undefined, idOf(0)]);
  });
});

describe("the user's rows over the blocks", () => {
  it('shows an edited row in place of the server row, leaves a deleted one out and lists a created one last', async () => {
    const db = await cacheWith(20);
    const server = element(FILE, idOf(3));
    await db.elements.bulkPut([
      { ...server, name: 'mine', base: server },
      { buildingFileId: FILE, id: idOf(5), removed: true } as ElementRow,
      element(FILE, 'new-b'),
      element(FILE, 'new-a'),
      { buildingFileId: FILE, id: 'created-then-deleted', removed: true } as ElementRow,
    ]);

    const ids = [...(await elementIdsOf(db, FILE))];
    expect(ids).toHaveLength(21);
    expect(ids.slice(-2)).toEqual(['new-a', 'new-b']);
    expect(ids).not.toContain(idOf(5));
    expect(await elementCount(db, FILE)).toBe(21);
    expect([...(await elementIdsOf(db, FILE, 4))]).toEqual([idOf(0), idOf(1), idOf(2), idOf(3)]);
    expect(idsOf(await elementsByIds(db, FILE, [idOf(5), 'new-a', idOf(3)]))).toEqual([undefined, 'new-a', idOf(3)]);
    expect((await elementsByIds(db, FILE, [idOf(3)]))[0]?.name).toBe('mine');

    const rows = await rowsOf(db, FILE);
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.find((row) => row.id === idOf(3))?.name).toBe('mine');
  });

  it('counts many user rows against the index: edited ones once, deleted ones not', async () => {
    const db = await cacheWith(2 * BLOCK_ROWS, true);
    const edited = Array.from({ length: 100 }, (_, index) => ({ ...element(FILE, idOf(index), 'mine'), base: element(FILE, idOf(index)) }));
    const removed = Array.from({ length: 30 }, (_, index) => ({ buildingFileId: FILE, id: idOf(500 + index), removed: true }) as ElementRow);
    await db.elements.bulkPut([...edited, ...removed, element(FILE, 'new')]);

    expect(await elementCount(db, FILE)).toBe(2 * BLOCK_ROWS - 30 + 1);
    expect(await rowsOf(db, FILE)).toHaveLength(2 * BLOCK_ROWS - 30 + 1);
  });
});
