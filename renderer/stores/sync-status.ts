/**
 * What the screens say about the active connection's sync, worked out from its records and its last cycle: when it
 * last went through or was tried, what went wrong last, and one status for the sync indicator.
 */
import { computed, type Ref } from 'vue';
import type { PullStateRow, PushStateRow, SyncIssue } from '../db/schema';
import { isUnreachable } from '../api/failure';
import type { SyncCycleReport } from '../sync/cycle';

/**
 * What the sync indicator shows, most urgent first: a cycle runs, no network (the window says so, or the last cycle
 * got no answer from the server), the server refused the last cycle, changes were refused, all is well.
 */
export type SyncStatus = 'syncing' | 'offline' | 'error' | 'attention' | 'synced';

/** The sync store's state the status is worked out from. */
export interface SyncStatusSources {
  running: Readonly<Ref<boolean>>;
  online: Readonly<Ref<boolean>>;
  /** The running cycle got an answer from the server. */
  answered: Readonly<Ref<boolean>>;
  parkedCount: Readonly<Ref<number>>;
  pullState: Readonly<Ref<PullStateRow | null>>;
  pushState: Readonly<Ref<PushStateRow | null>>;
  lastCycle: Readonly<Ref<SyncCycleReport | null>>;
}

/** The most recent of two ISO timestamps, either possibly absent. */
function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

export function useSyncStatus({ running, online, answered, parkedCount, pullState, pushState, lastCycle }: SyncStatusSources) {
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

  /** The last cycle's calls reached the server and it did not answer in time: it is not answering (a paused server). */
  const notAnswering = computed(() => {
    const failure = lastCycle.value?.error?.failure;
    return online.value && failure?.kind === 'network' && failure.reason === 'timeout';
  });

  const status = computed<SyncStatus>(() => {
    // Retries after an unreachable server stay "offline" until the server answers one of their calls: a server that
    // accepts connections and never answers would otherwise show "syncing" for a whole timeout on every retry.
    const reconnecting = unreachable.value && !answered.value;
    if (running.value && !reconnecting) return 'syncing';
    if (!online.value || unreachable.value) return 'offline';
    if (lastCycle.value?.outcome.kind === 'failed') return 'error';
    if (parkedCount.value > 0) return 'attention';
    return 'synced';
  });

  return { lastSyncAt, lastAttemptAt, lastError, unreachable, notAnswering, status };
}
