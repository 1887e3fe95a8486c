/**
 * Saves one finished passport into its target's folder, exactly once: the content comes through a fresh signed
 * address (an expired one is replaced), at most `maxDownloadBytes` of it, and lands under its final name through
 * save-into-folder.ts; the ledger then holds it. A download that cannot be done now is carried on at the next check,
 * one that can never be done fails with the reason.
 */
import { assertNever } from '../../shared/api/enums';
import type { StoredEntry } from './passport-model';
import { fallbackName, type PassportContext, type TargetCheck } from './passport-context';
import { passportFileName } from './passport-names';
import { downloadLink, failureMessage, subjectName, type RemotePassport } from './passport-remote';
import { saveIntoFolder, SaveError, type WriteOutcome } from './save-into-folder';
import { SizeCapExceededError, sizeCappedWritable } from './size-capped-writable';

/** Download addresses fetched for one download before giving up: an expired one is replaced. */
const MAX_LINKS_PER_DOWNLOAD = 3;
/** An address this close to its expiry is not used. */
const LINK_EXPIRY_MARGIN_MS = 10_000;
/** Answers of a signed address that has expired (or whose signature the server no longer accepts). */
const EXPIRED_LINK_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 410]);

/** Why a download got no content: the server's answer (`status`) or none (offline), or a body over the size cap. */
interface DownloadFailure {
  message: string;
  status: number | undefined;
  tooLarge: boolean;
}

function sizeText(bytes: number): string {
  const mebibyte = 1024 * 1024;
  return bytes >= mebibyte ? `${Math.round(bytes / mebibyte)} MiB` : `${bytes} bytes`;
}

/** The building's or portfolio's name for a file name, refreshed from the server when it answers. */
export async function nameForFiles(context: PassportContext, check: TargetCheck): Promise<string> {
  const { target } = check;
  const read = await subjectName(check.client, target.subject, check.signal);
  if (read.ok && read.value !== '' && context.records.isCurrent(target)) context.records.renameTarget(target, read.value);
  return target.name ?? fallbackName(target.subject);
}

/** Writes a passport's content to `destination` through a fresh signed address, replacing one that expired. */
async function fetchContent(
  context: PassportContext,
  check: TargetCheck,
  remote: RemotePassport,
  destination: NodeJS.WritableStream,
): Promise<WriteOutcome<DownloadFailure>> {
  const { client, signal } = check;
  for (let links = 1; ; links += 1) {
    const link = await downloadLink(client, check.target.subject, remote.id, signal);
    if (!link.ok) return { kind: 'not-written', failure: { message: link.message, status: link.status, tooLarge: false } };
    const lastChance = links >= MAX_LINKS_PER_DOWNLOAD;
    if (link.value.expiresAt - LINK_EXPIRY_MARGIN_MS <= context.clock().getTime() && !lastChance) continue;
    const capped = sizeCappedWritable(destination, context.maxDownloadBytes);
    let outcome;
    try {
      outcome = await client.download(link.value.url, capped, { signal });
    } catch (error) {
      if (!(error instanceof SizeCapExceededError)) throw error;
      const message = `The passport is larger than ${sizeText(context.maxDownloadBytes)}, the most the app downloads: its download was stopped and nothing was saved.`;
      return { kind: 'not-written', failure: { message, status: undefined, tooLarge: true } };
    } finally {
      // A write still under way when the destination is discarded fails late; a destroyed cap drops that failure
      // instead of raising it where nobody listens.
      if (!capped.writableFinished) capped.destroy();
    }
    if (outcome.kind === 'ok') return { kind: 'written' };
    if (outcome.kind === 'problem' && EXPIRED_LINK_STATUSES.has(outcome.status) && !lastChance) continue;
    const status = outcome.kind === 'problem' ? outcome.status : undefined;
    return { kind: 'not-written', failure: { message: failureMessage(outcome), status, tooLarge: false } };
  }
}

/** Moves an entry on after a download that wrote nothing. */
function downloadNotWritten(context: PassportContext, check: TargetCheck, entry: StoredEntry, failure: DownloadFailure): void {
  const { message, status, tooLarge } = failure;
  if (tooLarge) {
    context.records.downloadFailed(entry, message);
  } else if (check.signal.aborted || status === 409) {
    // Stopped, or not ready after all: carried on at the next check.
    context.records.downloadPostponed(entry);
  } else if (status === undefined) {
    context.records.downloadInterrupted(entry, `Download not finished: ${message}`);
  } else {
    context.records.downloadFailed(entry, `The server refused the download: ${message}`);
  }
}

/** Saves one finished passport into the target's folder and records it in the ledger. */
export async function downloadPassport(context: PassportContext, check: TargetCheck, entry: StoredEntry, remote: RemotePassport): Promise<void> {
  const { records } = context;
  const { target } = check;
  const name = await nameForFiles(context, check);
  const generatedAt = Number.isNaN(Date.parse(remote.lastModifiedDate)) ? context.clock() : new Date(remote.lastModifiedDate);
  records.downloadStarted(entry);
  try {
    const result = await saveIntoFolder<DownloadFailure>({
      folder: target.folder,
      fileName: passportFileName(name, entry.format, generatedAt, fallbackName(target.subject)),
      beforeCreate: (temporaryPath) => records.temporaryFileChosen(entry, temporaryPath),
      write: (destination) => fetchContent(context, check, remote, destination),
      ...context.folderWriting,
      signal: check.signal,
    });
    switch (result.kind) {
      case 'saved':
        records.downloaded(entry, target, remote.id, result);
        break;
      case 'aborted':
        records.downloadPostponed(entry);
        break;
      case 'not-written':
        downloadNotWritten(context, check, entry, result.failure);
        break;
      default:
        assertNever(result, 'save result');
    }
  } catch (error) {
    if (!(error instanceof SaveError)) throw error;
    records.downloadFailed(entry, error.message);
  }
  await records.saveQuietly();
}
