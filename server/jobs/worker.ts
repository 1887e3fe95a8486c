import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ServerContext } from '../context';
import type { DatabaseSchema } from '../store/tables';
import { ClaimLostError, claimNextJob, completeJob, failJob, releaseJob, renewLease, type JobRow, type LeaseSettings } from './claims';
import type { JobKind } from './queue';

/** A failure that retrying cannot fix (the input is wrong); the job is given up at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** What a running job gets: the server, its row, and a signal that fires when it lost its claim or the worker stops. */
export interface JobRun {
  ctx: ServerContext;
  job: JobRow;
  signal: AbortSignal;
  /**
   * Runs the job's last writes in one transaction that also marks the job done, so they happen once even when two
   * workers ran the job (the first one's lease expired while it was still at work): the one that no longer holds the
   * job gets `ClaimLostError` and its writes are rolled back.
   */
  finish<T>(work: (trx: Kysely<DatabaseSchema>) => Promise<T>): Promise<T>;
}

/** How one kind of job is run, and what is recorded when it is given up. */
export interface JobHandler {
  run(run: JobRun): Promise<void>;
  /** Called once when the job fails for good, so its subject shows why (e.g. a file in Error with the message). */
  giveUp(ctx: ServerContext, job: JobRow, message: string): Promise<void>;
}

/** Settings of a worker loop. */
export interface WorkerOptions extends LeaseSettings {
  /** How long to wait before looking again when no job was runnable. */
  pollMs: number;
  log(message: string, error?: unknown): void;
}

/** Defaults: a 15 s lease renewed every 3 s (a killed worker's job is free again within 15 s), a look for new jobs every half second. */
export const defaultWorkerOptions: Omit<WorkerOptions, 'log'> = { leaseMs: 15_000, heartbeatMs: 3_000, pollMs: 500 };

/** A running worker loop. */
export interface Worker {
  /** Looks for work now instead of at the next poll (an enqueue in this process calls it). */
  wake(): void;
  /** Stops claiming; the job in hand is aborted and left to be claimed again, and the loop ends. */
  stop(): Promise<void>;
}

/** The message of an error, for `lastError` and status messages. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs jobs one at a time: claim, run with a heartbeat, complete or fail. A job whose process dies keeps its lease
 * until it expires, then any worker claims it again, so every handler must be safe to run again from the start.
 */
export function startWorker(ctx: ServerContext, handlers: Readonly<Record<JobKind, JobHandler>>, options: WorkerOptions): Worker {
  const workerId = randomUUID();
  const stopping = new AbortController();
  let wakeUp: (() => void) | undefined;

  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wakeUp = undefined;
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
      wakeUp = done;
      stopping.signal.addEventListener('abort', done);
    });

  async function runOne(job: JobRow): Promise<void> {
    const handler = handlers[job.kind as JobKind];
    const lost = new AbortController();
    const signal = AbortSignal.any([lost.signal, stopping.signal]);
    const heartbeat = setInterval(() => {
      renewLease(ctx.db, job.id, workerId, ctx.now(), options).then(
        (held) => {
          if (!held) lost.abort(new Error('The job was claimed by another worker after its lease expired.'));
        },
        (error: unknown) => options.log('renewing a job lease failed', error),
      );
    }, options.heartbeatMs);
    const finish = <T>(work: (trx: Kysely<DatabaseSchema>) => Promise<T>): Promise<T> =>
      ctx.db.transaction().execute(async (trx) => {
        if (!(await completeJob(trx, job.id, workerId, ctx.now()))) throw new ClaimLostError(job.id);
        return work(trx);
      });
    try {
      if (handler === undefined) throw new PermanentJobError(`No handler for jobs of kind '${job.kind}'.`);
      await handler.run({ ctx, job, signal, finish });
      // A handler that ended without `finish` (nothing to do, or nothing that must happen once) is completed here.
      if (!signal.aborted) await completeJob(ctx.db, job.id, workerId, ctx.now());
    } catch (error) {
      // A stopped or superseded job is not a failure: a stopping worker hands it back, a superseded one lets it go.
      if (signal.aborted || error instanceof ClaimLostError) {
        if (stopping.signal.aborted && !lost.signal.aborted) await releaseJob(ctx.db, job.id, workerId, ctx.now());
        return;
      }
      const message = messageOf(error);
      const outcome = await failJob(ctx.db, job, workerId, message, error instanceof PermanentJobError, ctx.now());
      if (outcome === 'lost') return;
      if (!(error instanceof PermanentJobError)) options.log(`job ${job.kind} ${job.id} failed (attempt ${job.attempts})`, error);
      if (outcome === 'given-up' && handler !== undefined) await handler.giveUp(ctx, job, message);
    } finally {
      clearInterval(heartbeat);
    }
  }

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      let job: JobRow | undefined;
      try {
        job = await claimNextJob(ctx.db, ctx.dialect, workerId, ctx.now(), options);
      } catch (error) {
        options.log('claiming a job failed', error);
      }
      if (job === undefined) {
        await pause(options.pollMs);
        continue;
      }
      try {
        await runOne(job);
      } catch (error) {
        options.log(`recording the outcome of job ${job.id} failed`, error);
      }
    }
  })();

  return {
    wake: () => wakeUp?.(),
    stop: async () => {
      stopping.abort();
      await loop;
    },
  };
}
