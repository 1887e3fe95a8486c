/**
 * One attempt at an upload: create the remote file (unless it is recorded already, or the upload is a new version of an
 * existing one), record it, send the bytes, and mark the upload done. Every step is in the ledger before the next one
 * begins; a send repeated after a lost answer, or after a restart, first asks the server whether the bytes landed.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BuildingFileType } from '../../shared/api/enums';
import type { QueuedClient } from '../http/queued-client';
import { fileChunks, SourceGoneError } from './file-chunks';
import { UploadFailure } from './failure';
import type { UploadRecord } from './ledger';
import { createRemoteFile, isEmpty, readRemoteFile, sendContent, takesUpload, type RemoteFile } from './remote';
import type { SpoolStore } from './spool';
import { TransferRate } from './transfer-rate';
import { bytesOf, sourceProblem } from './upload-bytes';
import type { UploadRecords } from './upload-records';

/** What an attempt works with. */
export interface AttemptContext {
  records: UploadRecords;
  spools: SpoolStore;
  /** The queued client of a connection; undefined when the connection no longer exists. */
  clientFor(connectionId: string): QueuedClient | undefined;
  hasKey(connectionId: string): Promise<boolean>;
  log(message: string, error?: unknown): void;
}

/** What one pass got to. `file-gone`: the remote file it worked with was deleted meanwhile. */
type PassEnd = 'done' | 'file-gone' | UploadFailure;

/**
 * Whether the bytes of an upload are in the remote file already: the answer to the send was lost, or the host stopped
 * before it came. A file this upload created holds them once it is no longer empty; an existing file took them when it
 * changed since just before they were sent. Either way with this upload's size.
 */
export function hasLanded(record: UploadRecord, file: RemoteFile): boolean {
  if (isEmpty(file) || file.fileSize !== record.entry.size) return false;
  return record.createdRemote || (record.remoteStamp !== null && file.lastModifiedDate !== record.remoteStamp);
}

/** One attempt; a remote file of ours that was deleted meanwhile is made anew once. */
export async function attemptUpload(context: AttemptContext, uploadId: string, signal: AbortSignal): Promise<'done' | UploadFailure> {
  const { records } = context;
  try {
    for (let remade = 0; ; remade += 1) {
      const end = await attemptOnce(context, uploadId, signal);
      if (end !== 'file-gone') return end;
      const record = records.get(uploadId);
      if (!record.createdRemote) return new UploadFailure('refused', 'The file to add a version to no longer exists on the server.');
      if (remade >= 1) return new UploadFailure('refused', 'The file on the server was deleted while it was being uploaded.');
      // A new key: the old one would answer the deleted file again.
      records.setWhileRunning(uploadId, signal, { remoteFileId: null }, { createdRemote: false, createKey: randomUUID(), remoteStamp: null });
    }
  } catch (error) {
    if (error instanceof UploadFailure) return error;
    if (error instanceof SourceGoneError) return new UploadFailure('source-gone', error.message);
    if (signal.aborted) return new UploadFailure('stopped', 'The upload was stopped.');
    context.log('An upload attempt failed on an unexpected error.', error);
    return new UploadFailure('internal', 'Something went wrong in the app; the details are in its log.');
  }
}

async function attemptOnce(context: AttemptContext, uploadId: string, signal: AbortSignal): Promise<PassEnd> {
  const { records } = context;
  let record = records.get(uploadId);
  const { connectionId, target, fileName } = record.entry;
  const client = context.clientFor(connectionId);
  if (client === undefined) return new UploadFailure('refused', 'Its connection was removed, so the file cannot be sent.');
  if (!(await context.hasKey(connectionId))) {
    return new UploadFailure('no-key', 'This connection has no key; set one under Connections, then retry.');
  }
  const gone = await sourceProblem(record, context.spools);
  if (gone !== undefined) return new UploadFailure('source-gone', gone);

  let remote: RemoteFile;
  if (record.entry.remoteFileId === null) {
    record = records.setWhileRunning(uploadId, signal, { state: 'creating', problem: null });
    await records.save();
    remote = await createRemoteFile(client, target, fileName, record.createKey, signal);
    // Recorded before any byte is sent: a restart sends into this file instead of making another.
    records.setWhileRunning(uploadId, signal, { remoteFileId: remote.id }, { createdRemote: true, remoteStamp: remote.lastModifiedDate });
    await records.save();
  } else {
    const found = await readRemoteFile(client, target, record.entry.remoteFileId, signal);
    if (found === undefined) return 'file-gone';
    if (hasLanded(record, found)) return finish(context, uploadId, signal);
    if (!takesUpload(found)) return new UploadFailure('refused', busyReason(found));
    records.setWhileRunning(uploadId, signal, {}, { remoteStamp: found.lastModifiedDate });
    remote = found;
  }
  return sendInto(context, uploadId, client, remote, signal);
}

/** Sends the upload's bytes into its remote file, from the start. */
async function sendInto(context: AttemptContext, uploadId: string, client: QueuedClient, remote: RemoteFile, signal: AbortSignal): Promise<PassEnd> {
  const { records } = context;
  const record = records.setWhileRunning(uploadId, signal, { state: 'sending', problem: null, sentBytes: 0, bytesPerSecond: null, secondsLeft: null });
  await records.save();
  const { target, fileName, size } = record.entry;
  const lost = new AbortController();
  let lostMessage: string | undefined;
  const sendSignal = AbortSignal.any([signal, lost.signal]);
  const { file, growth } = bytesOf(record, context.spools);
  const body = (): Readable =>
    Readable.from(
      reportingLoss(fileChunks(file, size, growth, sendSignal, fileName), (message) => {
        lostMessage = message;
        lost.abort();
      }),
      { highWaterMark: 4 },
    );
  const rate = new TransferRate();
  rate.record(performance.now(), 0);
  try {
    await sendContent(client, target, {
      fileId: remote.id,
      fileName,
      body,
      size,
      onProgress: (progress) => records.progress(uploadId, signal, rate, progress.loaded),
      signal: sendSignal,
    });
  } catch (error) {
    if (lostMessage !== undefined) return new UploadFailure('source-gone', lostMessage);
    if (!(error instanceof UploadFailure)) throw error;
    if (error.kind === 'gone') return 'file-gone';
    if (error.kind !== 'busy') throw error;
    // A send repeated after a lost answer meets the bytes it sent before.
    const after = await readRemoteFile(client, target, remote.id, signal);
    if (after === undefined) return 'file-gone';
    if (hasLanded(records.get(uploadId), after)) return finish(context, uploadId, signal);
    return new UploadFailure('refused', busyReason(after));
  }
  return finish(context, uploadId, signal);
}

/** Passes a file's pieces on; tells `onLoss` when they cannot all be read, before the stream fails. */
async function* reportingLoss(chunks: AsyncGenerator<Uint8Array>, onLoss: (message: string) => void): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    if (error instanceof SourceGoneError) onLoss(error.message);
    throw error;
  }
}

/** Why a file takes no upload now, for the user. */
function busyReason(file: RemoteFile): string {
  if (file.type === BuildingFileType.Source) {
    return 'The file on the server is still being processed; a new version can be added once that has ended.';
  }
  return 'The file on the server has its content already; add the file as a new one.';
}

async function finish(context: AttemptContext, uploadId: string, signal: AbortSignal): Promise<'done'> {
  const record = context.records.finish(uploadId, signal);
  await context.records.save();
  if (record.source.kind === 'spool') await context.spools.remove(record.source.spoolId);
  return 'done';
}
