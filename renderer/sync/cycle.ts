/**
 * One sync cycle of a connection: push the outbox, then pull (design: docs/sync.md, "Scheduling").
 *
 * Push goes first so that the pull brings back the server's answer to the user's changes. A push that stopped (no
 * answer, 5xx, 429, 401/403, a host that cannot call) ends the cycle before the pull: the server is unreachable or
 * refuses this key, so a pull would fail the same way, and the scheduler's backoff decides when to try again. Parked
 * entries do not stop the cycle; they wait for the user while everything else syncs.
 *
 * The cycle never throws (the scheduler's contract): a push or pull that throws (the cache failing, a bug) ends it as
 * a failure that retrying by itself will not fix.
 */
import type { CacheDb } from '../db/cache-db';
import type { PullProgress, PushProgress, SyncIssue } from '../db/schema';
import { failureMessage } from '../api/failure';
import type { ApiPort } from '../api/port';
import type { PullOptions, PullResult } from './pull';
import type { SyncCycleOutcome } from './scheduler';

/** What the cycle reads of a push's result (the shape `push` answers). */
export interface PushSummary {
  status: 'done' | 'incomplete';
  pushed: number;
  parked: number;
  /** For an incomplete push: whether trying again later may succeed. */
  retryable: boolean;
  lastError?: SyncIssue;
}

/** How a cycle runs its push. */
export interface PushCallOptions {
  db: CacheDb;
  api: ApiPort;
  signal?: AbortSignal;
  onProgress?: (progress: PushProgress) => void;
  now?: () => Date;
}

/** The push a cycle runs: drains the outbox of `db` through `api`. */
export type PushFunction = (options: PushCallOptions) => Promise<PushSummary>;

/** The pull a cycle runs. */
export type PullFunction = (options: PullOptions) => Promise<PullResult>;

/** The part of a cycle that runs. */
export type SyncPhase = 'push' | 'pull';

/** What one cycle works with. */
export interface SyncCycleOptions {
  db: CacheDb;
  api: ApiPort;
  push: PushFunction;
  pull: PullFunction;
  /** Stops push and pull before their next request (the connection was left). */
  signal?: AbortSignal;
  /** Hears when the push and then the pull begin. */
  onPhase?: (phase: SyncPhase) => void;
  /** Hears where the push is. */
  onPushProgress?: (progress: PushProgress) => void;
  /** Hears where the pull is. */
  onPullProgress?: (progress: PullProgress) => void;
  /** The clock of the timestamps (default: the system's). */
  now?: () => Date;
}

/** How a cycle went: the scheduler's outcome, and the push's and pull's own results. */
export interface SyncCycleReport {
  outcome: SyncCycleOutcome;
  /** The push's result; null when the push threw. */
  push: PushSummary | null;
  /** The pull's result; null when the cycle ended before the pull, or the pull threw. */
  pull: PullResult | null;
  /** What made the cycle fail; null when it did not. */
  error: SyncIssue | null;
  finishedAt: string;
}

function thrownIssue(where: string, error: unknown, at: string): SyncIssue {
  return { at, where, failure: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
}

function failed(issue: SyncIssue, retryable: boolean): SyncCycleOutcome {
  return { kind: 'failed', retryable, message: failureMessage(issue.failure) };
}

/** Runs one cycle: push, then (unless the push stopped) pull. Resolves with how it went; never rejects. */
export async function runSyncCycle(options: SyncCycleOptions): Promise<SyncCycleReport> {
  const now = options.now ?? (() => new Date());
  const at = (): string => now().toISOString();
  const { db, api, signal } = options;

  options.onPhase?.('push');
  let push: PushSummary;
  try {
    push = await options.push({ db, api, signal, onProgress: options.onPushProgress, now: options.now });
  } catch (error) {
    const issue = thrownIssue('push', error, at());
    return { outcome: failed(issue, false), push: null, pull: null, error: issue, finishedAt: at() };
  }
  if (push.status === 'incomplete') {
    const issue = push.lastError ?? thrownIssue('push', 'The push stopped without saying why.', at());
    return { outcome: failed(issue, push.retryable), push, pull: null, error: issue, finishedAt: at() };
  }

  options.onPhase?.('pull');
  let pull: PullResult;
  try {
    pull = await options.pull({ db, api, signal, onProgress: options.onPullProgress, now: options.now });
  } catch (error) {
    const issue = thrownIssue('pull', error, at());
    return { outcome: failed(issue, false), push, pull: null, error: issue, finishedAt: at() };
  }
  if (pull.status === 'incomplete') {
    return { outcome: failed(pull.stoppedBy, pull.retryable), push, pull, error: pull.stoppedBy, finishedAt: at() };
  }
  // Collections the server refused were skipped and are reported by the pull; retrying them unchanged cannot help, so
  // the cycle itself counts as done.
  return { outcome: { kind: 'ok' }, push, pull, error: null, finishedAt: at() };
}
