/**
 * Reads of the cache for screens and stores, meant to run inside `liveQuery`. Elements are read a page at a time from
 * one file's key range: nothing loads a whole file, let alone a whole building.
 */
import type { IndexableType } from 'dexie';
import { fileKeyRange, type CacheDb } from './cache-db';
import type { ElementRow } from './schema';

/** How many elements of a file the cache holds. */
export function elementCount(db: CacheDb, fileId: string): Promise<number> {
  const [lower, upper] = fileKeyRange(fileId);
  return db.elements.where(':id').between(lower, upper, true, true).count();
}

/** One page of a file's elements in element id order. */
export function elementPage(db: CacheDb, fileId: string, offset: number, limit: number): Promise<ElementRow[]> {
  const [lower, upper] = fileKeyRange(fileId);
  return db.elements.where(':id').between(lower, upper, true, true).offset(offset).limit(limit).toArray();
}

/** Records per step of a scan: one step is a short task, so a scan of a large file never blocks the screen. */
export const SCAN_CHUNK = 2000;

/**
 * Reads a file's elements in id order, `SCAN_CHUNK` at a time from where the last chunk ended (no offsets to walk),
 * handing each chunk to `visit` and yielding to the event loop between chunks. Stops early when `signal` aborts.
 */
export async function scanElements(
  db: CacheDb,
  fileId: string,
  visit: (rows: ElementRow[]) => void,
  signal?: AbortSignal,
): Promise<void> {
  const [lower, upper] = fileKeyRange(fileId);
  let from: IndexableType = lower;
  let inclusive = true;
  while (signal?.aborted !== true) {
    const rows = await db.elements.where(':id').between(from, upper, inclusive, true).limit(SCAN_CHUNK).toArray();
    if (rows.length === 0) return;
    visit(rows);
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < SCAN_CHUNK) return;
    from = [fileId, last.id];
    inclusive = false;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** Keys per step of listing a file's ids: decoding one step's keys is a short task, whatever the file's size. */
export const ID_CHUNK = 5000;

/**
 * The ids of a file's elements in id order (keys only, no records read): the first `limit`, or all of them
 * `ID_CHUNK` at a time with the event loop free between steps, so the rows a screen reads meanwhile are not held up
 * behind one large answer. Answers what it has when `signal` aborts.
 */
export async function elementIdsOf(db: CacheDb, fileId: string, limit?: number, signal?: AbortSignal): Promise<string[]> {
  const [lower, upper] = fileKeyRange(fileId);
  if (limit !== undefined) {
    const keys = await db.elements.where(':id').between(lower, upper, true, true).limit(limit).primaryKeys();
    return keys.map(([, id]) => id);
  }
  const ids: string[] = [];
  let from: IndexableType = lower;
  let inclusive = true;
  while (signal?.aborted !== true) {
    const keys = await db.elements.where(':id').between(from, upper, inclusive, true).limit(ID_CHUNK).primaryKeys();
    for (const [, id] of keys) ids.push(id);
    const last = keys[keys.length - 1];
    if (last === undefined || keys.length < ID_CHUNK) break;
    from = last;
    inclusive = false;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return ids;
}

/**
 * The elements of a file with these ids, in that order (undefined where one is gone). Ids that are a run of the
 * file's ids in key order (`keyOrdered`: a slice of the unfiltered, unsorted view) are read as one range, one request
 * instead of one per id; ids the range missed (a view older than the cache) are then read one by one.
 */
export async function elementsByIds(db: CacheDb, fileId: string, ids: readonly string[], keyOrdered = false): Promise<(ElementRow | undefined)[]> {
  const first = ids[0];
  const last = ids[ids.length - 1];
  if (!keyOrdered || first === undefined || last === undefined || ids.length < 2) {
    return db.elements.bulkGet(ids.map((id): [string, string] => [fileId, id]));
  }
  const rows = await db.elements.where(':id').between([fileId, first], [fileId, last], true, true).limit(ids.length).toArray();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    for (const row of await db.elements.bulkGet(missing.map((id): [string, string] => [fileId, id]))) {
      if (row !== undefined) byId.set(row.id, row);
    }
  }
  return ids.map((id) => byId.get(id));
}
