/**
 * The server's elements of a file, cached in blocks of `BLOCK_ROWS` rows in the order the pull received them. One
 * IndexedDB record per element caps a sync at the rate records can be written; a block costs one record for hundreds
 * of elements. Blocks are never changed once written: what the user changes lives per element in `elements` (see
 * `ElementRow`), which wins over the blocks when read. A pull writes a new generation of blocks (`BlockSet`) and shows
 * it in one transaction when its last page arrived.
 */
import { Dexie, type IndexableType } from 'dexie';
import type { BuildingFileElementResponse } from '../../shared/api/schemas';
import type { CacheDb } from './cache-db';
import { pendingKeys } from './outbox';
import { elementKey, type BlockSet, type ElementBlockIdsRow, type ElementBlockRow, type ElementSetRow } from './schema';

/** Rows per block: a block decodes in about a millisecond, and a screenful of rows needs one or two. */
export const BLOCK_ROWS = 500;

/** The tables that hold a file's elements: the user's rows, the block sets, the blocks and their ids. */
export const ELEMENT_TABLES = ['elements', 'elementSets', 'elementBlocks', 'elementBlockIds'] as const;

/** Which block set of a file a pull writes: the shown one (a file never held completely) or a staged one. */
export type BlockTarget = 'shown' | 'staged';

/** The key range of one file's records in `elements`. */
export function fileKeyRange(fileId: string): [lower: IndexableType, upper: IndexableType] {
  return [
    [fileId, Dexie.minKey],
    [fileId, Dexie.maxKey],
  ];
}

/** The key range of one generation's records in `elementBlocks` or `elementBlockIds`. */
function blockRange(fileId: string, gen: number): [lower: IndexableType, upper: IndexableType] {
  return [
    [fileId, gen, Dexie.minKey],
    [fileId, gen, Dexie.maxKey],
  ];
}

/** The records of `rows` appended to a block set as its next blocks, and the set after them. */
export function blockRecords(
  fileId: string,
  set: BlockSet,
  rows: readonly BuildingFileElementResponse[],
): { blocks: ElementBlockRow[]; ids: ElementBlockIdsRow[]; set: BlockSet } {
  const blocks: ElementBlockRow[] = [];
  const ids: ElementBlockIdsRow[] = [];
  let { ordered, last } = set;
  for (let start = 0; start < rows.length; start += BLOCK_ROWS) {
    const seq = set.blocks + blocks.length;
    const chunk = rows.slice(start, start + BLOCK_ROWS).map((row) => ({ ...row, buildingFileId: fileId }));
    const chunkIds = chunk.map((row) => row.id);
    for (const id of chunkIds) {
      if (last !== null && id <= last) ordered = false;
      last = ordered ? id : last;
    }
    blocks.push({ buildingFileId: fileId, gen: set.gen, seq, rows: chunk });
    ids.push({ buildingFileId: fileId, gen: set.gen, seq, ids: chunkIds, last: chunkIds.reduce((max, id) => (id > max ? id : max)) });
  }
  return { blocks, ids, set: { ...set, blocks: set.blocks + blocks.length, count: set.count + rows.length, ordered, last } };
}

/** A file's block sets; a file never pulled has none. */
export async function elementSetOf(db: CacheDb, fileId: string): Promise<ElementSetRow> {
  return (await db.elementSets.get(fileId)) ?? { buildingFileId: fileId, shown: null, staged: null, nextGen: 1 };
}

async function deleteBlocks(db: CacheDb, fileId: string, set: BlockSet | null): Promise<void> {
  if (set === null) return;
  const [lower, upper] = blockRange(fileId, set.gen);
  await db.elementBlocks.where(':id').between(lower, upper, true, true).delete();
  await db.elementBlockIds.where(':id').between(lower, upper, true, true).delete();
}

/** Begins an empty generation of a file's blocks for a pull of `stamp`, dropping what the target held. */
export async function startBlockSet(db: CacheDb, fileId: string, stamp: string, target: BlockTarget): Promise<void> {
  const sets = await elementSetOf(db, fileId);
  await deleteBlocks(db, fileId, sets[target]);
  const fresh: BlockSet = { gen: sets.nextGen, stamp, blocks: 0, count: 0, ordered: true, last: null };
  await db.elementSets.put({ ...sets, [target]: fresh, nextGen: sets.nextGen + 1 });
}

/** Appends a page of a file's server elements to a block set begun by `startBlockSet`. */
export async function appendBlocks(db: CacheDb, fileId: string, target: BlockTarget, rows: readonly BuildingFileElementResponse[]): Promise<void> {
  const sets = await elementSetOf(db, fileId);
  const set = sets[target];
  if (set === null) throw new Error(`The file ${fileId} has no ${target} block set to append to.`);
  const written = blockRecords(fileId, set, rows);
  await db.elementBlocks.bulkPut(written.blocks);
  await db.elementBlockIds.bulkPut(written.ids);
  await db.elementSets.put({ ...sets, [target]: written.set });
}

/** Drops a file's rows of `elements` that no outbox entry holds: the file's new blocks have the server's values. */
async function dropSettledRows(db: CacheDb, fileId: string): Promise<void> {
  const pending = await pendingKeys(db, 'elements', elementKey(fileId, ''));
  const [lower, upper] = fileKeyRange(fileId);
  const rows = db.elements.where(':id').between(lower, upper, true, true);
  await (pending.size === 0 ? rows : rows.filter((row) => !pending.has(elementKey(fileId, row.id)))).delete();
}

/**
 * Ends a pull of a file's elements: a staged set replaces the shown one, and the user's rows without outbox entries
 * go. Runs inside a transaction over ELEMENT_TABLES and `outbox`.
 */
export async function settleBlocks(db: CacheDb, fileId: string, target: BlockTarget): Promise<void> {
  const sets = await elementSetOf(db, fileId);
  if (target === 'staged' && sets.staged !== null) {
    await deleteBlocks(db, fileId, sets.shown);
    await db.elementSets.put({ ...sets, shown: sets.staged, staged: null });
  }
  await dropSettledRows(db, fileId);
}

/**
 * Removes everything a file's elements left in the cache but the user's rows with outbox entries. The file's set
 * record stays, empty, so a generation number is never given twice: what is kept in memory about one stays true.
 */
export async function removeFileElements(db: CacheDb, fileId: string): Promise<void> {
  const sets = await elementSetOf(db, fileId);
  await deleteBlocks(db, fileId, sets.shown);
  await deleteBlocks(db, fileId, sets.staged);
  if (sets.shown !== null || sets.staged !== null) await db.elementSets.put({ ...sets, shown: null, staged: null });
  await dropSettledRows(db, fileId);
}
