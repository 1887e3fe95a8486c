/**
 * The uploads the page knows of, by id, as the host's ledger lists them and `uploads:changed` updates them: each change
 * makes a new map, so the store's shallow ref notices it. Which of them a page shows, and which server file each is about.
 */
import type { UploadEntry, UploadTarget } from '../../shared/uploads';
import { isLocalId } from '../db/schema';

/** Uploads by id, of every connection the page listed. */
export type UploadLedger = ReadonlyMap<string, UploadEntry>;

/** Whether an upload still runs: it waits, creates the file or sends. */
export function isRunning(entry: UploadEntry): boolean {
  return entry.state === 'waiting' || entry.state === 'creating' || entry.state === 'sending';
}

/** The server file an upload is about: the one it created, or the source file it gives a new version. */
export function uploadedFileId(entry: UploadEntry): string | null {
  if (entry.remoteFileId !== null) return entry.remoteFileId;
  return entry.target.kind === 'building-file' ? (entry.target.replaceFileId ?? null) : null;
}

/** The building or portfolio an upload goes to. */
function targetId(target: UploadTarget): string {
  return target.kind === 'building-file' ? target.buildingId : target.portfolioId;
}

/** The ledger with one upload as it now is. */
export function withEntry(ledger: UploadLedger, entry: UploadEntry): UploadLedger {
  const next = new Map(ledger);
  next.set(entry.id, entry);
  return next;
}

/** The ledger without an upload. */
export function withoutEntry(ledger: UploadLedger, uploadId: string): UploadLedger {
  const next = new Map(ledger);
  next.delete(uploadId);
  return next;
}

/** The ledger with a connection's uploads replaced by those the host listed for it. */
export function withListOf(ledger: UploadLedger, connectionId: string, listed: readonly UploadEntry[]): UploadLedger {
  const next = new Map([...ledger].filter(([, entry]) => entry.connectionId !== connectionId));
  for (const entry of listed) next.set(entry.id, entry);
  return next;
}

/** A connection's uploads, oldest first. */
export function uploadsOf(ledger: UploadLedger, connectionId: string | null): UploadEntry[] {
  return [...ledger.values()]
    .filter((entry) => entry.connectionId === connectionId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** Whether a building's or portfolio's page shows an upload: one that runs or failed, or that ended while the page followed it. */
export function isShownOn(entry: UploadEntry, kind: UploadTarget['kind'], id: string, endedHere: ReadonlySet<string>): boolean {
  return entry.target.kind === kind && targetId(entry.target) === id && (isRunning(entry) || entry.state === 'failed' || endedHere.has(entry.id));
}

/** Whether an upload ended here: cancelled or failed. */
export function hasStopped(ledger: UploadLedger, uploadId: string): boolean {
  const state = ledger.get(uploadId)?.state;
  return state === 'cancelled' || state === 'failed';
}

/** Where an upload cannot go: a building or portfolio created here is not on the server yet. */
export function notOnServer(target: UploadTarget): boolean {
  return isLocalId(targetId(target));
}
