/**
 * A cycle run for the current session, and what this window hears of it: its phase, where it is, whether the server
 * answered it yet, how it ended.
 */
import { ref, shallowRef } from 'vue';
import { isUnreachable } from '../api/failure';
import type { ApiPort } from '../api/port';
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
  /** The running cycle got an answer from the server (anything but no answer or none in time): it answers again. */
  const answered = ref(false);

  /** The session's port, noting the first answer of the server in this cycle. */
  function noting(api: ApiPort, isCurrent: () => boolean): ApiPort {
    return async (call) => {
      const answer = await api(call);
      if ((answer.kind !== 'network' || !isUnreachable(answer)) && isCurrent()) answered.value = true;
      return answer;
    };
  }

  async function cycle(target: SyncSession): Promise<SyncCycleOutcome> {
    // The lock may be granted after the connection was left: then there is nothing to do.
    if (target.controller.signal.aborted) return { kind: 'ok' };
    const isCurrent = (): boolean => current() === target;
    answered.value = false;
    const run = runCycle({
      db: target.db,
      api: noting(target.api, isCurrent),
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
      answered.value = false;
    }
    return report.outcome;
  }

  function reset(): void {
    phase.value = null;
    progress.value = null;
    pushProgress.value = null;
    lastCycle.value = null;
    answered.value = false;
  }

  return { phase, progress, pushProgress, lastCycle, answered, cycle, reset };
}
