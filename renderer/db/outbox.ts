/**
 * What the outbox says about rows: whether a row has local changes that the server has not acknowledged. Entries of
 * both states count (a parked change is still the user's), so the pull never overwrites or deletes such a row.
 * Called inside a transaction, these read in that transaction (Dexie binds calls to the running one).
 */
import type { CacheDb } from './cache-db';
import type { OutboxEntity } from './schema';

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
