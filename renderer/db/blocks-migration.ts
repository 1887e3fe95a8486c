/**
 * The move of a cache of schema version 2 (one record per element) into blocks, run by Dexie inside the upgrade's
 * transaction. Nothing the user changed is lost: an element with outbox entries keeps its row, and its `base` (the
 * server's values) goes into the blocks like every other element of a file held completely. Elements of a file whose
 * pull had not ended are dropped with its cursor and pulled again, as a fresh pull would.
 */
import type { Collection, Table, Transaction } from 'dexie';
import type { BuildingFileElementResponse } from '../../shared/api/schemas';
import { BLOCK_ROWS, blockRecords, fileKeyRange } from './element-blocks';
import {
  elementKey,
  serverFieldsOf,
  type BlockSet,
  type ElementBlockIdsRow,
  type ElementBlockRow,
  type ElementRow,
  type ElementSetRow,
  type FileRow,
  type OutboxEntry,
  type SyncStateRow,
} from './schema';

/** Element records read per step: the upgrade never holds a whole file in memory. */
const MIGRATION_CHUNK = 4 * BLOCK_ROWS;

interface MigrationTables {
  elements: Table<ElementRow, [string, string]>;
  blocks: Table<ElementBlockRow, [string, number, number]>;
  ids: Table<ElementBlockIdsRow, [string, number, number]>;
}

/** The server's values an element record stands for; null for an element created here and not yet sent. */
function serverRowOf(row: ElementRow, pending: ReadonlySet<string>): BuildingFileElementResponse | null {
  if (row.base !== undefined) return row.base;
  return pending.has(elementKey(row.buildingFileId, row.id)) ? null : serverFieldsOf(row);
}

/** Moves one file's element records into a first block set; answers the set. */
async function moveFile(tables: MigrationTables, file: FileRow & { elementsStamp: string }, pending: ReadonlySet<string>): Promise<BlockSet> {
  let set: BlockSet = { gen: 1, stamp: file.elementsStamp, blocks: 0, count: 0, ordered: true, last: null };
  const [lower, upper] = fileKeyRange(file.id);
  let from: [string, string] | null = null;
  for (;;) {
    const range: Collection<ElementRow, [string, string]> =
      from === null ? tables.elements.where(':id').between(lower, upper, true, true) : tables.elements.where(':id').between(from, upper, false, true);
    const chunk: ElementRow[] = await range.limit(MIGRATION_CHUNK).toArray();
    const last: ElementRow | undefined = chunk.at(-1);
    if (last === undefined) return set;
    const served = chunk.flatMap((row) => serverRowOf(row, pending) ?? []);
    const written = blockRecords(file.id, set, served);
    await tables.blocks.bulkPut(written.blocks);
    await tables.ids.bulkPut(written.ids);
    set = written.set;
    from = [file.id, last.id];
  }
}

/** Moves every cached file's elements into blocks, keeping only the element records the outbox holds. */
export async function moveElementsIntoBlocks(tx: Transaction): Promise<void> {
  const tables: MigrationTables = {
    elements: tx.table('elements'),
    blocks: tx.table('elementBlocks'),
    ids: tx.table('elementBlockIds'),
  };
  const entries = await tx.table<OutboxEntry, number>('outbox').where('[entity+key]').between(['elements', ''], ['elements', '\uffff'], true, true).toArray();
  const pending = new Set(entries.map((entry) => entry.key));
  const sets: ElementSetRow[] = [];
  for (const file of await tx.table<FileRow, string>('files').toArray()) {
    const stamp = file.elementsStamp;
    if (stamp !== null) sets.push({ buildingFileId: file.id, shown: await moveFile(tables, { ...file, elementsStamp: stamp }, pending), staged: null, nextGen: 2 });
  }
  await tx.table<ElementSetRow, string>('elementSets').bulkPut(sets);
  await tables.elements.filter((row) => !pending.has(elementKey(row.buildingFileId, row.id))).delete();
  await tx.table<SyncStateRow, string>('syncState').where('key').startsWith('elements:').delete();
}
