/**
 * The steps the edit functions and the push share inside their transactions: an entry's detail record, removing an
 * entry with it, and rebuilding a row as the server's values plus the changes of the entries still waiting.
 *
 * The invariant these keep: a row with outbox entries holds its `base` (the server's values, absent for a row the
 * server has never seen) with the changes of its update entries applied in order; a row without entries holds the
 * server's values and no base.
 */
import type { CacheDb } from './cache-db';
import { applyFields, getRow, entriesOfRow, mappingTypesOf, rowOf, type StoredRow } from './edit-shapes';
import type { EditedEntity } from './entities';
import { containsString } from './field-paths';
import { outboxDetailKey, type OutboxDetailRow, type OutboxEntry } from './schema';

/**
 * The outbox's tables: its entries, and their detail records in `syncState`. A transaction that writes a row with its
 * entries, or rebuilds one, holds these and the entity's tables (`tablesOf` of `entities.ts`).
 */
export const OUTBOX_TABLES = ['outbox', 'syncState'] as const;

/** An entry's detail record, if it has one. */
export async function readDetail(db: CacheDb, seq: number): Promise<OutboxDetailRow | undefined> {
  const row = await db.syncState.get(outboxDetailKey(seq));
  return row?.kind === 'outbox-detail' ? row : undefined;
}

/** Changes an entry's detail record (created empty when missing). */
export async function updateDetail(db: CacheDb, seq: number, change: Partial<Pick<OutboxDetailRow, 'removedRow' | 'create' | 'conflict'>>): Promise<void> {
  const before = (await readDetail(db, seq)) ?? { key: outboxDetailKey(seq), kind: 'outbox-detail', seq, removedRow: null, create: null, conflict: null };
  await db.syncState.put({ ...before, ...change });
}

/** Removes entries with their detail records. */
export async function removeEntries(db: CacheDb, seqs: readonly number[]): Promise<void> {
  await db.outbox.bulkDelete([...seqs]);
  await db.syncState.bulkDelete(seqs.map(outboxDetailKey));
}

/**
 * Rewrites a row as the server's values with the changes of its remaining entries applied (its base: the server's
 * values, kept while entries remain). A row a remaining entry deletes stays removed, and what discarding that delete
 * would put back is brought up to date; a row a remaining entry creates again is the user's own and left alone.
 */
export async function rebuildRow(db: CacheDb, entity: EditedEntity, key: string, server: unknown, at: string): Promise<void> {
  const entries = await entriesOfRow(db, entity, key);
  if (entries.some((entry) => entry.op === 'create')) return;
  const types = await mappingTypesOf(db, entries.map((entry) => entry.fields));
  let values = server;
  for (const entry of entries) {
    if (entry.op === 'delete') {
      await updateDetail(db, entry.seq, { removedRow: rowOf(entity, key, values, server, at) });
      return;
    }
    values = applyFields(entity, values, entry.fields ?? {}, types);
  }
  await db.table<StoredRow>(entity).put(rowOf(entity, key, values, entries.length > 0 ? server : undefined, at));
}

/**
 * The entries that refer to an id: by their key or fields, or, for a create, by the row it creates (a building in a
 * new portfolio, an element mapped to a new material).
 */
export async function entriesReferringTo(db: CacheDb, id: string): Promise<OutboxEntry[]> {
  const isId = (text: string): boolean => text === id;
  const found: OutboxEntry[] = [];
  await db.outbox.each((entry) => {
    if (entry.key.includes(id) || entry.aggregate.includes(id) || containsString(entry.fields, isId) || entry.op === 'create') found.push(entry);
  });
  const refers = await Promise.all(
    found.map(async (entry) => {
      if (entry.op !== 'create' || entry.key.includes(id) || entry.entity === 'files') return true;
      return containsString(await getRow(db, entry.entity, entry.key), isId);
    }),
  );
  return found.filter((_, index) => refers[index]);
}
