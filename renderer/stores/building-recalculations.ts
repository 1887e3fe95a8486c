/**
 * The recalculations of this session, by building: those the user asked for (`process`) and those the server starts
 * itself when a file is activated or deactivated. The building is followed until the server says it is no longer
 * dirty; that answer and the building's figures go into the cache at once, then a sync runs for the rest.
 */
import { ref } from 'vue';
import type { BuildingResponse } from '../../shared/api/schemas';
import type { Bridge } from '../../shared/ipc';
import { callApi } from '../api/call-api';
import type { ApiFailure } from '../api/failure';
import { mapOutcome, type ApiOutcome } from '../api/outcome';
import { bridgeApiPort } from '../api/port';
import { applyServerBuilding } from '../db/apply-pull';
import { pullBuildingFigures } from '../sync/pull';
import type { BuildingTiming } from './building-timing';
import type { useSyncStore } from './sync';
import { whenOnline } from './when-online';

/** Where a recalculation the user asked for is: the server works on it, it is done, or it could not be followed. */
export type RecalculationState =
  | { phase: 'running' }
  | { phase: 'done' }
  | { phase: 'unfinished' }
  | { phase: 'failed'; failure: ApiFailure };

/**
 * The recalculations of the active connection; `connectionSignal` answers the signal that ends the work followed for
 * it (the user switched to another connection).
 */
export function useBuildingRecalculations(
  sync: ReturnType<typeof useSyncStore>,
  bridge: Bridge,
  timing: BuildingTiming,
  connectionSignal: () => AbortSignal,
) {
  /** The recalculations asked for in this session, by building. */
  const recalculations = ref<Record<string, RecalculationState>>({});

  function setRecalculation(id: string, state: RecalculationState): void {
    recalculations.value = { ...recalculations.value, [id]: state };
  }

  /**
   * Follows a recalculation until the server says the building is no longer dirty, then writes that answer and the
   * building's figures into the cache, so the screen shows both at once, and syncs.
   */
  async function followRecalculation(connectionId: string, id: string, signal: AbortSignal): Promise<void> {
    let settled: BuildingResponse | undefined;
    for (let poll = 0; settled === undefined; poll += 1) {
      if (poll >= timing.recalculationPolls) {
        setRecalculation(id, { phase: 'unfinished' });
        return;
      }
      await timing.sleep(timing.recalculationPollMs, signal);
      if (signal.aborted) return;
      const outcome = await callApi(bridgeApiPort(bridge, connectionId), 'getBuilding', { params: { id } });
      if (signal.aborted) return;
      if (!outcome.ok) {
        setRecalculation(id, { phase: 'failed', failure: outcome.failure });
        return;
      }
      if (!outcome.value.isDirty) settled = outcome.value;
    }
    const db = sync.db;
    if (db === null || signal.aborted) return;
    await applyServerBuilding(db, settled);
    const figures = await pullBuildingFigures({ db, api: bridgeApiPort(bridge, connectionId) }, id);
    if (signal.aborted) return;
    if (!figures.ok) {
      setRecalculation(id, { phase: 'failed', failure: figures.failure });
      return;
    }
    setRecalculation(id, { phase: 'done' });
    void sync.syncNow();
  }

  /** Asks the server to recalculate all figures of a building (`process`), then follows it until the new figures are in. */
  async function recalculate(id: string): Promise<ApiOutcome<void>> {
    return whenOnline(sync, id, async (connectionId) => {
      const outcome = await callApi(bridgeApiPort(bridge, connectionId), 'processBuilding', { params: { id } });
      if (!outcome.ok) return outcome;
      setRecalculation(id, { phase: 'running' });
      void followRecalculation(connectionId, id, connectionSignal());
      return mapOutcome(outcome, () => undefined);
    });
  }

  /**
   * Follows a recalculation the server started itself (a file of the building activated or deactivated) as one the
   * user asked for: the screen says it runs, and shows the figures the moment it ends.
   */
  function followServerRecalculation(connectionId: string, id: string): void {
    setRecalculation(id, { phase: 'running' });
    void followRecalculation(connectionId, id, connectionSignal());
  }

  function reset(): void {
    recalculations.value = {};
  }

  return { recalculations, recalculate, followServerRecalculation, reset };
}
