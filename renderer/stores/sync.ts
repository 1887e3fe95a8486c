/**
 * Sync of the active connection: opens its cache, runs the scheduler (a cycle is push, then pull), and keeps what the
 * screens show about it: the pending and parked changes (live queries of the outbox), the pull's record, how the last
 * cycle went, whether the network is up, and where a long pull is. A drop folder's file reaching the server starts a
 * cycle at once. Switching the connection stops everything of the old one (its running cycle stops before its next
 * request) and starts over with the new one's cache.
 *
 * Screens change the outbox only through the actions here, which call `renderer/db/`.
 */
import { liveQuery, type Subscription } from 'dexie';
import { defineStore } from 'pinia';
import { computed, inject, onScopeDispose, ref, shallowRef, watch, type InjectionKey } from 'vue';
import { assertNever } from '../../shared/api/enums';
import type { LocalizedText } from '../../shared/api/schemas';
import { useBridge, useBridgeLink } from '../bridge';
import { CacheDb } from '../db/cache-db';
import { discardParked, resolveConflict, retryParked } from '../db/edits';
import {
  outboxDetailKey,
  splitElementKey,
  type EditConflict,
  type OutboxEntry,
  type PullProgress,
  type PullStateRow,
  type PushProgress,
  type PushStateRow,
  type SyncIssue,
} from '../db/schema';
import { readPushState } from '../db/push-writes';
import { readPullState } from '../db/sync-state';
import { isUnreachable } from '../api/failure';
import { bridgeApiPort, type ApiPort } from '../api/port';
import { inThreadCycleRunner, type CycleRunner } from '../sync/cycle-runner';
import type { SyncCycleReport, SyncPhase } from '../sync/cycle';
import {
  startSyncScheduler,
  type SyncCycleOutcome,
  type SyncEventSource,
  type SyncLocks,
  type SyncScheduler,
} from '../sync/scheduler';
import { useConnectionsStore } from './connections';
import { followDropFolderArrivals } from './dropfolder-arrivals';

/**
 * What the sync indicator shows, most urgent first: a cycle runs, no network (the window says so, or the last cycle
 * got no answer from the server), the server refused the last cycle, changes were refused, all is well.
 */
export type SyncStatus = 'syncing' | 'offline' | 'error' | 'attention' | 'synced';

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

/** Where a parked entry goes: back to the outbox, or away with the server's values restored. */
export type ParkedAction = 'retry' | 'discard' | 'keep-mine' | 'take-theirs';

/** The Web Locks of the page, or (where the page has none: tests, insecure origins) an exclusive lock per name in this page. */
function pageLocks(): SyncLocks {
  // Absent outside secure contexts, and null in some test DOMs, whatever the DOM types say.
  const manager: LockManager | null | undefined = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (manager !== null && manager !== undefined) {
    return { request: (name, callback) => manager.request(name, () => callback()) };
  }
  const tails = new Map<string, Promise<unknown>>();
  return {
    request: (name, callback) => {
      const run = (tails.get(name) ?? Promise.resolve()).then(callback);
      tails.set(name, run.catch(() => undefined));
      return run;
    },
  };
}

const locks = pageLocks();

/** The window's focus, without its network events. */
const focusOnly: SyncEventSource = {
  addEventListener: (type, listener) => {
    if (type === 'focus') window.addEventListener(type, listener);
  },
  removeEventListener: (type, listener) => {
    if (type === 'focus') window.removeEventListener(type, listener);
  },
};

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

/** The most recent of two ISO timestamps, either possibly absent. */
function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

interface Session {
  connectionId: string;
  db: CacheDb;
  api: ApiPort;
  controller: AbortController;
  scheduler: SyncScheduler | undefined;
  subscriptions: Subscription[];
  /** The cycle running now, so the cache is closed only after it. */
  inFlight: Promise<SyncCycleReport> | undefined;
}

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
  const phase = ref<SyncPhase | null>(null);
  /** Where this window's running pull is. */
  const progress = shallowRef<PullProgress | null>(null);
  /** Where this window's running push is. */
  const pushProgress = shallowRef<PushProgress | null>(null);
  const pendingCount = ref(0);
  const parkedCount = ref(0);
  /** The pull's record in the cache; null until read. */
  const pullState = shallowRef<PullStateRow | null>(null);
  /** The push's record in the cache; null until read. */
  const pushState = shallowRef<PushStateRow | null>(null);
  /** How the last cycle of this session went; null before the first one ended. */
  const lastCycle = shallowRef<SyncCycleReport | null>(null);
  const pendingItems = shallowRef<OutboxItem[]>([]);
  const parkedItems = shallowRef<OutboxItem[]>([]);

  let session: Session | undefined;
  let entryWatchers = 0;
  let entrySubscriptions: Subscription[] = [];

  /** The end of the last sync that went through: the pull's last clean end or the last cycle without failure. */
  const lastSyncAt = computed<string | null>(() =>
    latest(pullState.value?.lastSuccessAt ?? null, lastCycle.value?.outcome.kind === 'ok' ? lastCycle.value.finishedAt : null),
  );

  /** When a push or pull last began. */
  const lastAttemptAt = computed<string | null>(() =>
    latest(pullState.value?.lastAttemptAt ?? null, pushState.value?.lastAttemptAt ?? null),
  );

  /** What went wrong last: the failure of the last cycle, else what the last pull skipped. */
  const lastError = computed<SyncIssue | null>(() => lastCycle.value?.error ?? pullState.value?.lastError ?? null);

  /** The last cycle got no answer from the server: only the network is in the way, and waiting mends it. */
  const unreachable = computed(() => {
    const failure = lastCycle.value?.error?.failure;
    return failure?.kind === 'network' && isUnreachable(failure);
  });

  const status = computed<SyncStatus>(() => {
    // Retries after an unreachable server stay "offline" until one gets far enough to report progress: otherwise the
    // header would flicker between syncing and offline on every retry.
    const reconnecting = unreachable.value && progress.value === null && pushProgress.value === null;
    if (running.value && !reconnecting) return 'syncing';
    if (!online.value || unreachable.value) return 'offline';
    if (lastCycle.value?.outcome.kind === 'failed') return 'error';
    if (parkedCount.value > 0) return 'attention';
    return 'synced';
  });

  function observe<T>(target: Session, query: () => Promise<T>, next: (value: T) => void): Subscription {
    return liveQuery(query).subscribe({
      next: (value) => {
        if (session === target) next(value);
      },
      error: (error: unknown) => {
        console.error('A live query of the sync state failed.', error);
      },
    });
  }

  function subscribeEntries(target: Session): void {
    entrySubscriptions = [
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

  function unsubscribeEntries(): void {
    for (const subscription of entrySubscriptions) subscription.unsubscribe();
    entrySubscriptions = [];
    pendingItems.value = [];
    parkedItems.value = [];
  }

  async function cycle(target: Session): Promise<SyncCycleOutcome> {
    // The lock may be granted after the connection was left: then there is nothing to do.
    if (target.controller.signal.aborted) return { kind: 'ok' };
    const current = (): boolean => session === target;
    const run = runCycle({
      db: target.db,
      api: target.api,
      signal: target.controller.signal,
      onPhase: (next) => {
        if (current()) phase.value = next;
      },
      onPushProgress: (next) => {
        if (current()) pushProgress.value = next;
      },
      onPullProgress: (next) => {
        if (current()) progress.value = next;
      },
    });
    target.inFlight = run;
    const report = await run;
    target.inFlight = undefined;
    if (current()) {
      lastCycle.value = report;
      phase.value = null;
      progress.value = null;
      pushProgress.value = null;
    }
    return report.outcome;
  }

  function close(): void {
    const ending = session;
    if (ending === undefined) return;
    session = undefined;
    ending.controller.abort();
    ending.scheduler?.stop();
    for (const subscription of ending.subscriptions) subscription.unsubscribe();
    unsubscribeEntries();
    // A cycle still running stops before its next request; the cache closes after it, not under it.
    if (ending.inFlight === undefined) ending.db.close();
    else void ending.inFlight.finally(() => ending.db.close());
  }

  function reset(): void {
    connectionId.value = null;
    db.value = null;
    running.value = false;
    phase.value = null;
    progress.value = null;
    pushProgress.value = null;
    pendingCount.value = 0;
    parkedCount.value = 0;
    pullState.value = null;
    pushState.value = null;
    lastCycle.value = null;
  }

  /** Syncs the given connection from now on (null: none); the same one again changes nothing. */
  function open(id: string | null): void {
    if (session?.connectionId === id || (session === undefined && id === null)) return;
    close();
    reset();
    if (id === null) return;
    const target: Session = {
      connectionId: id,
      db: new CacheDb(id),
      api: bridgeApiPort(bridge, id),
      controller: new AbortController(),
      scheduler: undefined,
      subscriptions: [],
      inFlight: undefined,
    };
    session = target;
    connectionId.value = id;
    db.value = target.db;
    target.subscriptions = [
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
    if (entryWatchers > 0) subscribeEntries(target);
    // The Local workspace's server runs on this machine: the network going down does not stop its sync.
    const local = connections.connections.find((connection) => connection.id === id)?.kind === 'local';
    const isOnline = local ? () => true : () => navigator.onLine;
    online.value = isOnline();
    target.scheduler = startSyncScheduler({
      connectionId: id,
      cycle: () => cycle(target),
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

  /**
   * Lists the pending and parked entries (with their rows' names) in `pendingItems` and `parkedItems` until the
   * returned function is called; screens that show them call it while they are mounted.
   */
  function watchEntries(): () => void {
    entryWatchers += 1;
    if (entryWatchers === 1 && session !== undefined) subscribeEntries(session);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entryWatchers -= 1;
      if (entryWatchers === 0) unsubscribeEntries();
    };
  }

  /** Acts on a parked entry of the active connection's outbox, then lets a cycle send what is now pending. */
  async function settleParked(seq: number, action: ParkedAction): Promise<void> {
    const target = session;
    if (target === undefined) throw new Error('No connection is open.');
    switch (action) {
      case 'retry':
        await retryParked(target.db, seq);
        break;
      case 'discard':
        await discardParked(target.db, seq);
        break;
      case 'keep-mine':
        await resolveConflict(target.db, seq, 'mine');
        break;
      case 'take-theirs':
        await resolveConflict(target.db, seq, 'theirs');
        break;
      default:
        assertNever(action, 'parked entry action');
    }
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
    status,
    syncNow,
    notifyEdit,
    watchEntries,
    settleParked,
  };
});
