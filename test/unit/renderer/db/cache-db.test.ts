import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CacheDb, cacheDbName } from '../../../../renderer/db/cache-db';
import { hasPendingEntries, pendingKeys } from '../../../../renderer/db/outbox';
import { elementKey, splitElementKey, type OutboxEntry } from '../../../../renderer/db/schema';
import { readElementCursor, readPullState, recordPullEnd, recordPullProgress, recordPullStart } from '../../../../renderer/db/sync-state';

const FILE = '11111111-1111-4111-8111-111111111111';

let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

function open(factory = new IDBFactory(), connectionId = 'conn-1'): CacheDb {
  const db = new CacheDb(connectionId, { indexedDB: factory, IDBKeyRange });
  opened.push(db);
  return db;
}

function entry(fields: Partial<OutboxEntry> & Pick<OutboxEntry, 'entity' | 'key' | 'aggregate'>): Omit<OutboxEntry, 'seq'> {
  return {
    opId: crypto.randomUUID(),
    op: 'update',
    fields: { name: 'x' },
    createdAt: '2025-01-01T00:00:00.000Z',
    attempts: 0,
    lastError: null,
    state: 'pending',
    ...fields,
  };
}

/** Opens the database with plain IndexedDB, as the end-to-end tests read it. */
function rawOpen(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
}

describe('the cache database', () => {
  it('is named after its connection and keeps one element record per element, its API id readable', async () => {
    const factory = new IDBFactory();
    const db = open(factory, 'abc');
    expect(db.name).toBe('circularity-desk:abc');
    expect(cacheDbName('abc')).toBe('circularity-desk:abc');
    const element = { id: 'wall-1', buildingFileId: FILE, name: 'Wall' };
    await db.elements.put(element as never);
    db.close();

    const raw = await rawOpen(factory, 'circularity-desk:abc');
    expect([...raw.objectStoreNames]).toContain('elements');
    const store = raw.transaction('elements').objectStore('elements');
    expect(store.keyPath).toEqual(['buildingFileId', 'id']);
    const records = await new Promise<unknown[]>((resolve) => {
      const request = store.getAll();
      request.onsuccess = () => resolve(request.result as unknown[]);
    });
    expect(records).toEqual([element]);
    raw.close();
  });

  it('keeps the data of each connection apart', async () => {
    const factory = new IDBFactory();
    await open(factory, 'one').portfolios.put({ id: 'p', name: 'One' } as never);
    expect(await open(factory, 'two').portfolios.count()).toBe(0);
    expect(await open(factory, 'one').portfolios.count()).toBe(1);
  });
});

describe('the outbox', () => {
  it('numbers entries in order and finds them by row, by aggregate in order, and by state', async () => {
    const db = open();
    await db.outbox.add(entry({ entity: 'elements', key: elementKey(FILE, 'b'), aggregate: `file:${FILE}` }));
    await db.outbox.add(entry({ entity: 'buildings', key: 'bld', aggregate: 'building:bld', state: 'parked' }));
    await db.outbox.add(entry({ entity: 'elements', key: elementKey(FILE, 'a'), aggregate: `file:${FILE}` }));

    const ofFile = await db.outbox.where('aggregate').equals(`file:${FILE}`).toArray();
    expect(ofFile.map((each) => each.seq)).toEqual([1, 3]);
    const inOrder = await db.outbox.where('[aggregate+seq]').between([`file:${FILE}`, 0], [`file:${FILE}`, Infinity]).toArray();
    expect(inOrder.map((each) => splitElementKey(each.key).elementId)).toEqual(['b', 'a']);
    expect((await db.outbox.where('state').equals('parked').toArray()).map((each) => each.key)).toEqual(['bld']);

    expect(await hasPendingEntries(db, 'buildings', 'bld')).toBe(true);
    expect(await hasPendingEntries(db, 'buildings', 'other')).toBe(false);
    expect(await hasPendingEntries(db, 'portfolios', 'bld')).toBe(false);
    expect(await pendingKeys(db, 'elements', elementKey(FILE, ''))).toEqual(new Set([elementKey(FILE, 'a'), elementKey(FILE, 'b')]));
    expect(await pendingKeys(db, 'elements', elementKey('22222222-2222-4222-8222-222222222222', ''))).toEqual(new Set());
  });

  it('refuses two entries with the same operation id', async () => {
    const db = open();
    const first = entry({ entity: 'portfolios', key: 'p', aggregate: 'portfolio:p' });
    await db.outbox.add(first);
    await expect(db.outbox.add({ ...first })).rejects.toThrow();
  });

  it('splits an element key at its first slash, so element ids may hold slashes', () => {
    expect(splitElementKey(elementKey(FILE, 'a/b/c'))).toEqual({ fileId: FILE, elementId: 'a/b/c' });
  });
});

describe('the sync state', () => {
  it('records attempts, progress, the last error and the last success', async () => {
    const db = open();
    expect(await readPullState(db)).toMatchObject({ lastAttemptAt: null, lastSuccessAt: null, lastError: null });
    await recordPullStart(db, '2025-01-01T00:00:00.000Z');
    await recordPullProgress(db, { phase: 'lists', collection: 'buildings' });
    expect(await readPullState(db)).toMatchObject({ lastAttemptAt: '2025-01-01T00:00:00.000Z', progress: { phase: 'lists' } });

    const issue = { at: '2025-01-01T00:00:01.000Z', where: 'listMaterials', failure: { kind: 'invalid-answer' as const, message: 'no' } };
    await recordPullEnd(db, { at: '2025-01-01T00:00:02.000Z', stoppedBy: null, issues: [issue], keptMissing: [] });
    expect(await readPullState(db)).toMatchObject({ lastSuccessAt: null, lastError: issue, issues: [issue], progress: null });

    await recordPullEnd(db, { at: '2025-01-01T00:00:03.000Z', stoppedBy: null, issues: [], keptMissing: [] });
    expect(await readPullState(db)).toMatchObject({ lastSuccessAt: '2025-01-01T00:00:03.000Z', lastError: null, issues: [] });
    expect(await readElementCursor(db, FILE)).toBeUndefined();
  });
});
