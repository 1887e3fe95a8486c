/**
 * Claims of the job table with real workers on the database of the project (SQLite or PostgreSQL): every job runs to
 * completion once, jobs of one subject never run at the same time, and a worker that stopped renewing its lease loses
 * the job to another worker, after which nothing it does counts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultServerConfig, type ServerContext } from '../../../server/context';
import { createDownloadSigner } from '../../../server/downloads';
import { ClaimLostError, claimNextJob, completeJob, failJob, renewLease } from '../../../server/jobs/claims';
import { enqueueJob, type JobKind } from '../../../server/jobs/queue';
import { startWorker, type JobHandler, type JobRun } from '../../../server/jobs/worker';
import { FsBlobStore } from '../../../server/store/blobs';
import { openDatabase, type Database } from '../../../server/store/store';
import { createPortfolioWithBuilding, eventually, startTestServer } from './harness';
import { createTestDatabase, testDatabase } from './test-database';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/**
 * `count` connections to one new database: separate pools on PostgreSQL, as separate processes have; one shared
 * connection on SQLite, whose embedded server runs its workers in one process.
 */
async function databases(count: number): Promise<Database[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-claims-'));
  const database = await createTestDatabase();
  cleanup.push(async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  if (database.url === undefined) {
    const shared = await openDatabase(dataDir);
    cleanup.unshift(() => shared.close());
    return Array.from({ length: count }, () => shared);
  }
  const opened = await Promise.all(Array.from({ length: count }, () => openDatabase({ url: database.url ?? '' })));
  cleanup.unshift(async () => {
    await Promise.all(opened.map((each) => each.close()));
  });
  return opened;
}

/** A server context over a database, with a clock that `advance` moves. */
function contextOf(database: Database, clock: { offsetMs: number } = { offsetMs: 0 }): ServerContext {
  return {
    db: database.db,
    dialect: database.dialect,
    blobs: new FsBlobStore(path.join(tmpdir(), 'cd-claims-unused')),
    signer: createDownloadSigner(Buffer.alloc(32)),
    config: defaultServerConfig,
    now: () => new Date(Date.now() + clock.offsetMs),
  };
}

const lease = { leaseMs: 1_000, heartbeatMs: 200 };

describe(`job claims on ${testDatabase}`, () => {
  it('runs each of many jobs to completion once, with jobs of one subject one at a time, across four workers', async () => {
    const opened = await databases(4);
    // Fewer subjects than workers: without the rule, two workers would often run jobs of one subject together.
    const subjects = Array.from({ length: 3 }, (_, index) => `subject-${index}`);
    const first = contextOf(opened[0] as Database);
    const jobIds: string[] = [];
    for (let index = 0; index < 30; index++) {
      jobIds.push(await enqueueJob(first.db, { kind: 'process-building', subjectId: subjects[index % subjects.length] ?? '' }, first.now()));
    }

    const finished = new Map<string, number>();
    const runs: { subjectId: string; start: number; end: number }[] = [];
    const handler: JobHandler = {
      async run({ job, finish }: JobRun) {
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
        await finish(async () => {
          finished.set(job.id, (finished.get(job.id) ?? 0) + 1);
        });
        runs.push({ subjectId: job.subjectId, start, end: performance.now() });
      },
      giveUp: async () => undefined,
    };
    const handlers = Object.fromEntries(
      (['import-file', 'refine-file', 'process-building', 'building-passport-pdf', 'building-passport-excel', 'portfolio-passport'] as JobKind[]).map(
        (kind) => [kind, handler],
      ),
    ) as Record<JobKind, JobHandler>;
    const errors: unknown[] = [];
    const workers = opened.map((database) =>
      startWorker(contextOf(database), handlers, { ...lease, pollMs: 10, log: (message, error) => errors.push(error ?? message) }),
    );
    try {
      await eventually(
        () => first.db.selectFrom('jobs').select('state').where('state', '<>', 'done').execute(),
        (open) => open.length === 0,
        30_000,
      );
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }

    expect(errors).toEqual([]);
    expect([...finished.keys()].sort()).toEqual([...jobIds].sort());
    expect([...finished.values()].every((times) => times === 1)).toBe(true);
    const rows = await first.db.selectFrom('jobs').select(['state', 'attempts']).execute();
    expect(rows.every((row) => row.state === 'done' && row.attempts === 1)).toBe(true);
    for (const subjectId of subjects) {
      const ofSubject = runs.filter((run) => run.subjectId === subjectId).sort((a, b) => a.start - b.start);
      for (let index = 1; index < ofSubject.length; index++) {
        expect(ofSubject[index]?.start, `${subjectId} run ${index} started before the previous one ended`).toBeGreaterThanOrEqual(
          ofSubject[index - 1]?.end ?? 0,
        );
      }
    }
  }, 60_000);

  it('gives a job whose lease expired to another worker, and refuses what the first worker does afterwards', async () => {
    const [database] = await databases(1);
    const clock = { offsetMs: 0 };
    const ctx = contextOf(database as Database, clock);
    const first = await enqueueJob(ctx.db, { kind: 'import-file', subjectId: 'file-1' }, ctx.now());
    const claimed = await claimNextJob(ctx.db, ctx.dialect, 'stalled', ctx.now(), lease);
    expect(claimed).toMatchObject({ id: first, state: 'running', workerId: 'stalled', attempts: 1 });

    // The subject is busy: neither the held job nor the next job of the same file is given out.
    clock.offsetMs += 10;
    const next = await enqueueJob(ctx.db, { kind: 'refine-file', subjectId: 'file-1' }, ctx.now());
    expect(await claimNextJob(ctx.db, ctx.dialect, 'live', ctx.now(), lease)).toBeUndefined();

    // No heartbeat for longer than the lease: the job is claimable again, first in line.
    clock.offsetMs += lease.leaseMs + 1;
    const reclaimed = await claimNextJob(ctx.db, ctx.dialect, 'live', ctx.now(), lease);
    expect(reclaimed).toMatchObject({ id: first, workerId: 'live', attempts: 2 });

    // The stalled worker wakes up: it cannot renew, complete or fail the job any more.
    expect(await renewLease(ctx.db, first, 'stalled', ctx.now(), lease)).toBe(false);
    expect(await completeJob(ctx.db, first, 'stalled', ctx.now())).toBe(false);
    expect(await failJob(ctx.db, claimed ?? reclaimed ?? (undefined as never), 'stalled', 'late', false, ctx.now())).toBe('lost');

    expect(await completeJob(ctx.db, first, 'live', ctx.now())).toBe(true);
    expect(await claimNextJob(ctx.db, ctx.dialect, 'live', ctx.now(), lease)).toMatchObject({ id: next, attempts: 1 });
  });

  it('rolls back the last writes of a worker that lost its job while it was at work', async () => {
    const [database] = await databases(1);
    const clock = { offsetMs: 0 };
    const ctx = contextOf(database as Database, clock);
    const jobId = await enqueueJob(ctx.db, { kind: 'process-building', subjectId: 'building-1' }, ctx.now());

    let firstStarted: () => void = () => undefined;
    const firstRunning = new Promise<void>((resolve) => (firstStarted = resolve));
    let releaseFirst: () => void = () => undefined;
    const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstOutcome: (outcome: unknown) => void = () => undefined;
    const firstFinished = new Promise<unknown>((resolve) => (firstOutcome = resolve));
    let runCount = 0;
    const gaveUp: string[] = [];
    const handler: JobHandler = {
      async run({ finish }) {
        const run = ++runCount;
        if (run === 1) {
          firstStarted();
          await firstMayFinish;
        }
        await finish(async (trx) => {
          await trx.insertInto('server_settings').values({ name: `finished-run-${run}`, value: jobId }).execute();
        }).then(
          () => {
            if (run === 1) firstOutcome('finished');
          },
          (error: unknown) => {
            if (run === 1) firstOutcome(error);
            throw error;
          },
        );
      },
      giveUp: async (_ctx, job) => {
        gaveUp.push(job.id);
      },
    };
    const handlers = { 'process-building': handler } as unknown as Record<JobKind, JobHandler>;
    const logged: unknown[] = [];
    const log = (message: string, error?: unknown): void => {
      logged.push(error ?? message);
    };
    // The first worker never renews its lease in time: it stands for a process that hangs.
    const stalled = startWorker(ctx, handlers, { leaseMs: lease.leaseMs, heartbeatMs: 3_600_000, pollMs: 10, log });
    await firstRunning;
    clock.offsetMs += lease.leaseMs + 1;
    const live = startWorker(ctx, handlers, { ...lease, pollMs: 10, log });
    try {
      await eventually(
        () => ctx.db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', jobId).executeTakeFirstOrThrow(),
        (row) => row.state === 'done',
      );
      releaseFirst();
      expect(await firstFinished).toBeInstanceOf(ClaimLostError);
    } finally {
      await live.stop();
      await stalled.stop();
    }
    expect(await ctx.db.selectFrom('server_settings').select('name').where('value', '=', jobId).execute()).toEqual([{ name: 'finished-run-2' }]);
    expect(await ctx.db.selectFrom('jobs').select(['state', 'attempts']).execute()).toEqual([{ state: 'done', attempts: 2 }]);
    expect(gaveUp).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('takes import jobs round-robin by portfolio, so one portfolio\'s many uploads do not keep another\'s waiting', async () => {
    const test = await startTestServer();
    cleanup.push(() => test.close());
    const { db, dialect } = test.server.context;
    /** A new file in a building of the portfolio; returns its id. */
    const fileIn = async (buildingId: string): Promise<string> =>
      ((await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/files`, payload: { type: 0 } })).json() as { id: string }).id;
    const portfolios = { a: await createPortfolioWithBuilding(test), b: await createPortfolioWithBuilding(test), c: await createPortfolioWithBuilding(test) };
    let clock = Date.now();
    const tick = (): Date => new Date((clock += 1));
    const names = new Map<string, string>();
    // Portfolio a uploads four files, then b two, then c one.
    for (const [portfolio, count] of [['a', 4], ['b', 2], ['c', 1]] as const) {
      for (let index = 1; index <= count; index++) {
        const fileId = await fileIn(portfolios[portfolio].buildingId);
        names.set(await enqueueJob(db, { kind: 'import-file', subjectId: fileId }, tick()), `${portfolio}${index}`);
      }
    }
    // A building's recalculation queued meanwhile goes in order, as before.
    names.set(await enqueueJob(db, { kind: 'process-building', subjectId: portfolios.a.buildingId }, tick()), 'process');

    const order: string[] = [];
    for (;;) {
      const now = tick();
      const job = await claimNextJob(db, dialect, 'worker', now, lease);
      if (job === undefined) break;
      order.push(names.get(job.id) ?? job.id);
      expect(await completeJob(db, job.id, 'worker', now)).toBe(true);
    }
    expect(order).toEqual(['a1', 'b1', 'c1', 'process', 'a2', 'b2', 'a3', 'a4']);
  });
});
