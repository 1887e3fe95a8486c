import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CacheDb } from '../../../../renderer/db/cache-db';
import { ID_CHUNK, elementCount, elementIdsOf, elementsByIds } from '../../../../renderer/db/reads';
import type { ElementRow } from '../../../../renderer/db/schema';

const FILE = '31111111-1111-4111-8111-111111111111';
const OTHER_FILE = '32222222-2222-4222-8222-222222222222';

let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

/** A cache holding `count` elements of the file (ids `e00000`, `e00001`, …, stored in reverse) and two of another file. */
async function cacheWith(count: number): Promise<CacheDb> {
  const db = new CacheDb('reads', { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  const rows = Array.from({ length: count }, (_, index) => ({ buildingFileId: FILE, id: `e${String(index).padStart(5, '0')}` }));
  rows.reverse();
  await db.elements.bulkPut([...rows, { buildingFileId: OTHER_FILE, id: 'a' }, { buildingFileId: OTHER_FILE, id: 'z' }] as unknown as ElementRow[]);
  return db;
}

describe('elementIdsOf', () => {
  it("lists every id of a file in id order across several steps, and none of another file's", async () => {
    const count = 2 * ID_CHUNK + 7;
    const db = await cacheWith(count);
    const ids = await elementIdsOf(db, FILE);
    expect(ids).toHaveLength(count);
    expect(ids[0]).toBe('e00000');
    expect(ids[ID_CHUNK]).toBe(`e${String(ID_CHUNK).padStart(5, '0')}`);
    expect(ids.at(-1)).toBe(`e${String(count - 1).padStart(5, '0')}`);
    expect(new Set(ids).size).toBe(count);
    expect(await elementCount(db, FILE)).toBe(count);
  });

  it('answers the first ones only when asked for a limit, and what it has when aborted', async () => {
    const db = await cacheWith(ID_CHUNK + 10);
    expect(await elementIdsOf(db, FILE, 3)).toEqual(['e00000', 'e00001', 'e00002']);
    const controller = new AbortController();
    const listing = elementIdsOf(db, FILE, undefined, controller.signal);
    controller.abort();
    const partial = await listing;
    expect(partial.length).toBeLessThan(ID_CHUNK + 10);
    expect(partial).toEqual(Array.from({ length: partial.length }, (_, index) => `e${String(index).padStart(5, '0')}`));
  });

  it('answers nothing for a file without elements', async () => {
    const db = await cacheWith(0);
    expect(await elementIdsOf(db, FILE)).toEqual([]);
  });
});

describe('elementsByIds', () => {
  const idsOf = (rows: readonly (ElementRow | undefined)[]): (string | undefined)[] => rows.map((row) => row?.id);

  it('reads a run of the file in key order as one range, in the order asked', async () => {
    const db = await cacheWith(50);
    const run = ['e00010', 'e00011', 'e00012', 'e00013'];
    expect(idsOf(await elementsByIds(db, FILE, run, true))).toEqual(run);
    expect(idsOf(await elementsByIds(db, FILE, ['e00013', 'e00002'], false))).toEqual(['e00013', 'e00002']);
  });

  it('still answers every row when the view is older than the cache: an element gone, one added in between', async () => {
    const db = await cacheWith(50);
    await db.elements.delete([FILE, 'e00011']);
    await db.elements.put({ buildingFileId: FILE, id: 'e00010a' } as unknown as ElementRow);
    expect(idsOf(await elementsByIds(db, FILE, ['e00010', 'e00011', 'e00012', 'e00013'], true))).toEqual(['e00010', undefined, 'e00012', 'e00013']);
  });
});
