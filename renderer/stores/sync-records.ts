/** The outbox's counts and the push's and pull's records, live from the current session's cache. */
import type { Subscription } from 'dexie';
import { ref, shallowRef } from 'vue';
import type { PullStateRow, PushStateRow } from '../db/schema';
import { readPushState } from '../db/push-writes';
import { readPullState } from '../db/sync-state';
import type { SessionObserver, SyncSession } from './sync-session';

export function useSyncRecords(observe: SessionObserver) {
  const pendingCount = ref(0);
  const parkedCount = ref(0);
  /** The pull's record in the cache; null until read. */
  const pullState = shallowRef<PullStateRow | null>(null);
  /** The push's record in the cache; null until read. */
  const pushState = shallowRef<PushStateRow | null>(null);

  /** The live queries of a session's records; they end with the session. */
  function follow(target: SyncSession): Subscription[] {
    return [
      observe(target, () => target.db.outbox.where('state').equals('pending').count(), (count) => {
        pendingCount.value = count;
      }),
      observe(target, () => target.db.outbox.where('state').equals('parked').count(), (count) => {
        parkedCount.value = count;
      }),
      observe(target, () => readPullState(target.db), (state) => {
        pullState.value = state;
      }),
      observe(target, () => readPushState(target.db), (state) => {
        pushState.value = state;
      }),
    ];
  }

  function reset(): void {
    pendingCount.value = 0;
    parkedCount.value = 0;
    pullState.value = null;
    pushState.value = null;
  }

  return { pendingCount, parkedCount, pullState, pushState, follow, reset };
}
