import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { StoreDialect } from '../store/dialect';
import type { DatabaseSchema, JobsTable } from '../store/tables';
import type { JobKind } from './queue';

/** A job row as claimed. */
export type JobRow = Selectable<JobsTable>;

/** How long a claim lasts without a heartbeat, and how often a running job renews it. */
export interface LeaseSettings {
  leaseMs: number;
  heartbeatMs: number;
}

/** Attempts before a failing job is given up. */
export const MAX_ATTEMPTS = 5;

/** A worker no longer holds the job it is running: its lease expired and another worker claimed it, or it ended. */
export class ClaimLostError extends Error {
  constructor(jobId: string) {
    super(`The job ${jobId} is no longer held by this worker.`);
    this.name = 'ClaimLostError';
  }
}

/** How often a claim looks past a job whose subject another worker took meanwhile, before waiting for the next poll. */
const claimAttempts = 5;

/**
 * The order of import jobs: round-robin by portfolio, the portfolio whose latest import was claimed longest ago first
 * (`import_turns`), so the uploads of one key or portfolio cannot keep everyone else's waiting: a portfolio's import
 * waits at most for one import of each other portfolio with imports waiting. An import of a portfolio never served, and
 * every other job, has the earliest turn; within a turn, jobs go in order.
 */
function importTurn(eb: ExpressionBuilder<DatabaseSchema & { job: JobsTable }, 'job'>) {
  const lastClaimed = eb
    .selectFrom('import_turns')
    .select('import_turns.lastClaimedAt')
    .where('import_turns.portfolioId', '=', portfolioOfJobFile(eb));
  // '' before any time, on both databases (NULL sorts first on SQLite, last on PostgreSQL).
  return eb.case().when('job.kind', '=', IMPORT_JOB).then(eb.fn.coalesce(lastClaimed, eb.val(''))).else('').end();
}

/** The portfolio of the building file an import job imports. */
function portfolioOfJobFile(eb: ExpressionBuilder<DatabaseSchema & { job: JobsTable }, 'job'>) {
  return eb
    .selectFrom('building_files')
    .innerJoin('buildings', 'buildings.id', 'building_files.buildingId')
    .select('buildings.portfolioId')
    .whereRef('building_files.id', '=', 'job.subjectId');
}

/** The kind of job whose claims take turns by portfolio. */
const IMPORT_JOB: JobKind = 'import-file';

/** Records that an import of the file's portfolio was claimed now: its next import waits for the other portfolios' turns. */
async function takeTurn(trx: Kysely<DatabaseSchema>, fileId: string, at: string): Promise<void> {
  const file = await trx
    .selectFrom('building_files')
    .innerJoin('buildings', 'buildings.id', 'building_files.buildingId')
    .select('buildings.portfolioId')
    .where('building_files.id', '=', fileId)
    .executeTakeFirst();
  if (file === undefined) return;
  await trx
    .insertInto('import_turns')
    .values({ portfolioId: file.portfolioId, lastClaimedAt: at })
    .onConflict((conflict) => conflict.column('portfolioId').doUpdateSet({ lastClaimedAt: at }))
    .execute();
}

/**
 * Claims the oldest runnable job (imports by their portfolio's turn first, `importTurn`): a queued one whose time has
 * come, or a running one whose lease expired (its worker died). The claim is exclusive: a conditional update that only
 * one worker can win, after a `FOR UPDATE SKIP LOCKED` read where the database has row locks, so workers never wait for
 * each other.
 *
 * Jobs of one subject (a file, a building) run one at a time, so a recalculation never overtakes a newer one: a job is
 * not claimed while another job of its subject runs under a live lease. Two workers could each claim a different job of
 * one subject at the same moment, so a claim takes a lock on the subject until it commits and looks again.
 */
export async function claimNextJob(
  db: Kysely<DatabaseSchema>,
  dialect: StoreDialect,
  workerId: string,
  now: Date,
  lease: LeaseSettings,
): Promise<JobRow | undefined> {
  for (let attempt = 0; attempt < claimAttempts; attempt++) {
    const outcome = await tryClaim(db, dialect, workerId, now, lease);
    if (outcome !== 'subject-taken') return outcome;
  }
  return undefined;
}

async function tryClaim(
  db: Kysely<DatabaseSchema>,
  dialect: StoreDialect,
  workerId: string,
  now: Date,
  lease: LeaseSettings,
): Promise<JobRow | undefined | 'subject-taken'> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    let candidates = trx
      .selectFrom('jobs as job')
      .select(['job.id', 'job.kind', 'job.state', 'job.leaseUntil', 'job.subjectId'])
      .where((eb) =>
        eb.or([
          eb.and([eb('job.state', '=', 'queued'), eb('job.runAfter', '<=', at)]),
          eb.and([eb('job.state', '=', 'running'), eb('job.leaseUntil', '<', at)]),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs as other')
              .select('other.id')
              .whereRef('other.subjectId', '=', 'job.subjectId')
              .where('other.state', '=', 'running')
              .where('other.leaseUntil', '>=', at)
              .whereRef('other.id', '<>', 'job.id'),
          ),
        ),
      )
      .orderBy((eb) => importTurn(eb))
      .orderBy('job.runAfter')
      .orderBy('job.createdAt')
      .limit(1);
    if (dialect.rowLocks) candidates = candidates.forUpdate().skipLocked();
    const candidate = await candidates.executeTakeFirst();
    if (candidate === undefined) return undefined;
    await dialect.lockUntilCommit(trx, `job-subject:${candidate.subjectId}`);
    // Under the subject's lock, a claim another worker committed meanwhile is visible.
    const running = await trx
      .selectFrom('jobs')
      .select('id')
      .where('subjectId', '=', candidate.subjectId)
      .where('state', '=', 'running')
      .where('leaseUntil', '>=', at)
      .where('id', '<>', candidate.id)
      .executeTakeFirst();
    if (running !== undefined) return 'subject-taken';
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
    if (candidate.kind === IMPORT_JOB) await takeTurn(trx, candidate.subjectId, at);
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

/**
 * Marks a held job done; false when this worker no longer holds it. Inside a transaction with the job's last writes it
 * makes them and the completion one step: on PostgreSQL the update locks the row, so no other worker claims the job
 * until the transaction ends, and then it is done.
 */
export async function completeJob(db: Kysely<DatabaseSchema>, jobId: string, workerId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'done', leaseUntil: null, updatedAt: now.toISOString() })
    .where('id', '=', jobId)
    .where('workerId', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What recording a failure did: the job runs again later, it was given up, or another worker holds it now. */
export type FailOutcome = 'retry' | 'given-up' | 'lost';

/**
 * Records a failure of a held job: it runs again after an exponential backoff (with jitter, so jobs that failed together
 * do not retry together) unless it is permanent or out of attempts.
 */
export async function failJob(
  db: Kysely<DatabaseSchema>,
  job: JobRow,
  workerId: string,
  error: string,
  permanent: boolean,
  now: Date,
): Promise<FailOutcome> {
  const retry = !permanent && job.attempts < MAX_ATTEMPTS;
  const backoffMs = Math.min(60_000, 1000 * 2 ** (job.attempts - 1)) * (0.5 + Math.random() / 2);
  const result = await db
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
    .where('state', '=', 'running')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return 'lost';
  return retry ? 'retry' : 'given-up';
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
