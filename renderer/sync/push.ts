/**
 * The push: drains the outbox through the spec's endpoints (design: docs/sync.md, Push).
 *
 * Entries go in `seq` order per aggregate (a building, a portfolio, a catalogue item with its lists, a file's
 * elements); aggregates are independent. An update of a resource whose PUT replaces it entirely first reads the
 * server's row and merges (`conflict-policy.ts`): a field changed on both sides parks the entry as a conflict. A file's
 * element entries go as one batch: `setimporting` (unless Importing), each element as POST / PUT / DELETE,
 * `startrefinement`, the status polled until the file is settled, then the file's elements (and, once the building is
 * recalculated, its figures) pulled again. A record written before the first element request makes a push that stopped
 * anywhere resume from the file's server status.
 *
 * Retries are harmless: element ids are the client's, so a POST answered 409 becomes a PUT and a DELETE answered 404
 * is done; a create with a server id sends `Idempotency-Key: <opId>` with the body of its first attempt, and before
 * trying again lists the collection and takes a row of the same name the server made since, so even a server that
 * ignores the header makes no duplicate.
 *
 * Failures: no answer, 408, 429, 5xx, a host that cannot call, or 401/403 stop the push with the entry pending (the
 * host's queued client has already retried); any other refusal parks the entry with the server's problem details, and
 * the later entries of its aggregate wait while other aggregates go on. Nothing is dropped: an entry is removed only
 * in the transaction that writes the server's answer as its row's base.
 */
import type { PushProgress, SyncIssue } from '../db/schema';
import { pendingAggregates } from '../db/outbox';
import { filesWithRefinement, recordPushEnd, recordPushStart } from '../db/push-writes';
import { abortableSleep } from '../../shared/abortable-sleep';
import { DEFAULT_PAGE_SIZE } from './pull';
import { pushFile } from './push-file';
import { pushAggregate } from './push-resources';
import { PushStopped, type PushRun } from './push-run';
import type { SyncOptions } from './sync-options';

export { REFINEMENT_FAILED_PROBLEM_TYPE } from './push-refinement';

/** How a push runs. */
export interface PushOptions extends SyncOptions {
  /** Stops the push before its next request; what was acknowledged stays, the rest stays pending. */
  signal?: AbortSignal;
  /** Hears where the push is; file steps are also written to `syncState`. */
  onProgress?: (progress: PushProgress) => void;
  /** The wait between two status requests of a file the server is processing (default 1 s). */
  pollIntervalMs?: number;
  /** How long one file's processing is followed before the push leaves it to the next one (default 10 min). */
  pollTimeoutMs?: number;
  /** Elements per page when a file is pulled again (default 1000). */
  pageSize?: number;
  /** Waits between status requests (default: a timer that ends early when `signal` aborts). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * How a push ended. `done`: nothing stopped it; every entry that could go went, or was parked. `incomplete`: a failure
 * (or the signal) stopped it, and `retryable` says whether trying later may help (no answer, 5xx, 429) or the user must
 * act (401/403, a host that cannot call). `pushed`: entries the server acknowledged in this push; `parked`: entries
 * waiting for the user now. `lastError`: what stopped it, else the last refusal or failed refinement it met.
 */
export interface PushResult {
  status: 'done' | 'incomplete';
  pushed: number;
  parked: number;
  retryable: boolean;
  lastError?: SyncIssue;
}

const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_POLL_TIMEOUT_MS = 600_000;

/**
 * Pushes the outbox to the server. Resolves with how it ended; rejects only when the port throws something other than
 * `ApiPortError` or the cache fails (what was acknowledged before stays acknowledged).
 */
export async function push(options: PushOptions): Promise<PushResult> {
  const now = options.now ?? (() => new Date());
  const pollIntervalMs = Math.max(0, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const run: PushRun = {
    options: { db: options.db, api: options.api, now: options.now },
    signal: options.signal,
    onProgress: options.onProgress,
    pollIntervalMs,
    maxPolls: Math.ceil((options.pollTimeoutMs ?? DEFAULT_POLL_TIMEOUT_MS) / Math.max(1, pollIntervalMs)),
    pageSize: Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE)),
    sleep: options.sleep ?? abortableSleep,
    at: () => now().toISOString(),
    pushed: 0,
    lastIssue: null,
  };
  const { db } = options;
  await recordPushStart(db, run.at());
  const parkedNow = (): Promise<number> => db.outbox.where('state').equals('parked').count();
  try {
    for (;;) {
      const before = run.pushed;
      let blocked = false;
      const leftRefinements = new Set((await filesWithRefinement(db)).map((row) => row.fileId));
      for (const aggregate of await pendingAggregates(db)) {
        const isFile = aggregate.startsWith('file:');
        const fileId = aggregate.slice('file:'.length);
        if (isFile) leftRefinements.delete(fileId);
        const outcome = isFile ? await pushFile(run, fileId) : await pushAggregate(run, aggregate);
        if (outcome === 'blocked') blocked = true;
      }
      for (const fileId of leftRefinements) await pushFile(run, fileId);
      // Entries waiting for a row another aggregate created in this pass can go now.
      if (!blocked || run.pushed === before) break;
    }
  } catch (error) {
    const stopped = error instanceof PushStopped;
    const stoppedBy: SyncIssue = stopped
      ? error.issue
      : { at: run.at(), where: 'push', failure: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
    await recordPushEnd(db, { at: run.at(), stoppedBy, lastIssue: run.lastIssue });
    if (!stopped) throw error;
    return { status: 'incomplete', pushed: run.pushed, parked: await parkedNow(), retryable: error.retryable, lastError: stoppedBy };
  }
  await recordPushEnd(db, { at: run.at(), stoppedBy: null, lastIssue: run.lastIssue });
  const result: PushResult = { status: 'done', pushed: run.pushed, parked: await parkedNow(), retryable: false };
  if (run.lastIssue !== null) result.lastError = run.lastIssue;
  return result;
}
