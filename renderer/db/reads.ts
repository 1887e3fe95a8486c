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

/** The ids of a file's elements in id order (keys only, no records read), all or the first `limit`. */
export async function elementIdsOf(db: CacheDb, fileId: string, limit?: number): Promise<string[]> {
  const [lower, upper] = fileKeyRange(fileId);
  const range = db.elements.where(':id').between(lower, upper, true, true);
  const keys = await (limit === undefined ? range : range.limit(limit)).primaryKeys();
  return keys.map(([, id]) => id);
}

/** The elements of a file with these ids, in that order (undefined where one is gone). */
export function elementsByIds(db: CacheDb, fileId: string, ids: readonly string[]): Promise<(ElementRow | undefined)[]> {
  return db.elements.bulkGet(ids.map((id): [string, string] => [fileId, id]));
}
