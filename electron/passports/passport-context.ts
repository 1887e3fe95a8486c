/**
 * What checking, following and downloading passports work with, handed to them explicitly: the records (state, ledger
 * and the events the host hears), the way to the servers, the clock, how files are placed into a folder, and the
 * service's limits. `TargetCheck` is one check of one target: the target with its server's client and the signal
 * that stops the check when the service closes or the target is removed.
 */
import type { QueuedClient } from '../http/queued-client';
import type { PassportSubject } from '../../shared/passports';
import type { StoredTarget } from './passport-model';
import type { PassportRecords } from './passport-records';
import type { PlaceFunction, PlaceRetryPolicy } from './save-into-folder';

/** How a passport is placed into its folder (save-into-folder.ts); each is its default when left out. */
export interface FolderWriting {
  place?: PlaceFunction;
  placeRetry?: PlaceRetryPolicy;
  /** Waits between placement attempts; ends early when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Everything a check works with. */
export interface PassportContext {
  records: PassportRecords;
  /** The queued API client of a connection; may throw when the connection no longer exists. */
  clientFor(connectionId: string): QueuedClient | Promise<QueuedClient>;
  clock: () => Date;
  log: (message: string, error?: unknown) => void;
  folderWriting: FolderWriting;
  /** How long a source file must have been Mapped, with no file of its building in processing, before passports are requested. */
  mappedSettleMs: number;
  /** A passport still not generated after this long is given up. */
  generationTimeoutMs: number;
  /** The largest passport downloaded. */
  maxDownloadBytes: number;
}

/** One check of one target. */
export interface TargetCheck {
  target: StoredTarget;
  client: QueuedClient;
  signal: AbortSignal;
}

/** The name a passport file gets when the server gives the building or portfolio none. */
export function fallbackName(subject: PassportSubject): string {
  return subject.kind === 'building' ? 'Building' : 'Portfolio';
}

/** The message of a thrown value, for the user or the log. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a passport generating for longer than the service waits is given up. */
export function timeoutMessage(context: PassportContext): string {
  return `The server did not finish the passport within ${Math.round(context.generationTimeoutMs / 60_000)} minutes.`;
}
