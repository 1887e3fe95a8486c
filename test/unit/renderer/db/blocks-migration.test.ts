import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildingFileElementResponse } from '../../../../shared/api/schemas';
import { CacheDb, cacheDbName, VERSION_1_STORES, VERSION_2_STORES } from '../../../../renderer/db/cache-db';
import { BLOCK_ROWS } from '../../../../renderer/db/element-blocks';
import { elementCount, elementIdsOf, elementsByIds } from '../../../../renderer/db/reads';
import { elementCursorKey, elementKey, type OutboxEntry } from '../../../../renderer/db/schema';

const HELD = '11111111-1111-4111-8111-111111111111';
const PARTIAL = '22222222-2222-4222-8222-222222222222';

let opened: Dexie[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

/** The cache as schema version 2 made it: one record per element, and a staging table. */
function versionTwo(factory: IDBFactory): Dexie {
  const db = new Dexie(cacheDbName('conn'), { indexedDB: factory, IDBKeyRange });
  opened.push(db);
  db.version(1).stores(VERSION_1_STORES);
  db.version(2).stores(VERSION_2_STORES);
  return db;
}

function element(fileId: string, index: number, name = `element ${index}`): BuildingFileElementResponse {
  return { buildingFileId: fileId, id: `e${String(index).padStart(5, '0')}`, name } as BuildingFileElementResponse;
}

function entry(key: string, op: OutboxEntry['op']): Omit<OutboxEntry, 'seq'> {
  return {
    opId: crypto.randomUUID(),
    entity: 'elements',
    key,
    op,
    fields: op === 'update' ? { name: 'mine' } : null,
    createdAt: '2025-01-01T00:00:00.000Z',
    attempts: 0,
    lastError: null,
    state: 'pending',
    aggregate: `file:${HELD}`,
  };
}

describe('moving a version 2 cache into blocks', () => {
  it("puts every held element into blocks, keeps the outbox's rows and entries, and pulls an unfinished file again", async () => {
    const factory = new IDBFactory();
    const old = versionTwo(factory);
    const count = 2 * BLOCK_ROWS + 17;
    const held = Array.from({ length: count }, (_, index) => element(HELD, index));
    const edited = held[7];
    if (edited === undefined) throw new Error('no element 7');
    const created = { buildingFileId: HELD, id: 'created-here', name: 'new' };
    await old.table('files').bulkPut([
      { id: HELD, buildingId: 'b', elementsStamp: 's1' },
      { id: PARTIAL, buildingId: 'b', elementsStamp: null },
    ]);
    await old.table('elements').bulkPut([...held, { ...edited, name: 'mine', base: edited }, created, element(PARTIAL, 1), element(PARTIAL, 2)]);
    await old.table('elementStaging').put(element(HELD, 99_999));
    await old.table('outbox').bulkAdd([entry(elementKey(HELD, edited.id), 'update'), entry(elementKey(HELD, 'created-here'), 'create')]);
    await old.table('syncState').bulkPut([
      { key: elementCursorKey(PARTIAL), kind: 'element-cursor', fileId: PARTIAL, nextSkip: 2 },
      { key: 'pull', kind: 'pull', lastAttemptAt: null },
    ]);
    old.close();

    const db = new CacheDb('conn', { indexedDB: factory, IDBKeyRange });
    opened.push(db);

    const ids = [...(await elementIdsOf(db, HELD))];
    expect(ids).toEqual([...held.map((row) => row.id), 'created-here']);
    expect(await elementCount(db, HELD)).toBe(count + 1);
    const [mine, plain, own] = await elementsByIds(db, HELD, [edited.id, 'e00008', 'created-here']);
    expect(mine).toEqual({ ...edited, name: 'mine', base: edited });
    expect(plain).toEqual(element(HELD, 8));
    expect(own).toEqual(created);
    expect((await db.elementSets.get(HELD))?.shown).toMatchObject({ stamp: 's1', count, blocks: 3 });
    expect(await db.elements.count()).toBe(2);
    expect(await db.outbox.count()).toBe(2);

    expect([...(await elementIdsOf(db, PARTIAL))]).toEqual([]);
    expect(await db.syncState.get(elementCursorKey(PARTIAL))).toBeUndefined();
    expect(await db.syncState.get('pull')).toBeDefined();
    expect(db.tables.map((table) => table.name)).not.toContain('elementStaging');
  });
});
