/**
 * The outbox entries the activity screen lists, pending and parked, each with the name of the row it changes and, for
 * a parked update that collided with the server's change, the fields changed on both sides. They are followed only
 * while a screen watches them.
 */
import type { Subscription } from 'dexie';
import { shallowRef } from 'vue';
import { assertNever } from '../../shared/api/enums';
import type { LocalizedText } from '../../shared/api/schemas';
import type { CacheDb } from '../db/cache-db';
import { outboxDetailKey, splitElementKey, type EditConflict, type OutboxEntry } from '../db/schema';
import type { SessionObserver, SyncSession } from './sync-session';

/**
 * An outbox entry, the name of the row it changes (catalogue items have one per language; null when the row has none
 * or is gone), and for a parked update that collided with the server's change, the fields changed on both sides.
 */
export interface OutboxItem {
  entry: OutboxEntry;
  label: string | LocalizedText | null;
  conflict: EditConflict | null;
}

/** How many entries of each state the activity screen lists; the counts are always complete. */
export const OUTBOX_LIST_LIMIT = 200;

async function labelOf(db: CacheDb, entry: OutboxEntry): Promise<string | LocalizedText | null> {
  switch (entry.entity) {
    case 'portfolios':
      return (await db.portfolios.get(entry.key))?.name ?? null;
    case 'buildings':
      return (await db.buildings.get(entry.key))?.name ?? null;
    case 'files':
      return (await db.files.get(entry.key))?.fileName ?? null;
    case 'elements': {
      const { fileId, elementId } = splitElementKey(entry.key);
      return (await db.elements.get([fileId, elementId]))?.name ?? elementId;
    }
    case 'materials':
    case 'materialMatches':
    case 'materialFinancialValues':
      return (await db.materials.get(entry.key))?.name ?? null;
    case 'products':
    case 'productMatches':
    case 'productChildren':
    case 'productFinancialValues':
      return (await db.products.get(entry.key))?.name ?? null;
    default:
      return assertNever(entry.entity, 'outbox entity');
  }
}

/** The entries with their rows' names and, for parked ones, their conflicts. */
async function itemsOf(db: CacheDb, entries: OutboxEntry[]): Promise<OutboxItem[]> {
  const parked = entries.filter((entry) => entry.state === 'parked');
  const details = await db.syncState.bulkGet(parked.map((entry) => outboxDetailKey(entry.seq)));
  const conflicts = new Map<number, EditConflict>();
  for (const detail of details) {
    if (detail?.kind === 'outbox-detail' && detail.conflict !== null) conflicts.set(detail.seq, detail.conflict);
  }
  return Promise.all(
    entries.map(async (entry) => ({ entry, label: await labelOf(db, entry), conflict: conflicts.get(entry.seq) ?? null })),
  );
}

/**
 * The pending and parked entries of the current session in `pendingItems` and `parkedItems`, followed while at least
 * one screen watches them.
 */
export function useOutboxEntryLists(current: () => SyncSession | undefined, observe: SessionObserver) {
  const pendingItems = shallowRef<OutboxItem[]>([]);
  const parkedItems = shallowRef<OutboxItem[]>([]);
  let watchers = 0;
  let subscriptions: Subscription[] = [];

  function subscribe(target: SyncSession): void {
    subscriptions = [
      observe(
        target,
        async () => itemsOf(target.db, await target.db.outbox.where('state').equals('pending').limit(OUTBOX_LIST_LIMIT).toArray()),
        (items) => {
          pendingItems.value = items;
        },
      ),
      observe(
        target,
        async () => itemsOf(target.db, await target.db.outbox.where('state').equals('parked').limit(OUTBOX_LIST_LIMIT).toArray()),
        (items) => {
          parkedItems.value = items;
        },
      ),
    ];
  }

  /** Stops following the entries and empties the lists (the session ended). */
  function unsubscribe(): void {
    for (const subscription of subscriptions) subscription.unsubscribe();
    subscriptions = [];
    pendingItems.value = [];
    parkedItems.value = [];
  }

  /** Follows a new session's entries if a screen watches them. */
  function follow(target: SyncSession): void {
    if (watchers > 0) subscribe(target);
  }

  /**
   * Lists the pending and parked entries (with their rows' names) in `pendingItems` and `parkedItems` until the
   * returned function is called; screens that show them call it while they are mounted.
   */
  function watchEntries(): () => void {
    watchers += 1;
    const session = current();
    if (watchers === 1 && session !== undefined) subscribe(session);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      watchers -= 1;
      if (watchers === 0) unsubscribe();
    };
  }

  return { pendingItems, parkedItems, follow, unsubscribe, watchEntries };
}
