import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../store/tables';

/** The kinds of long work the server schedules. */
export type JobKind =
  | 'import-file'
  | 'refine-file'
  | 'process-building'
  | 'recount-files'
  | 'building-passport-pdf'
  | 'building-passport-excel'
  | 'portfolio-passport'
  | 'demo-passport';

/**
 * Schedules a job; the worker loop claims queued jobs in creation order (imports round-robin by portfolio, claims.ts),
 * each once its `runAfter` (default: now) has come. Returns the job id.
 */
export async function enqueueJob(
  db: Kysely<DatabaseSchema>,
  job: { kind: JobKind; subjectId: string; payload?: Record<string, unknown>; runAfter?: Date },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      subjectId: job.subjectId,
      payload: JSON.stringify(job.payload ?? {}),
      state: 'queued',
      attempts: 0,
      runAfter: (job.runAfter ?? now).toISOString(),
      leaseUntil: null,
      workerId: null,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return id;
}
