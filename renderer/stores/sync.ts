/**
 * Sync of the active connection: opens its cache, runs the scheduler (a cycle is push, then pull), and keeps what the
 * screens show about it: the pending and parked changes (live queries of the outbox), the pull's record, how the last
 * cycle went, whether the network is up, and where a long pull is. A drop folder's file reaching the server starts a
 * cycle at once. Switching the connection stops everything of the old one (its running cycle stops before its next
 * request) and starts over with the new one's cache.
 *
 * Screens change the outbox only through the actions here, which call `renderer/db/`.
 */
import { defineStore } from 'pinia';
import { inject, onScopeDispose, ref, shallowRef, watch, type InjectionKey } from 'vue';
import { useBridge, useBridgeLink } from '../bridge';
import type { CacheDb } from '../db/cache-db';
import { inThreadCycleRunner, type CycleRunner } from '../sync/cycle-runner';
import { startSyncScheduler } from '../sync/scheduler';
import { useConnectionsStore } from './connections';
import { followDropFolderArrivals } from './dropfolder-arrivals';
import { useCycleReports } from './sync-cycle-reports';
import { useOutboxEntryLists } from './sync-outbox-items';
import { focusOnly, locks } from './sync-page';
import { settleParkedEntry, type ParkedAction } from './sync-parked';
import { useSyncRecords } from './sync-records';
import { endSyncSession, newSyncSession, sessionObserver, type SyncSession } from './sync-session';
import { useSyncStatus } from './sync-status';

export { OUTBOX_LIST_LIMIT, type OutboxItem } from './sync-outbox-items';
export type { ParkedAction } from './sync-parked';
export type { SyncStatus } from './sync-status';

/** Where the app runs its sync cycles (the sync worker); without it they run in the window. */
export const CYCLE_RUNNER_KEY: InjectionKey<CycleRunner> = Symbol('cycle runner');

/** Sync of the active connection and what the screens show of it. */
export const useSyncStore = defineStore('sync', () => {
  const bridge = useBridge();
  const link = useBridgeLink();
  const connections = useConnectionsStore();
  const runCycle = inject(CYCLE_RUNNER_KEY, inThreadCycleRunner);

  const connectionId = ref<string | null>(null);
  const db = shallowRef<CacheDb | null>(null);
  const running = ref(false);
  const online = ref(true);

  let session: SyncSession | undefined;
  const current = (): SyncSession | undefined => session;
  const observe = sessionObserver(current);
  const cycles = useCycleReports(runCycle, current);
  const { phase, progress, pushProgress, lastCycle, answered } = cycles;
  const records = useSyncRecords(observe);
  const { pendingCount, parkedCount, pullState, pushState } = records;
  const entries = useOutboxEntryLists(current, observe);
  const { pendingItems, parkedItems, watchEntries } = entries;
  const { lastSyncAt, lastAttemptAt, lastError, unreachable, notAnswering, status } = useSyncStatus({
    running,
    online,
    answered,
    parkedCount,
    pullState,
    pushState,
    lastCycle,
  });

  function close(): void {
    const ending = session;
    if (ending === undefined) return;
    session = undefined;
    entries.unsubscribe();
    endSyncSession(ending);
  }

  function reset(): void {
    connectionId.value = null;
    db.value = null;
    running.value = false;
    cycles.reset();
    records.reset();
  }

  /** Syncs the given connection from now on (null: none); the same one again changes nothing. */
  function open(id: string | null): void {
    if (session?.connectionId === id || (session === undefined && id === null)) return;
    close();
    reset();
    if (id === null) return;
    const target = newSyncSession(bridge, id);
    session = target;
    connectionId.value = id;
    db.value = target.db;
    target.subscriptions = records.follow(target);
    entries.follow(target);
    // The Local workspace's server runs on this machine: the network going down does not stop its sync.
    const local = connections.connections.find((connection) => connection.id === id)?.kind === 'local';
    const isOnline = local ? () => true : () => navigator.onLine;
    online.value = isOnline();
    target.scheduler = startSyncScheduler({
      connectionId: id,
      cycle: () => cycles.cycle(target),
      locks,
      events: local ? focusOnly : window,
      isOnline,
      onChange: (state) => {
        if (session !== target) return;
        running.value = state.running;
        online.value = state.online;
      },
    });
  }

  /** Runs a cycle now (after the running one, if any); resolves when it ended. */
  async function syncNow(): Promise<void> {
    await session?.scheduler?.requestSync('user');
  }

  /** Tells the scheduler that the user changed something, so a cycle follows shortly. */
  function notifyEdit(): void {
    session?.scheduler?.notifyEdit();
  }

  /** Acts on a parked entry of the active connection's outbox, then lets a cycle send what is now pending. */
  async function settleParked(seq: number, action: ParkedAction): Promise<void> {
    const target = session;
    if (target === undefined) throw new Error('No connection is open.');
    await settleParkedEntry(target.db, seq, action);
    if (session === target) void target.scheduler?.requestSync('user');
  }

  watch(() => connections.activeId, open, { immediate: true });
  // The store ends with its app (or a test's `$dispose`): nothing of the connection may run on.
  onScopeDispose(close);

  // A drop folder's file on the server leaves the cache behind: sync at once, not a minute later.
  onScopeDispose(followDropFolderArrivals(bridge, () => void session?.scheduler?.requestSync('host')));

  // Calls made while the link to the host was down failed; sync again once it is back.
  watch(link, (state, before) => {
    if (state === 'open' && before === 'disconnected') void session?.scheduler?.requestSync('online');
  });

  return {
    connectionId,
    db,
    running,
    online,
    phase,
    progress,
    pushProgress,
    pendingCount,
    parkedCount,
    pullState,
    pushState,
    lastCycle,
    pendingItems,
    parkedItems,
    lastSyncAt,
    lastAttemptAt,
    lastError,
    unreachable,
    notAnswering,
    status,
    syncNow,
    notifyEdit,
    watchEntries,
    settleParked,
  };
});
