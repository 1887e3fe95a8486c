/**
 * A building file's content saved where the user chose in the host's save dialog (`files:download`): streamed from its
 * signed download address into a hidden temporary file beside the target, flushed, then renamed over the target (the
 * dialog asked the user about replacing it). The content is never held in memory, and never half of it lies under the
 * chosen name.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { CallNetworkFailure, CallProblem } from '../../shared/api/client';
import { BridgeError } from '../../shared/ipc';
import type { QueuedClient } from '../http/queued-client';
import { temporaryFileName } from '../passports/passport-names';
import { plainReason } from './failure';

/** Which file to download. */
export interface BuildingFileRef {
  buildingId: string;
  fileId: string;
}

/** A failed call as a Bridge error in plain words. */
function downloadError(result: CallProblem | CallNetworkFailure): BridgeError {
  if (result.kind === 'network') {
    return new BridgeError('unavailable', 'The server cannot be reached; try the download again when it can.');
  }
  switch (result.status) {
    case 401:
    case 403:
      return new BridgeError('unavailable', 'The server did not let this connection’s key download the file.');
    case 404:
      return new BridgeError('not-found', 'This file no longer exists on the server.');
    case 409:
      return new BridgeError('conflict', plainReason(result.problem, 'This file has no content on the server yet.'));
    default:
      return new BridgeError('unavailable', plainReason(result.problem, 'The server could not hand out the file.'));
  }
}

/** Opens `file` for writing, failing if it exists; resolves once it is open, so a folder that refuses files fails here. */
function openExclusive(file: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const stream = createWriteStream(file, { flags: 'wx', flush: true });
    stream.once('error', reject);
    stream.once('open', () => {
      stream.removeListener('error', reject);
      resolve(stream);
    });
  });
}

function closed(stream: WriteStream): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve()));
}

function storageError(error: unknown, target: string): BridgeError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const folder = path.dirname(target);
  if (code === 'ENOSPC') return new BridgeError('storage-failed', `The disk that holds ${folder} is full; the file was not saved.`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new BridgeError('storage-failed', `The app may not write into ${folder}; choose another place.`);
  }
  return new BridgeError('storage-failed', `The file could not be saved in ${folder}.`);
}

/**
 * Downloads a building file into `target`; answers the bytes written. The signed address is taken as the server gives
 * it, or against `baseUrl` when it is relative.
 */
export async function downloadBuildingFile(client: QueuedClient, baseUrl: string, file: BuildingFileRef, target: string): Promise<{ path: string; bytes: number }> {
  const link = await client.call('getBuildingFileDownload', { params: file });
  if (link.kind !== 'ok') throw downloadError(link);
  const address = new URL(link.value.url, baseUrl).toString();
  const temporary = path.join(path.dirname(target), temporaryFileName(path.basename(target), randomBytes(6).toString('hex')));
  let stream: WriteStream;
  try {
    stream = await openExclusive(temporary);
  } catch (error) {
    throw storageError(error, target);
  }
  let placed = false;
  try {
    let result: Awaited<ReturnType<QueuedClient['download']>>;
    try {
      result = await client.download(address, stream);
    } catch (error) {
      throw storageError(error, target);
    }
    if (result.kind !== 'ok') throw downloadError(result);
    await closed(stream);
    try {
      await rename(temporary, target);
    } catch (error) {
      throw storageError(error, target);
    }
    placed = true;
    return { path: target, bytes: result.bytes };
  } finally {
    if (!placed) {
      stream.on('error', () => undefined);
      stream.destroy();
      await closed(stream);
      await rm(temporary, { force: true });
    }
  }
}
