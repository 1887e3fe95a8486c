/**
 * The end of a file's batch: `startrefinement` of what the batch sent (unless the server already has), the status
 * followed until the file is settled, then the file's list and elements pulled again, and the building's figures once
 * the server is not recalculating it.
 */
import { BuildingFileStatuses } from '../../shared/api/enums';
import type { BuildingFileResponse, BuildingFileStatusResponse } from '../../shared/api/schemas';
import { applyServerFiles } from '../db/apply-pull';
import { clearFileRefinement, readFileRefinement, writeFileRefinement } from '../db/push-writes';
import type { FileRefinementRow } from '../db/schema';
import type { OperationCall } from '../api/call-api';
import { isRecord } from '../../shared/is-record';
import { invalid } from './answers';
import { pullFileElements } from './pull';
import { pullBuildingFigures } from './pull-figures';
import { fileParams, fileProgress, fileStatus, waitSettled, type FileBatch } from './push-file-status';
import { isStatus, send, type PushRun } from './push-run';

/** The problem type of a push's report that the server ended a file's refinement in Error (the entries were sent). */
export const REFINEMENT_FAILED_PROBLEM_TYPE = 'urn:circularity-desk:refinement-failed';

/** Pulls one file's elements again (the rows without outbox entries take the server's values) and its figures. */
async function repullFile(run: PushRun, batch: FileBatch, status: BuildingFileStatusResponse): Promise<void> {
  const { db, api } = run.options;
  await fileProgress(run, batch, 'pulling', status.status);
  const listed = await send(run, `listBuildingFiles:${batch.buildingId}`, { operationId: 'listBuildingFiles', params: { buildingId: batch.buildingId } });
  if (!listed.ok || !Array.isArray(listed.value) || !listed.value.every((file) => isRecord(file) && typeof file['id'] === 'string')) {
    run.lastIssue = { at: run.at(), where: `listBuildingFiles:${batch.buildingId}`, failure: listed.ok ? invalid('listBuildingFiles', 'a list of files') : listed.failure };
    return;
  }
  const applied = await applyServerFiles(db, batch.buildingId, listed.value as BuildingFileResponse[]);
  const due = applied.due.find((each) => each.fileId === batch.fileId);
  if (due !== undefined) {
    const issue = await pullFileElements({ db, api, pageSize: run.pageSize, signal: run.signal, now: run.options.now }, due);
    // A file whose pages did not all arrive keeps its cursor: the next pull goes on from there.
    if (issue !== null) {
      run.lastIssue = issue;
      return;
    }
  }
  // Figures fetched while the server recalculates would be old; the pull fetches them once it has finished.
  const building = await send(run, `getBuilding:${batch.buildingId}`, { operationId: 'getBuilding', params: { id: batch.buildingId } });
  if (building.ok && isRecord(building.value) && building.value['isDirty'] === false) {
    await pullBuildingFigures({ db, api, now: run.options.now }, batch.buildingId);
  }
}

/**
 * Sends `startrefinement`. A 409 (the file is not Importing) needs nothing more: an earlier start was applied with its
 * answer lost, or no element is left to refine; the status followed next says which.
 */
async function startRefinement(run: PushRun, batch: FileBatch, record: FileRefinementRow): Promise<void> {
  const where = `startBuildingFileRefinement:${batch.fileId}`;
  const call: OperationCall = { operationId: 'startBuildingFileRefinement', params: fileParams(batch), headers: { 'Idempotency-Key': record.opId } };
  const started = await send(run, where, call);
  if (!started.ok && !isStatus(started.failure, 409)) run.lastIssue = { at: run.at(), where, failure: started.failure };
}

/** Starts the refinement of what the batch sent (unless the server already has), waits for it and pulls the file again. */
export async function refineFile(run: PushRun, batch: FileBatch): Promise<void> {
  const { db } = run.options;
  let record = batch.record ?? (await readFileRefinement(db, batch.fileId));
  if (record === undefined) return;
  if (record.step === 'importing') {
    // Resuming, the file's status says where the server is: still Importing (start), or already past it.
    const current = batch.importing ? null : await fileStatus(run, batch);
    if (current !== null && 'kind' in current) {
      run.lastIssue = { at: run.at(), where: `getBuildingFileStatus:${batch.fileId}`, failure: current };
      await clearFileRefinement(db, batch.fileId);
      return;
    }
    if (current === null || current.status === BuildingFileStatuses.Importing) await startRefinement(run, batch, record);
    record = { ...record, step: 'refining' };
    await writeFileRefinement(db, record);
    batch.record = record;
  }
  const status = await waitSettled(run, batch, 'refining');
  if ('kind' in status) {
    run.lastIssue = { at: run.at(), where: `getBuildingFileStatus:${batch.fileId}`, failure: status };
  } else {
    if (status.status === BuildingFileStatuses.Error) {
      const detail = status.statusMessage ?? 'The server could not refine the file.';
      run.lastIssue = {
        at: run.at(),
        where: `refinement:${batch.fileId}`,
        failure: { kind: 'problem', status: 422, problem: { type: REFINEMENT_FAILED_PROBLEM_TYPE, title: 'Refinement failed', status: 422, detail, instance: '', errors: [], message: detail } },
      };
    }
    await repullFile(run, batch, status);
  }
  await clearFileRefinement(db, batch.fileId);
  batch.record = undefined;
  batch.importing = false;
}
