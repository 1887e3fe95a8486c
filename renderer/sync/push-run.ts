/**
 * One push under way: what it was asked and what it has done so far, and the steps every entry takes: a call that
 * stops the push when the server cannot be reached or the user must act, parking an entry, acknowledging one.
 */
import type { EditedEntity } from '../db/entities';
import { containsString } from '../db/field-paths';
import { acknowledgeEntry, parkEntry, recordEntryFailure, recordPushProgress } from '../db/push-writes';
import { isLocalId, type EditConflict, type OutboxEntry, type PushProgress, type SyncIssue } from '../db/schema';
import { callOperation, type OperationCall } from '../api/call-api';
import { classifyFailure, type ApiFailure } from '../api/failure';
import type { ApiOutcome } from '../api/outcome';
import type { SyncOptions } from './sync-options';

/** Unwinds a push that must stop; carries what stopped it. */
export class PushStopped extends Error {
  constructor(
    readonly issue: SyncIssue,
    readonly retryable: boolean,
  ) {
    super(issue.where);
    this.name = 'PushStopped';
  }
}

export interface PushRun {
  options: SyncOptions;
  signal: AbortSignal | undefined;
  onProgress: ((progress: PushProgress) => void) | undefined;
  pollIntervalMs: number;
  maxPolls: number;
  pageSize: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  at: () => string;
  pushed: number;
  lastIssue: SyncIssue | null;
}

/** An entry of a table the edit functions change. */
export type EditEntry = OutboxEntry & { entity: EditedEntity };

/** What became of one entry: acknowledged (its key may have become the server's id), parked, or waiting for a new row. */
export type Step = { kind: 'acked'; key: string } | { kind: 'parked' } | { kind: 'blocked' };

/** What became of an aggregate: all sent, waiting behind a parked entry, or waiting for another aggregate's create. */
export type AggregateOutcome = 'done' | 'waiting' | 'blocked';

export function stopIfAborted(run: PushRun, where: string): void {
  if (run.signal?.aborted === true) {
    throw new PushStopped({ at: run.at(), where, failure: { kind: 'network', reason: 'aborted', message: 'The sync was stopped.' } }, true);
  }
}

/**
 * Runs a call. A failure that is not a refusal stops the push (recorded on `entry`, which stays pending); a refusal is
 * answered for the caller to park or report.
 */
export async function send(run: PushRun, where: string, call: OperationCall, entry?: OutboxEntry): Promise<ApiOutcome<unknown>> {
  stopIfAborted(run, where);
  const outcome = await callOperation(run.options.api, call);
  if (outcome.ok) return outcome;
  const failureClass = classifyFailure(outcome.failure);
  if (failureClass === 'rejected') return outcome;
  const issue: SyncIssue = { at: run.at(), where, failure: outcome.failure };
  if (entry !== undefined) await recordEntryFailure(run.options.db, entry.seq, issue);
  throw new PushStopped(issue, failureClass === 'transient');
}

export function isStatus(failure: ApiFailure, status: number): boolean {
  return failure.kind === 'problem' && failure.status === status;
}

export async function park(run: PushRun, entry: OutboxEntry, where: string, failure: ApiFailure, conflict: EditConflict | null = null): Promise<Step> {
  const issue: SyncIssue = { at: run.at(), where, failure };
  await parkEntry(run.options.db, entry.seq, issue, conflict);
  run.lastIssue = issue;
  return { kind: 'parked' };
}

export async function acknowledge(run: PushRun, entry: EditEntry, server: unknown): Promise<Step> {
  const key = await acknowledgeEntry(run.options.db, entry, server, run.at());
  run.pushed += 1;
  run.onProgress?.({ phase: 'entries', pushed: run.pushed, remaining: await run.options.db.outbox.where('state').equals('pending').count() });
  return { kind: 'acked', key };
}

export async function progress(run: PushRun, value: PushProgress): Promise<void> {
  await recordPushProgress(run.options.db, value);
  run.onProgress?.(value);
}

/** Whether a request refers to a row the server has not made yet (its entry then waits for that row's create). */
export function refersToLocalRow(value: unknown): boolean {
  return containsString(value, isLocalId);
}
