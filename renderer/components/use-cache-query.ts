/**
 * A live query of the active connection's cache as a ref: it runs again whenever what it read changes (a pull, an
 * edit, the sync worker's writes) and whenever its `source` or the active connection changes. Screens read the cache
 * through this; they never write it.
 */
import { liveQuery, type Subscription } from 'dexie';
import { onScopeDispose, readonly, shallowRef, watch, type Ref } from 'vue';
import type { CacheDb } from '../db/cache-db';
import { useSyncStore } from '../stores/sync';

/** The query's latest answer (`initial` until the first one) and whether it has answered for the current source. */
export interface CacheQuery<T> {
  value: Readonly<Ref<T>>;
  loaded: Readonly<Ref<boolean>>;
}

/** Follows `query(db, source())` on the active connection's cache. */
export function useCacheQuery<T, S>(source: () => S, query: (db: CacheDb, source: S) => Promise<T>, initial: T): CacheQuery<T> {
  const sync = useSyncStore();
  const value = shallowRef<T>(initial);
  const loaded = shallowRef(false);
  let subscription: Subscription | undefined;

  function follow([db, current]: [CacheDb | null, S]): void {
    subscription?.unsubscribe();
    subscription = undefined;
    loaded.value = false;
    if (db === null) {
      value.value = initial;
      return;
    }
    subscription = liveQuery(() => query(db, current)).subscribe({
      next: (answer) => {
        value.value = answer;
        loaded.value = true;
      },
      error: (error: unknown) => {
        console.error('A screen could not read the cache.', error);
      },
    });
  }

  watch(() => [sync.db, source()] as [CacheDb | null, S], follow, { immediate: true });
  onScopeDispose(() => subscription?.unsubscribe());
  return { value: readonly(value) as Readonly<Ref<T>>, loaded: readonly(loaded) };
}
