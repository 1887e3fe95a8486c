/** A cycle run for the current session, and what this window hears of it: its phase, where it is, how it ended. */
import { ref, shallowRef } from 'vue';
import type { PullProgress, PushProgress } from '../db/schema';
import type { CycleRunner } from '../sync/cycle-runner';
import type { SyncCycleReport, SyncPhase } from '../sync/cycle';
import type { SyncCycleOutcome } from '../sync/scheduler';
import type { SyncSession } from './sync-session';

export function useCycleReports(runCycle: CycleRunner, current: () => SyncSession | undefined) {
  const phase = ref<SyncPhase | null>(null);
  /** Where this window's running pull is. */
  const progress = shallowRef<PullProgress | null>(null);
  /** Where this window's running push is. */
  const pushProgress = shallowRef<PushProgress | null>(null);
  /** How the last cycle of this session went; null before the first one ended. */
  const lastCycle = shallowRef<SyncCycleReport | null>(null);

  async function cycle(target: SyncSession): Promise<SyncCycleOutcome> {
    // The lock may be granted after the connection was left: then there is nothing to do.
    if (target.controller.signal.aborted) return { kind: 'ok' };
    const isCurrent = (): boolean => current() === target;
    const run = runCycle({
      db: target.db,
      api: target.api,
      signal: target.controller.signal,
      onPhase: (next) => {
        if (isCurrent()) phase.value = next;
      },
      onPushProgress: (next) => {
        if (isCurrent()) pushProgress.value = next;
      },
      onPullProgress: (next) => {
        if (isCurrent()) progress.value = next;
      },
    });
    target.inFlight = run;
    const report = await run;
    target.inFlight = undefined;
    if (isCurrent()) {
      lastCycle.value = report;
      phase.value = null;
      progress.value = null;
      pushProgress.value = null;
    }
    return report.outcome;
  }

  function reset(): void {
    phase.value = null;
    progress.value = null;
    pushProgress.value = null;
    lastCycle.value = null;
  }

  return { phase, progress, pushProgress, lastCycle, cycle, reset };
}
