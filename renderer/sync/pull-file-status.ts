/** A file's processing status as the server reports it: recognised in an answer, and fetched on demand. */
import type { BuildingFileStatusResponse } from '../../shared/api/schemas';
import { writeFileStatus } from '../db/apply-pull';
import { callApi } from '../api/call-api';
import { isRecord } from '../../shared/is-record';
import { invalid } from './answers';
import { fetchFailure, type FetchOutcome } from './fetch-outcome';
import { clockOf, type SyncOptions } from './sync-options';

export function isFileStatus(value: unknown): value is BuildingFileStatusResponse {
  return isRecord(value) && typeof value['id'] === 'string' && typeof value['status'] === 'number' && typeof value['elementCount'] === 'number';
}

/** Fetches a file's processing status now and writes it. */
export async function pullFileStatus(options: SyncOptions, buildingId: string, fileId: string): Promise<FetchOutcome<BuildingFileStatusResponse>> {
  const outcome = await callApi(options.api, 'getBuildingFileStatus', { params: { buildingId, fileId } });
  if (!outcome.ok) return fetchFailure(outcome.failure);
  if (!isFileStatus(outcome.value)) return fetchFailure(invalid('getBuildingFileStatus', 'a file status'));
  await writeFileStatus(options.db, buildingId, outcome.value, clockOf(options)());
  return { ok: true, value: outcome.value };
}
