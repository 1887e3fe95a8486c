/**
 * The pull: makes the cache equal to the server using only the spec's endpoints (design: docs/sync.md).
 *
 * Lists first (portfolios, buildings, classification methods, materials, products, then each building's files), each
 * applied whole in one transaction. Then the elements of each file that is new or whose `lastModifiedDate` moved, in
 * pages of `$orderby=id&$top&$skip` staged with their cursor, swapped in when the last page arrived. The next pages
 * are asked for while one is written; pages are written one at a time and in order, so the cursor only moves over
 * written pages. Then the figures of buildings whose files, `isDirty` or `mostRecentBimInfo` say they changed. A resync
 * that finds nothing new costs one request per collection and one per building.
 *
 * Failures: no answer, 408, 429, 5xx, a host that cannot call, or 401/403 stop the pull (cursors and everything applied
 * so far stay; the result says it is incomplete). Any other refusal or an answer of the wrong shape skips that one
 * collection, which is reported and never half-applied. A page asked for ahead counts only in its turn: its failure
 * stops or skips once the pages before it are written, and its answer is dropped unread when the pull stopped first.
 */
import type { PullProgress, RowRef, SyncIssue } from '../db/schema';
import type { ElementsDue } from '../db/apply-pull';
import { recordPullEnd, recordPullStart } from '../db/sync-state';
import { classifyFailure } from '../api/failure';
import { pullElements } from './pull-elements';
import { pullFiles } from './pull-files';
import { pullDueFigures } from './pull-figures';
import { pullLists } from './pull-lists';
import { PullStopped, type PullRun } from './pull-run';
import { clockOf, type SyncOptions } from './sync-options';

export { fillCatalogueDetails, pullMaterialDetails, pullProductDetails, type FillResult } from './catalogue-details';
export type { FetchOutcome } from './fetch-outcome';
export { pullBuildingFigures } from './pull-figures';
export { pullFileStatus } from './pull-file-status';
export type { SyncOptions } from './sync-options';

/** Elements per page: fewer, larger pages cost the server fewer deep `$skip` walks (test/bench/initial-sync.bench.ts). */
export const DEFAULT_PAGE_SIZE = 2000;

/** How a pull runs. */
export interface PullOptions extends SyncOptions {
  /** Elements per page (default `DEFAULT_PAGE_SIZE`). A changed size restarts unfinished files from their first page. */
  pageSize?: number;
  /** Hears where the pull is; the same progress is written to `syncState`. */
  onProgress?: (progress: PullProgress) => void;
  /** Stops the pull before its next request, as an incomplete pull that can be resumed. */
  signal?: AbortSignal;
}

/** How a pull ended. `issues`: the collections it skipped; `keptMissing`: rows kept for their local changes. */
export type PullResult =
  | { status: 'complete'; issues: SyncIssue[]; keptMissing: RowRef[] }
  | {
      status: 'incomplete';
      stoppedBy: SyncIssue;
      /** True when trying again later may succeed (no answer, 5xx, 429); false when the user must act (401/403, host). */
      retryable: boolean;
      issues: SyncIssue[];
      keptMissing: RowRef[];
    };

function newRun(options: PullOptions): PullRun {
  return {
    db: options.db,
    api: options.api,
    pageSize: Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE)),
    signal: options.signal,
    onProgress: options.onProgress,
    at: clockOf(options),
    issues: [],
    keptMissing: [],
  };
}

/**
 * Pulls everything the connection's key sees into the cache. Resolves with how it ended; rejects only when the port
 * throws something other than `ApiPortError` or the cache fails (what was applied before stays, cursors included).
 */
export async function pull(options: PullOptions): Promise<PullResult> {
  const run = newRun(options);
  await recordPullStart(run.db, run.at());
  try {
    const buildingIds = await pullLists(run);
    const due = await pullFiles(run, buildingIds);
    for (const each of due) await pullElements(run, each);
    await pullDueFigures(run);
  } catch (error) {
    const stoppedBy: SyncIssue =
      error instanceof PullStopped
        ? error.issue
        : { at: run.at(), where: 'pull', failure: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
    await recordPullEnd(run.db, { at: run.at(), stoppedBy, issues: run.issues, keptMissing: run.keptMissing });
    if (!(error instanceof PullStopped)) throw error;
    const retryable = classifyFailure(stoppedBy.failure) === 'transient';
    return { status: 'incomplete', stoppedBy, retryable, issues: run.issues, keptMissing: run.keptMissing };
  }
  await recordPullEnd(run.db, { at: run.at(), stoppedBy: null, issues: run.issues, keptMissing: run.keptMissing });
  return { status: 'complete', issues: run.issues, keptMissing: run.keptMissing };
}

/**
 * Pulls one file's elements now, as the pull does (a cursor of the same stamp is resumed); the push calls it after its
 * changes to a file were refined. Answers what stopped or skipped it, or null when the file's elements are in place.
 */
export async function pullFileElements(options: PullOptions, due: ElementsDue): Promise<SyncIssue | null> {
  const run = newRun(options);
  try {
    await pullElements(run, due);
  } catch (error) {
    if (error instanceof PullStopped) return error.issue;
    throw error;
  }
  return run.issues[0] ?? null;
}
