/**
 * A file's status on the server during a push of its elements: read, followed until the server is no longer
 * processing the file, and set Importing (after the refinement record is written) before an element request.
 */
import { BuildingFileStatuses } from '../../shared/api/enums';
import type { BuildingFileStatusResponse } from '../../shared/api/schemas';
import { writeFileRefinement } from '../db/push-writes';
import { fileRefinementKey, type FileRefinementRow, type OutboxEntry } from '../db/schema';
import type { OperationCall } from '../api/call-api';
import type { ApiFailure } from '../api/failure';
import type { ApiOutcome } from '../api/outcome';
import { isRecord } from '../../shared/is-record';
import { invalid } from './answers';
import { isStatus, park, progress, PushStopped, send, stopIfAborted, type PushRun } from './push-run';

/** Statuses in which the server is working on a file's elements: wait until it has finished. */
export const PROCESSING: ReadonlySet<number> = new Set([BuildingFileStatuses.Uploaded, BuildingFileStatuses.Refining, BuildingFileStatuses.Mapping]);

export interface FileBatch {
  buildingId: string;
  fileId: string;
  record: FileRefinementRow | undefined;
  /** Whether the server has the file Importing, as far as this push knows. */
  importing: boolean;
}

function isFileStatus(value: unknown): value is BuildingFileStatusResponse {
  return isRecord(value) && typeof value['status'] === 'number';
}

export function fileParams(batch: FileBatch): Record<string, string> {
  return { buildingId: batch.buildingId, fileId: batch.fileId };
}

export async function fileProgress(run: PushRun, batch: FileBatch, step: 'importing' | 'refining' | 'pulling', status: number | null): Promise<void> {
  await progress(run, { phase: 'file', buildingId: batch.buildingId, fileId: batch.fileId, step, status });
}

/** The file's status now; a refusal (the file is gone, …) is answered as a failure. */
export async function fileStatus(run: PushRun, batch: FileBatch, entry?: OutboxEntry): Promise<BuildingFileStatusResponse | ApiFailure> {
  const where = `getBuildingFileStatus:${batch.fileId}`;
  const got = await send(run, where, { operationId: 'getBuildingFileStatus', params: fileParams(batch) }, entry);
  if (!got.ok) return got.failure;
  return isFileStatus(got.value) ? got.value : invalid(where, 'a file status');
}

/** Polls the file's status until the server is no longer processing it. */
export async function waitSettled(run: PushRun, batch: FileBatch, step: 'importing' | 'refining', entry?: OutboxEntry): Promise<BuildingFileStatusResponse | ApiFailure> {
  for (let polls = 0; ; polls += 1) {
    const status = await fileStatus(run, batch, entry);
    if ('kind' in status) return status;
    await fileProgress(run, batch, step, status.status);
    if (!PROCESSING.has(status.status)) return status;
    if (polls >= run.maxPolls) {
      const message = `The server is still processing file ${batch.fileId} (status ${status.status}); the next sync goes on.`;
      throw new PushStopped({ at: run.at(), where: `getBuildingFileStatus:${batch.fileId}`, failure: { kind: 'network', reason: 'processing', message } }, true);
    }
    await run.sleep(run.pollIntervalMs, run.signal);
    stopIfAborted(run, `getBuildingFileStatus:${batch.fileId}`);
  }
}

/**
 * Makes sure the file is Importing before an element request: writes the refinement record first (a push stopped
 * after `setimporting` then still starts the refinement), then `setimporting` unless the file already is. Answers
 * false after parking `entry` when the server refuses.
 */
export async function ensureImporting(run: PushRun, batch: FileBatch, entry: OutboxEntry): Promise<boolean> {
  const { db } = run.options;
  if (batch.record === undefined) {
    batch.record = {
      key: fileRefinementKey(batch.fileId),
      kind: 'file-refinement',
      buildingId: batch.buildingId,
      fileId: batch.fileId,
      step: 'importing',
      opId: crypto.randomUUID(),
      startedAt: run.at(),
    };
    await writeFileRefinement(db, batch.record);
  }
  if (batch.importing) return true;
  const where = `setBuildingFileImporting:${batch.fileId}`;
  const call: OperationCall = { operationId: 'setBuildingFileImporting', params: fileParams(batch) };
  let answer = await send(run, where, call, entry);
  if (!answer.ok && isStatus(answer.failure, 409)) {
    // The server is processing the file (or it just changed): once it has settled, ask again.
    const settled = await waitSettled(run, batch, 'importing', entry);
    if ('kind' in settled) answer = { ok: false, failure: settled };
    else answer = settled.status === BuildingFileStatuses.Importing ? { ok: true, status: 204, value: null, location: null } : await send(run, where, call, entry);
  }
  if (!answer.ok) {
    await park(run, entry, where, answer.failure);
    return false;
  }
  batch.importing = true;
  await fileProgress(run, batch, 'importing', BuildingFileStatuses.Importing);
  return true;
}

/** Sends an element write; a 409 because the file left Importing meanwhile sets it Importing again, once. */
export async function sendElementWrite(run: PushRun, batch: FileBatch, entry: OutboxEntry, where: string, call: OperationCall): Promise<ApiOutcome<unknown> | null> {
  if (!(await ensureImporting(run, batch, entry))) return null;
  const answer = await send(run, where, call, entry);
  if (answer.ok || !isStatus(answer.failure, 409)) return answer;
  const status = await fileStatus(run, batch, entry);
  if ('kind' in status || status.status === BuildingFileStatuses.Importing) return answer;
  batch.importing = false;
  if (!(await ensureImporting(run, batch, entry))) return null;
  return send(run, where, call, entry);
}
