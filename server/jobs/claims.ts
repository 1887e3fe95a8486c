import type { Kysely, Selectable } from 'kysely';
import type { StoreDialect } from '../store/dialect';
import type { DatabaseSchema, JobsTable } from '../store/tables';

/** A job row as claimed. */
export type JobRow = Selectable<JobsTable>;

/** How long a claim lasts without a heartbeat, and how often a running job renews it. */
export interface LeaseSettings {
  leaseMs: number;
  heartbeatMs: number;
}

/** Attempts before a failing job is given up. */
export const MAX_ATTEMPTS = 5;

/**
 * Claims the oldest runnable job: a queued one whose time has come, or a running one whose lease expired (its worker
 * died). The claim is exclusive: a conditional update that only one worker can win, after a `FOR UPDATE SKIP LOCKED`
 * read where the database has row locks, so workers never wait for each other.
 */
export async function claimNextJob(
  db: Kysely<DatabaseSchema>,
  dialect: StoreDialect,
  workerId: string,
  now: Date,
  lease: LeaseSettings,
): Promise<JobRow | undefined> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let candidates = trx
      .selectFrom('jobs')
      .select(['id', 'state', 'leaseUntil'])
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('runAfter', '<=', at)]),
          eb.and([eb('state', '=', 'running'), eb('leaseUntil', '<', at)]),
        ]),
      )
      .orderBy('runAfter')
      .orderBy('createdAt')
      .limit(1);
    if (dialect.rowLocks) candidates = candidates.forUpdate().skipLocked();
    const candidate = await candidates.executeTakeFirst();
    if (candidate === undefined) return undefined;
    const claimed = await trx
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        workerId,
        leaseUntil: new Date(now.getTime() + lease.leaseMs).toISOString(),
        attempts: eb('attempts', '+', 1),
        updatedAt: at,
      }))
      .where('id', '=', candidate.id)
      .where('state', '=', candidate.state)
      .where((eb) => (candidate.leaseUntil === null ? eb('leaseUntil', 'is', null) : eb('leaseUntil', '=', candidate.leaseUntil)))
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) return undefined;
    return trx.selectFrom('jobs').selectAll().where('id', '=', candidate.id).executeTakeFirstOrThrow();
  });
}

/** Renews a claim; false when the worker no longer holds it (it expired and another worker took the job). */
export async function renewLease(db: Kysely<DatabaseSchema>, jobId: string, workerId: string, now: Date, lease: LeaseSettings): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ leaseUntil: new Date(now.getTime() + lease.leaseMs).toISOString(), updatedAt: now.toISOString() })
    .where('id', '=', jobId)
    .where('workerId', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks a held job done. */
export async function completeJob(db: Kysely<DatabaseSchema>, jobId: string, workerId: string, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ state: 'done', leaseUntil: null, updatedAt: now.toISOString() })
    .where('id', '=', jobId)
    .where('workerId', '=', workerId)
    .execute();
}

/**
 * Records a failure of a held job: it runs again after an exponential backoff (with jitter, so jobs that failed together
 * do not retry together) unless it is permanent or out of attempts. Returns whether it will be retried.
 */
export async function failJob(
  db: Kysely<DatabaseSchema>,
  job: JobRow,
  workerId: string,
  error: string,
  permanent: boolean,
  now: Date,
): Promise<boolean> {
  const retry = !permanent && job.attempts < MAX_ATTEMPTS;
  const backoffMs = Math.min(60_000, 1000 * 2 ** (job.attempts - 1)) * (0.5 + Math.random() / 2);
  await db
    .updateTable('jobs')
    .set({
      state: retry ? 'queued' : 'failed',
      runAfter: new Date(now.getTime() + (retry ? backoffMs : 0)).toISOString(),
      leaseUntil: null,
      lastError: error,
      updatedAt: now.toISOString(),
    })
    .where('id', '=', job.id)
    .where('workerId', '=', workerId)
    .execute();
  return retry;
}

/** Gives a held job back unfinished (its worker is stopping), so another start claims it at once, not after the lease. */
export async function releaseJob(db: Kysely<DatabaseSchema>, jobId: string, workerId: string, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'queued',
      workerId: null,
      leaseUntil: null,
      runAfter: now.toISOString(),
      // The interrupted run was not a failure, so it does not use up an attempt.
      attempts: eb('attempts', '-', 1),
      updatedAt: now.toISOString(),
    }))
    .where('id', '=', jobId)
    .where('workerId', '=', workerId)
    .where('state', '=', 'running')
    .execute();
}
