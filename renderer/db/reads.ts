/**
 * Reads of a file's elements for screens and stores, meant to run inside `liveQuery`: the server's rows from the
 * file's shown blocks, with the user's rows of `elements` over them (an edited row in place of the server's, a deleted
 * one left out, a created one after the server's). Nothing loads a whole file at once, let alone a whole building.
 */
export { ID_BLOCKS, elementsByIds } from './block-index';
import { nextTask } from '../next-task';
import { blockIndex, inBlocks, keepIndex, keptIndex, listBlockIds, shownSet, userRowsOf } from './block-index';
import type { CacheDb } from './cache-db';
import { PackedIds, PackedIdsBuilder } from './packed-ids';
import type { ElementRow } from './schema';

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

/**
 * The ids of a file's elements in block order (elements created here last): the first `limit`, or all of them, a
 * step at a time with the event loop free between steps, so the rows a screen reads meanwhile are not held up behind
 * one large answer. Answers what it has when `signal` aborts. Without rows of the user's that the blocks hold, the
 * list is the file's index itself (kept for the next read), not a copy.
 */
export async function elementIdsOf(db: CacheDb, fileId: string, limit = Number.POSITIVE_INFINITY, signal?: AbortSignal): Promise<PackedIds> {
  const [set, own] = await Promise.all([shownSet(db, fileId), userRowsOf(db, fileId)]);
  const kept = set === null ? undefined : keptIndex(db, fileId, set);
  const listing = set === null || kept !== undefined ? null : await listBlockIds(db, fileId, set, limit, signal);
  const served = kept?.ids ?? listing?.index.ids ?? PackedIds.EMPTY;
  if (set !== null && listing?.complete === true && limit === Number.POSITIVE_INFINITY) keepIndex(db, fileId, listing.index);
  const complete = set === null || kept !== undefined || listing?.complete === true;
  const seen = new Set<string>();
  const dropped: number[] = [];
  for (const row of own.values()) {
    const position = served.indexOf(row.id);
    if (position < 0) continue;
    seen.add(row.id);
    if (row.removed === true) dropped.push(position);
  }
  const created = complete ? createdRows(own, seen) : [];
  if (dropped.length === 0 && created.length === 0 && served.length <= limit) return served;
  const ids = new PackedIdsBuilder();
  let from = 0;
  for (const position of dropped.sort((a, b) => a - b)) {
    ids.addRun(served, from, position);
    from = position + 1;
  }
  ids.addRun(served, from, served.length);
  for (const row of created) ids.add(row.id);
  const all = ids.build();
  if (all.length <= limit) return all;
  const head = new PackedIdsBuilder();
  head.addRun(all, 0, limit);
  return head.build();
}
