/**
 * The user's buildings on the active connection. Creates, edits and deletes go into the cache with their outbox
 * entries (the db layer writes both in one transaction), then the scheduler is told, so they reach the server with the
 * next sync, also after a restart offline. What the API only does online (recalculation, passports, the financial
 * figures with other rates, the progress of a file the server is processing) is asked here through the Bridge (a
 * building's users and tokens: `access.ts`); every way it can fail comes back as an `ApiFailure` the screens put in
 * words. Also the search and order of the building lists, kept for the session.
 */
import { defineStore } from 'pinia';
import { inject, onScopeDispose, ref, watch } from 'vue';
import type { PassportLanguage } from '../../shared/api/routes';
import type { BuildingFileStatusResponse, BuildingFinancialInformation } from '../../shared/api/schemas';
import { isRecord } from '../../shared/is-record';
import { callApi } from '../api/call-api';
import { failed, mapOutcome, succeeded, type ApiOutcome } from '../api/outcome';
import { bridgeApiPort } from '../api/port';
import { useBridge } from '../bridge';
import type { CacheDb } from '../db/cache-db';
import type { BuildingChanges } from '../db/edit-shapes';
import { createBuilding, deleteBuilding, editBuilding, type NewBuilding } from '../db/edits';
import { pullBuildingFigures, pullFileStatus } from '../sync/pull';
import { defaultBuildingListQuery, type BuildingListQuery } from '../views/buildings/building-list';
import { useBuildingRecalculations } from './building-recalculations';
import { BUILDING_TIMING_KEY, DEFAULT_BUILDING_TIMING } from './building-timing';
import { useSyncStore } from './sync';
import { whenOnline } from './when-online';

export type { RecalculationState } from './building-recalculations';
export { BUILDING_TIMING_KEY, DEFAULT_BUILDING_TIMING, type BuildingTiming } from './building-timing';

/** The kinds of passport a building has. */
export type PassportFormat = 'pdf' | 'excel';

/** The rates of the financial figures as `/financial` takes them (fractions); absent: the server's default. */
export type FinancialQuery = Partial<Record<'inflation' | 'bdbIndex' | 'discountRate', number>>;

/** Buildings of the active connection: edits through the cache, online actions through the Bridge. */
export const useBuildingsStore = defineStore('buildings', () => {
  const sync = useSyncStore();
  const bridge = useBridge();
  const timing = inject(BUILDING_TIMING_KEY, DEFAULT_BUILDING_TIMING);

  /** The search and order of the building lists. */
  const listQuery = ref<BuildingListQuery>(defaultBuildingListQuery());

  // Work followed for one connection stops when the user switches to another.
  let session = new AbortController();
  const { recalculations, recalculate, followServerRecalculation, reset: resetRecalculations } = useBuildingRecalculations(sync, bridge, timing, () => session.signal);
  watch(
    () => sync.connectionId,
    () => {
      session.abort();
      session = new AbortController();
      resetRecalculations();
    },
  );
  onScopeDispose(() => session.abort());

  function cache(): CacheDb {
    if (sync.db === null) throw new Error('No connection is open.');
    return sync.db;
  }

  // --- edits: cache and outbox ---------------------------------------------------------------------------------------

  /** Adds a building to a portfolio; answers its temporary id. */
  async function create(portfolioId: string, building: NewBuilding): Promise<string> {
    const id = await createBuilding(cache(), portfolioId, building);
    sync.notifyEdit();
    return id;
  }

  /** Changes fields of a building; nothing when nothing changed. */
  async function edit(id: string, changes: BuildingChanges): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await editBuilding(cache(), id, changes);
    sync.notifyEdit();
  }

  /** Deletes a building (the server deletes all its data with it). */
  async function remove(id: string): Promise<void> {
    await deleteBuilding(cache(), id);
    sync.notifyEdit();
  }

  // --- online ----------------------------------------------------------------------------------------------------------

  /**
   * Asks the server for a passport in a language. The server makes it as a new file of the building; a sync follows
   * now, so the file shows among the building's files while it is being made.
   */
  async function requestPassport(id: string, format: PassportFormat, language: PassportLanguage): Promise<ApiOutcome<void>> {
    const result = await whenOnline(sync, id, async (connectionId) =>
      mapOutcome(
        await callApi(bridgeApiPort(bridge, connectionId), format === 'pdf' ? 'exportBuildingPassport' : 'exportBuildingExcelPassport', {
          params: { id },
          headers: { 'accept-language': language },
        }),
        () => undefined,
      ),
    );
    if (result.ok) void sync.syncNow();
    return result;
  }

  /** The financial figures with other rates, as the server computes them now; the cache keeps those of the defaults. */
  async function financialWith(id: string, query: FinancialQuery): Promise<ApiOutcome<BuildingFinancialInformation>> {
    return whenOnline(sync, id, async (connectionId) => {
      const outcome = await callApi(bridgeApiPort(bridge, connectionId), 'getBuildingFinancial', { params: { id }, query });
      if (outcome.ok && !(isRecord(outcome.value) && typeof outcome.value['currentValue'] === 'number')) {
        return failed({ kind: 'invalid-answer', message: 'getBuildingFinancial answered no figures.' });
      }
      return outcome;
    });
  }

  /** Fetches a building's figures now into the cache (all three or none). */
  async function refreshFigures(id: string): Promise<ApiOutcome<void>> {
    return whenOnline(sync, id, async (connectionId) => {
      const outcome = await pullBuildingFigures({ db: cache(), api: bridgeApiPort(bridge, connectionId) }, id);
      return outcome.ok ? succeeded(undefined) : failed(outcome.failure);
    });
  }

  /** Reads a file's status now into the cache. */
  async function refreshFileStatus(buildingId: string, fileId: string): Promise<ApiOutcome<BuildingFileStatusResponse>> {
    return whenOnline(sync, buildingId, async (connectionId) => {
      const outcome = await pullFileStatus({ db: cache(), api: bridgeApiPort(bridge, connectionId) }, buildingId, fileId);
      return outcome.ok ? succeeded(outcome.value) : failed(outcome.failure);
    });
  }

  /**
   * Reads the status of the files `busyFiles` names (the files of a building the server works on) every few seconds,
   * until the returned function is called. When one of them is done, a sync brings its new state and elements. A
   * round that fails (offline, no answer) leaves the cached status as it is, and the next round tries again.
   */
  function followFileStatuses(
    buildingId: string,
    busyFiles: () => readonly string[],
    isDone: (status: BuildingFileStatusResponse) => boolean,
  ): () => void {
    const stopped = new AbortController();
    const signal = AbortSignal.any([stopped.signal, session.signal]);
    void (async () => {
      while (!signal.aborted) {
        let finished = false;
        for (const fileId of busyFiles()) {
          if (signal.aborted) return;
          const outcome = await refreshFileStatus(buildingId, fileId);
          if (outcome.ok && isDone(outcome.value)) finished = true;
        }
        if (finished && !signal.aborted) void sync.syncNow();
        await timing.sleep(timing.statusPollMs, signal);
      }
    })();
    return () => stopped.abort();
  }

  return {
    listQuery,
    recalculations,
    create,
    edit,
    remove,
    recalculate,
    followServerRecalculation,
    requestPassport,
    financialWith,
    refreshFigures,
    refreshFileStatus,
    followFileStatuses,
  };
});
