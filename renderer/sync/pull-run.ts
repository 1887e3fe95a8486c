/**
 * One pull under way: what it was asked, what it skipped and kept, and how its calls end. A refusal or an answer of
 * the wrong shape is an issue and the caller skips that part; any other failure, or the signal, stops the pull.
 */
import type { CacheDb } from '../db/cache-db';
import type { PullProgress, RowRef, SyncIssue } from '../db/schema';
import { recordPullProgress } from '../db/sync-state';
import { callOperation, type OperationCall } from '../api/call-api';
import { classifyFailure, type ApiFailure } from '../api/failure';
import type { ApiPort } from '../api/port';
import { invalid, listOf } from './answers';

/** Unwinds a pull that must stop; carries what stopped it. */
export class PullStopped extends Error {
  constructor(readonly issue: SyncIssue) {
    super(issue.where);
    this.name = 'PullStopped';
  }
}

export interface PullRun {
  db: CacheDb;
  api: ApiPort;
  pageSize: number;
  signal: AbortSignal | undefined;
  onProgress: ((progress: PullProgress) => void) | undefined;
  at: () => string;
  issues: SyncIssue[];
  keptMissing: RowRef[];
}

/** Records a failure: a refusal is an issue and the caller skips its part; anything else stops the pull. */
export function fail(run: PullRun, where: string, failure: ApiFailure): void {
  const issue: SyncIssue = { at: run.at(), where, failure };
  if (classifyFailure(failure) !== 'rejected') throw new PullStopped(issue);
  run.issues.push(issue);
}

/** Stops the pull when its signal was aborted, before it makes another request. */
export function stopIfAborted(run: PullRun, where: string): void {
  if (run.signal?.aborted === true) {
    throw new PullStopped({ at: run.at(), where, failure: { kind: 'network', reason: 'aborted', message: 'The sync was stopped.' } });
  }
}

/** Runs a call of the pull; answers its value, or undefined when the server refused it (recorded by `fail`). */
export async function request(run: PullRun, where: string, call: OperationCall): Promise<unknown> {
  stopIfAborted(run, where);
  const outcome = await callOperation(run.api, call);
  if (outcome.ok) return outcome.value;
  fail(run, where, outcome.failure);
  return undefined;
}

export async function progress(run: PullRun, value: PullProgress, persist = true): Promise<void> {
  if (persist) await recordPullProgress(run.db, value);
  run.onProgress?.(value);
}

/** A list answer, or undefined after recording why there is none. */
export async function fetchList<T>(
  run: PullRun,
  where: string,
  call: OperationCall,
  key: string | null,
  check?: (item: Record<string, unknown>) => boolean,
): Promise<T[] | undefined> {
  const value = await request(run, where, call);
  if (value === undefined) return undefined;
  const list = listOf<T>(value, key, check);
  if (list === undefined) fail(run, where, invalid(where, `a list of ${key === null ? 'objects' : `objects with a string ${key}`}`));
  return list;
}
