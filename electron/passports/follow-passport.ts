/**
 * Moves one passport file of a target's listing on: a file already in the ledger or older than the target is left
 * alone; any other is given to the request waiting for it, or followed as `found` when it is of one of the target's
 * formats. A generated file is downloaded, one whose generation failed or took too long fails its entry.
 */
import { timeoutMessage, type PassportContext, type TargetCheck } from './passport-context';
import type { StoredEntry } from './passport-model';
import { fileStatusMessage, type RemotePassport } from './passport-remote';
import { downloadPassport } from './download-passport';

/** The entry that follows the file, started or attributed now when there was none; undefined for a file not ours. */
async function entryFollowing(context: PassportContext, check: TargetCheck, remote: RemotePassport): Promise<StoredEntry | undefined> {
  const { records } = context;
  const { target } = check;
  const followed = records.entryOfFile(target, remote.id);
  if (followed !== undefined) return followed;
  if (target.preexisting?.includes(remote.id) === true) return undefined;
  // A request whose answer named no file takes the first new passport of its format.
  let entry = records.unattributedRequest(target, remote.format);
  if (entry !== undefined) {
    records.fileAttributed(entry, remote.id);
  } else if (target.formats.includes(remote.format)) {
    entry = records.addEntry(target, { format: remote.format, language: null, origin: 'found', state: 'generating', remoteFileId: remote.id });
  } else {
    return undefined;
  }
  await records.saveQuietly();
  return entry;
}

/** Moves one passport file of the target on: attributes it to an entry, then downloads it or notes its failure. */
export async function followPassport(context: PassportContext, check: TargetCheck, remote: RemotePassport): Promise<void> {
  const { records } = context;
  const { target, client, signal } = check;
  if (records.isSaved(target, remote.id)) return;
  const entry = await entryFollowing(context, check, remote);
  if (entry?.state !== 'generating') return;
  if (remote.ready) {
    await downloadPassport(context, check, entry, remote);
  } else if (remote.failed) {
    const message = await fileStatusMessage(client, target.subject, remote.id, signal);
    records.generationFailed(entry, message ?? 'The server could not generate the passport.');
    await records.saveQuietly();
  } else if (context.clock().getTime() - Date.parse(entry.stateSince) > context.generationTimeoutMs) {
    const message = await fileStatusMessage(client, target.subject, remote.id, signal);
    records.generationFailed(entry, `${timeoutMessage(context)}${message === null ? '' : ` Its last status: ${message}`}`);
    await records.saveQuietly();
  }
}
