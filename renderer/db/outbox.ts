/**
 * What the outbox says about rows: whether a row has local changes that the server has not acknowledged. Entries of
 * both states count (a parked change is still the user's), so the pull never overwrites or deletes such a row.
 * Also the reads of the push (aggregates in order) and of screens (the conflict a parked entry waits on).
 * Called inside a transaction, these read in that transaction (Dexie binds calls to the running one).
 */
import { Dexie } from 'dexie';
import type { CacheDb } from './cache-db';
import { outboxDetailKey, type EditConflict, type OutboxEntity, type OutboxEntry, type OutboxState } from './schema';

/** Whether a row has outbox entries (pending or parked). */
export async function hasPendingEntries(db: CacheDb, table: OutboxEntity, key: string): Promise<boolean> {
  return (await db.outbox.where('[entity+key]').equals([table, key]).count()) > 0;
}

/**
 * The keys of a table's rows that have outbox entries, optionally only those starting with `prefix` (one file's
 * elements: `elementKey(fileId, '')`). One read for a whole list or page instead of one per row.
 */
export async function pendingKeys(db: CacheDb, table: OutboxEntity, prefix = ''): Promise<Set<string>> {
  // Keys are compared by UTF-16 code unit, so every key with the prefix sorts between it and it + U+FFFF.
  const keys = await db.outbox
    .where('[entity+key]')
    .between([table, prefix], [table, `${prefix}\uffff`], true, true)
    .keys();
  // An index key of `[entity+key]` is that pair.
  return new Set(keys.map((compound) => (compound as unknown as [OutboxEntity, string])[1]));
}

/** The problem type of an entry parked because the server changed a field the user changed too. */
export const EDIT_CONFLICT_PROBLEM_TYPE = 'urn:circularity-desk:edit-conflict';

/** Whether an entry is parked as an edit conflict (its fields are described by `readConflict`). */
export function isEditConflict(entry: OutboxEntry): boolean {
  return entry.state === 'parked' && entry.lastError?.failure.kind === 'problem' && entry.lastError.failure.problem.type === EDIT_CONFLICT_PROBLEM_TYPE;
}

/** The conflict a parked entry waits on: each field with its base, the user's and the server's value; null if none. */
export async function readConflict(db: CacheDb, seq: number): Promise<EditConflict | null> {
  const row = await db.syncState.get(outboxDetailKey(seq));
  return row?.kind === 'outbox-detail' ? row.conflict : null;
}

/** The aggregates whose first entry is pending (not waiting behind a parked one), in the order of their first entry. */
export async function pendingAggregates(db: CacheDb): Promise<string[]> {
  const first = new Map<string, OutboxState>();
  await db.outbox.orderBy('seq').each((entry) => {
    if (!first.has(entry.aggregate)) first.set(entry.aggregate, entry.state);
  });
  return [...first].filter(([, state]) => state === 'pending').map(([aggregate]) => aggregate);
}

/** The entries of an aggregate in order. */
export function aggregateEntries(db: CacheDb, aggregate: string): Promise<OutboxEntry[]> {
  return db.outbox.where('[aggregate+seq]').between([aggregate, Dexie.minKey], [aggregate, Dexie.maxKey], true, true).toArray();
}
