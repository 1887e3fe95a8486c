/**
 * A building's figures (`/circular`, `/financial`, `/validation`), all three or none: those the pull finds due, and
 * one building's on demand.
 */
import { buildingsWithFiguresDue, dropFiguresDue, writeBuildingFigures, type BuildingFigures } from '../db/building-figures';
import { callApi } from '../api/call-api';
import type { ApiPort } from '../api/port';
import { isRecord } from '../../shared/is-record';
import { invalid } from './answers';
import { fetchFailure, type FetchOutcome } from './fetch-outcome';
import { fail, progress, stopIfAborted, type PullRun } from './pull-run';
import { clockOf, type SyncOptions } from './sync-options';

/** Fetches a building's three figures; all or none. */
async function fetchFigures(api: ApiPort, buildingId: string): Promise<FetchOutcome<BuildingFigures>> {
  const values: Record<string, unknown> = {};
  for (const [name, operationId] of [
    ['circular', 'getBuildingCircular'],
    ['financial', 'getBuildingFinancial'],
    ['validation', 'getBuildingValidation'],
  ] as const) {
    const outcome = await callApi(api, operationId, { params: { id: buildingId } });
    if (!outcome.ok) return fetchFailure(outcome.failure);
    if (!isRecord(outcome.value)) return fetchFailure(invalid(operationId, 'an object'));
    values[name] = outcome.value;
  }
  return { ok: true, value: values as unknown as BuildingFigures };
}

/** Pulls the figures of the buildings whose files, `isDirty` or `mostRecentBimInfo` said they changed. */
export async function pullDueFigures(run: PullRun): Promise<void> {
  for (const buildingId of await buildingsWithFiguresDue(run.db)) {
    stopIfAborted(run, `figures:${buildingId}`);
    await progress(run, { phase: 'figures', buildingId });
    const outcome = await fetchFigures(run.api, buildingId);
    if (outcome.ok) {
      await writeBuildingFigures(run.db, buildingId, outcome.value, run.at());
      continue;
    }
    fail(run, `figures:${buildingId}`, outcome.failure);
    await dropFiguresDue(run.db, buildingId);
  }
}

/** Fetches a building's circular, financial and validation figures now and writes them (all three or none). */
export async function pullBuildingFigures(options: SyncOptions, buildingId: string): Promise<FetchOutcome> {
  const outcome = await fetchFigures(options.api, buildingId);
  if (!outcome.ok) return outcome;
  await writeBuildingFigures(options.db, buildingId, outcome.value, clockOf(options)());
  return { ok: true, value: undefined };
}
