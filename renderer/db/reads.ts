/**
 * Reads of a file's elements for screens and stores, meant to run inside `liveQuery`: the server's rows from the
 * file's shown blocks, with the user's rows of `elements` over them (an edited row in place of the server's, a deleted
 * one left out, a created one after the server's). Nothing loads a whole file at once, let alone a whole building.
 */
export { elementsByIds } from './block-index';
import { blockIndex, inBlocks, indexOf, keepIndex, keptIndex, shownSet, userRowsOf } from './block-index';
import type { CacheDb } from './cache-db';
import type { BlockSet, ElementBlockIdsRow, ElementRow } from './schema';

/** User rows of a file above which a count reads the file's index instead of asking for each row's block. */
const FEW_USER_ROWS = 64;

/** How many elements of a file the cache holds. */
export async function elementCount(db: CacheDb, fileId: string): Promise<number> {
  const [set, own] = await Promise.all([shownSet(db, fileId), userRowsOf(db, fileId)]);
  const served = set?.count ?? 0;
  if (own.size === 0) return served;
  const rows = [...own.values()];
  if (set !== null && rows.length > FEW_USER_ROWS) await blockIndex(db, fileId, set);
  const held = set === null ? rows.map(() => false) : await inBlocks(db, fileId, set, rows.map((row) => row.id));
  return rows.reduce((count, row, index) => {
    if (row.removed === true) return held[index] === true ? count - 1 : count;
    return held[index] === true ? count : count + 1;
  }, served);
}

/** Blocks per step of a scan: one step is a short task, so a scan of a large file never blocks the screen. */
export const SCAN_BLOCKS = 4;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The user's rows of a file that no block holds (created here), in id order. */
function createdRows(own: ReadonlyMap<string, ElementRow>, seen: ReadonlySet<string>): ElementRow[] {
  return [...own.values()].filter((row) => row.removed !== true && !seen.has(row.id)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Reads a file's elements in block order, `SCAN_BLOCKS` blocks at a time, handing each chunk to `visit` and yielding
 * to the event loop between chunks; elements created here come last. Stops early when `signal` aborts.
 */
export async function scanElements(db: CacheDb, fileId: string, visit: (rows: ElementRow[]) => void, signal?: AbortSignal): Promise<void> {
  const [set, own] = await Promise.all([shownSet(db, fileId), userRowsOf(db, fileId)]);
  const seen = new Set<string>();
  for (let seq = 0; set !== null && seq < set.blocks && signal?.aborted !== true; seq += SCAN_BLOCKS) {
    const keys = Array.from({ length: Math.min(SCAN_BLOCKS, set.blocks - seq) }, (_, step): [string, number, number] => [fileId, set.gen, seq + step]);
    const rows: ElementRow[] = [];
    for (const block of await db.elementBlocks.bulkGet(keys)) {
      for (const row of block?.rows ?? []) {
        const mine = own.get(row.id);
        if (mine !== undefined) seen.add(row.id);
        if (mine?.removed !== true) rows.push(mine ?? row);
      }
    }
    visit(rows);
    await nextTask();
  }
  const created = createdRows(own, seen);
  if (created.length > 0 && signal?.aborted !== true) visit(created);
}

/** Id records per step of listing a file's ids: decoding one step is a short task, whatever the file's size. */
export const ID_BLOCKS = 10;

/** The ids of a set's blocks in order, `ID_BLOCKS` records per task; stops after `limit` ids or when `signal` aborts. */
async function blockIds(db: CacheDb, fileId: string, set: BlockSet, limit: number, signal?: AbortSignal): Promise<{ records: ElementBlockIdsRow[]; complete: boolean }> {
  const records: ElementBlockIdsRow[] = [];
  let listed = 0;
  while (listed < limit && records.length < set.blocks) {
    if (signal?.aborted === true) return { records, complete: false };
    const seqs = Array.from({ length: Math.min(ID_BLOCKS, set.blocks - records.length) }, (_, step) => records.length + step);
    const step = await db.elementBlockIds.bulkGet(seqs.map((seq): [string, number, number] => [fileId, set.gen, seq]));
    for (const record of step) {
      if (record === undefined) return { records, complete: false };
      listed += record.ids.length;
      records.push(record);
    }
    if (records.length < set.blocks) await nextTask();
  }
  return { records, complete: records.length >= set.blocks };
}

/**
 * The ids of a file's elements in block order (elements created here last): the first `limit`, or all of them, a
 * step at a time with the event loop free between steps, so the rows a screen reads meanwhile are not held up behind
 * one large answer. Answers what it has when `signal` aborts.
 */
export async function elementIdsOf(db: CacheDb, fileId: string, limit = Number.POSITIVE_INFINITY, signal?: AbortSignal): Promise<string[]> {
  const [set, own] = await Promise.all([shownSet(db, fileId), userRowsOf(db, fileId)]);
  const kept = set === null ? undefined : keptIndex(db, fileId, set);
  const listing = set === null || kept !== undefined ? null : await blockIds(db, fileId, set, limit, signal);
  const served = kept?.ids ?? listing?.records.flatMap((record) => record.ids) ?? [];
  if (set !== null && listing?.complete === true && limit === Number.POSITIVE_INFINITY) keepIndex(db, fileId, indexOf(set, listing.records));
  const seen = new Set<string>();
  const ids: string[] = [];
  for (const id of served) {
    if (ids.length >= limit) return ids;
    const mine = own.get(id);
    if (mine !== undefined) seen.add(id);
    if (mine?.removed !== true) ids.push(id);
  }
  const complete = set === null || kept !== undefined || listing?.complete === true;
  if (!complete) return ids;
  return [...ids, ...createdRows(own, seen).map((row) => row.id)].slice(0, limit);
}
