/**
 * A file's element entries pushed as one batch, then refined and pulled again; a push that stopped anywhere resumes
 * from the file's status (Importing goes on, Refining or Mapping is followed).
 */
import { BuildingFileStatuses } from '../../shared/api/enums';
import { aggregateEntries } from '../db/outbox';
import { readFileRefinement } from '../db/push-writes';
import { pushElementEntry } from './push-elements';
import { fileStatus, PROCESSING, waitSettled, type FileBatch } from './push-file-status';
import { refineFile } from './push-refinement';
import { park, type AggregateOutcome, type PushRun } from './push-run';

/** Pushes a file's element entries as one batch, then refines and pulls the file; also resumes a stopped one. */
export async function pushFile(run: PushRun, fileId: string): Promise<AggregateOutcome> {
  const { db } = run.options;
  const aggregate = `file:${fileId}`;
  const record = await readFileRefinement(db, fileId);
  const entries = await aggregateEntries(db, aggregate);
  const buildingId = (await db.files.get(fileId))?.buildingId ?? record?.buildingId;
  const [head] = entries;
  if (buildingId === undefined) {
    if (head?.state !== 'pending') return 'waiting';
    await park(run, head, `${aggregate}`, { kind: 'internal', message: 'The file of this element is no longer in the cache.' });
    return 'waiting';
  }
  const batch: FileBatch = { buildingId, fileId, record, importing: false };
  // A refinement a stopped push had started is finished first: its elements are the server's to write.
  if (record?.step === 'refining') await refineFile(run, batch);
  if (head?.state !== 'pending') {
    if (batch.record !== undefined) await refineFile(run, batch);
    return head === undefined ? 'done' : 'waiting';
  }

  // With a record, what the server is processing is most likely this client's own refinement: it is followed.
  const status = batch.record === undefined ? await fileStatus(run, batch, head) : await waitSettled(run, batch, 'importing', head);
  if ('kind' in status) {
    await park(run, head, `getBuildingFileStatus:${fileId}`, status);
    return 'waiting';
  }
  // Busy with other work (an upload's import, another client's refinement): the entries go with a later push.
  if (PROCESSING.has(status.status)) return 'waiting';
  // Importing: a stopped push (or someone's import) left it so; the element requests go on from here.
  batch.importing = status.status === BuildingFileStatuses.Importing;
  let outcome: AggregateOutcome = 'done';
  for (const listed of entries) {
    const entry = await db.outbox.get(listed.seq);
    if (entry === undefined) continue;
    if (entry.state === 'parked') {
      outcome = 'waiting';
      break;
    }
    if (entry.entity !== 'elements') {
      await park(run, entry, `push:${entry.key}`, { kind: 'internal', message: `Edits never change ${entry.entity}; this entry cannot be sent.` });
      outcome = 'waiting';
      break;
    }
    const step = await pushElementEntry(run, batch, { ...entry, entity: entry.entity });
    if (step.kind !== 'acked') {
      outcome = step.kind === 'parked' ? 'waiting' : 'blocked';
      break;
    }
  }
  if (batch.record !== undefined) await refineFile(run, batch);
  return outcome;
}
