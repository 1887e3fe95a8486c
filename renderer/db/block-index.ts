/**
 * Finding elements in a file's blocks: which block holds an id, and a file's rows by id with the user's rows of
 * `elements` over the server's. A block never changes once written, so what is learnt about a generation (its ids in
 * order) is kept in memory for the files read last, valid while that generation is shown with as many blocks: a pull
 * into the shown set of a file never held completely appends blocks to it.
 */
import { Dexie } from 'dexie';
import type { BuildingFileElementResponse } from '../../shared/api/schemas';
import type { CacheDb } from './cache-db';
import { nextTask } from '../next-task';
import { fileKeyRange } from './element-blocks';
import { PackedIdsBuilder, type PackedIds } from './packed-ids';
import type { BlockSet, ElementBlockIdsRow, ElementRow } from './schema';

/** A shown generation's ids in order, packed, with where each block starts in them. */
export interface BlockIndex {
  gen: number;
  ids: PackedIds;
  /** `starts[seq]`: the position of block `seq`'s first id in `ids`. */
  starts: number[];
}

/** Files per cache whose index stays in memory: the open file and the few before it. */
const KEPT_INDEXES = 4;

/** Decoded blocks per cache kept in memory: a screenful of rows is a tenth of a block, so scrolling reads each once. */
const KEPT_BLOCKS = 24;

/** Id records per step of listing a file's ids: decoding one step is a short task, whatever the file's size. */
export const ID_BLOCKS = 10;

const indexes = new WeakMap<CacheDb, Map<string, BlockIndex>>();
const decoded = new WeakMap<CacheDb, Map<string, readonly BuildingFileElementResponse[]>>();

/** The block set screens read for a file, or null when none was pulled yet. */
export async function shownSet(db: CacheDb, fileId: string): Promise<BlockSet | null> {
  return (await db.elementSets.get(fileId))?.shown ?? null;
}

/** The user's rows of a file, by element id (deleted ones included, as tombstones). */
export async function userRowsOf(db: CacheDb, fileId: string): Promise<Map<string, ElementRow>> {
  const [lower, upper] = fileKeyRange(fileId);
  const rows = await db.elements.where(':id').between(lower, upper, true, true).toArray();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The index of a set already in memory, if any. */
export function keptIndex(db: CacheDb, fileId: string, set: BlockSet): BlockIndex | undefined {
  const index = indexes.get(db)?.get(fileId);
  // The shown set of a file never held completely grows while a pull appends to it: an index of fewer blocks is stale.
  return index?.gen === set.gen && index.starts.length === set.blocks ? index : undefined;
}

/** Keeps an index in memory, forgetting the least recently kept file's beyond `KEPT_INDEXES`. */
export function keepIndex(db: CacheDb, fileId: string, index: BlockIndex): BlockIndex {
  const kept = indexes.get(db) ?? new Map<string, BlockIndex>();
  indexes.set(db, kept);
  kept.delete(fileId);
  kept.set(fileId, index);
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_INDEXES) break;
    kept.delete(oldest);
  }
  return index;
}

/**
 * A set's ids in block order, `ID_BLOCKS` id records per task (each record's ids are packed as it is read, so the
 * records themselves are garbage at once); stops after `limit` ids or when `signal` aborts.
 */
export async function listBlockIds(
  db: CacheDb,
  fileId: string,
  set: BlockSet,
  limit = Number.POSITIVE_INFINITY,
  signal?: AbortSignal,
): Promise<{ index: BlockIndex; complete: boolean }> {
  const ids = new PackedIdsBuilder();
  const starts: number[] = [];
  const listed = (complete: boolean) => ({ index: { gen: set.gen, ids: ids.build(), starts }, complete });
  while (ids.length < limit && starts.length < set.blocks) {
    if (signal?.aborted === true) return listed(false);
    const seqs = Array.from({ length: Math.min(ID_BLOCKS, set.blocks - starts.length) }, (_, step) => starts.length + step);
    const step = await db.elementBlockIds.bulkGet(seqs.map((seq): [string, number, number] => [fileId, set.gen, seq]));
    for (const record of step) {
      if (record === undefined) return listed(false);
      starts.push(ids.length);
      for (const id of record.ids) ids.add(id);
    }
    if (starts.length < set.blocks) await nextTask();
  }
  return listed(starts.length >= set.blocks);
}

/** The index of a file's shown set, listed from its ids records unless it is in memory. */
export async function blockIndex(db: CacheDb, fileId: string, set: BlockSet): Promise<BlockIndex> {
  const kept = keptIndex(db, fileId, set);
  if (kept !== undefined) return kept;
  const { index, complete } = await listBlockIds(db, fileId, set);
  return complete ? keepIndex(db, fileId, index) : index;
}

/** The block of a position of an index (the last block starting at or before it). */
function blockAt(index: BlockIndex, position: number): { seq: number; offset: number } {
  let low = 0;
  let high = index.starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((index.starts[middle] ?? 0) <= position) low = middle;
    else high = middle - 1;
  }
  return { seq: low, offset: position - (index.starts[low] ?? 0) };
}

/** Where ids sit in a set: block and offset, or undefined for an id the set lacks. */
async function locate(db: CacheDb, fileId: string, set: BlockSet, ids: readonly string[]): Promise<({ seq: number; offset: number } | undefined)[]> {
  const kept = keptIndex(db, fileId, set);
  if (kept === undefined && set.ordered) {
    // In key order, an id's block is the first whose greatest id is not less: one index query per block touched.
    const found: ({ seq: number; offset: number } | undefined)[] = [];
    let record: ElementBlockIdsRow | undefined;
    for (const id of ids) {
      if (record === undefined || !record.ids.includes(id)) {
        record = await db.elementBlockIds
          .where('[buildingFileId+gen+last]')
          .between([fileId, set.gen, id], [fileId, set.gen, Dexie.maxKey], true, true)
          .first();
      }
      const offset = record?.ids.indexOf(id) ?? -1;
      found.push(record === undefined || offset < 0 ? undefined : { seq: record.seq, offset });
    }
    return found;
  }
  const index = kept ?? (await blockIndex(db, fileId, set));
  return ids.map((id) => {
    const position = index.ids.indexOf(id);
    return position < 0 ? undefined : blockAt(index, position);
  });
}

/** Which of `ids` the file's shown blocks hold. */
export async function inBlocks(db: CacheDb, fileId: string, set: BlockSet, ids: readonly string[]): Promise<boolean[]> {
  return (await locate(db, fileId, set, ids)).map((place) => place !== undefined);
}

/**
 * The rows of blocks of a generation, from memory where they were decoded lately. Blocks never change and a file's
 * generation numbers are never reused, so a kept block is always the stored one.
 */
async function blocksOf(db: CacheDb, fileId: string, gen: number, seqs: readonly number[]): Promise<Map<number, readonly BuildingFileElementResponse[]>> {
  const kept = decoded.get(db) ?? new Map<string, readonly BuildingFileElementResponse[]>();
  decoded.set(db, kept);
  const keyOf = (seq: number): string => `${fileId}/${gen}/${seq}`;
  const found = new Map<number, readonly BuildingFileElementResponse[]>();
  for (const seq of seqs) {
    const rows = kept.get(keyOf(seq));
    if (rows !== undefined) found.set(seq, rows);
  }
  const missing = seqs.filter((seq) => !found.has(seq));
  const read = missing.length === 0 ? [] : await db.elementBlocks.bulkGet(missing.map((seq): [string, number, number] => [fileId, gen, seq]));
  missing.forEach((seq, index) => {
    const rows = read[index]?.rows;
    if (rows !== undefined) found.set(seq, rows);
  });
  for (const [seq, rows] of found) {
    kept.delete(keyOf(seq));
    kept.set(keyOf(seq), rows);
  }
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT_BLOCKS) break;
    kept.delete(oldest);
  }
  return found;
}

/** The server's rows of ids from a file's shown blocks, in the order asked (undefined where the blocks lack one). */
async function blockRows(db: CacheDb, fileId: string, set: BlockSet, ids: readonly string[]): Promise<(BuildingFileElementResponse | undefined)[]> {
  const places = await locate(db, fileId, set, ids);
  const seqs = [...new Set(places.flatMap((place) => (place === undefined ? [] : [place.seq])))];
  const rowsOf = await blocksOf(db, fileId, set.gen, seqs);
  return places.map((place) => (place === undefined ? undefined : rowsOf.get(place.seq)?.[place.offset]));
}

/**
 * The elements of a file with these ids, in that order: the user's row where there is one (undefined for one deleted
 * here), else the server's from the shown blocks (undefined where neither holds the id).
 */
export async function elementsByIds(db: CacheDb, fileId: string, ids: readonly string[]): Promise<(ElementRow | undefined)[]> {
  const [own, set] = await Promise.all([userRowsAmong(db, fileId, ids), shownSet(db, fileId)]);
  const rest = ids.filter((id) => !own.has(id));
  const served = set === null || rest.length === 0 ? [] : await blockRows(db, fileId, set, rest);
  const server = new Map(rest.map((id, index) => [id, served[index]]));
  return ids.map((id) => {
    const row = own.get(id);
    if (row !== undefined) return row.removed === true ? undefined : row;
    return server.get(id);
  });
}

/**
 * The user's rows of a file among `ids`. Most elements have none, so the keys between the least and the greatest id
 * are listed in one request (an IndexedDB request per id costs about a millisecond each) and only rows found are read.
 */
async function userRowsAmong(db: CacheDb, fileId: string, ids: readonly string[]): Promise<Map<string, ElementRow>> {
  let least: string | undefined;
  let greatest: string | undefined;
  for (const id of ids) {
    if (least === undefined || id < least) least = id;
    if (greatest === undefined || id > greatest) greatest = id;
  }
  if (least === undefined || greatest === undefined) return new Map();
  const wanted = new Set(ids);
  const keys = await db.elements.where(':id').between([fileId, least], [fileId, greatest], true, true).primaryKeys();
  const found = keys.filter(([, id]) => wanted.has(id));
  if (found.length === 0) return new Map();
  const rows = await db.elements.bulkGet(found);
  return new Map(rows.flatMap((row) => (row === undefined ? [] : [[row.id, row] as const])));
}
