/**
 * The API calls of an upload through the connection's queued client — create the remote file, read it, send its bytes,
 * delete it — for a building file or a portfolio file alike, with every outcome that is not the expected answer thrown
 * as an `UploadFailure` (`failure.ts`).
 */
import type { CallNetworkFailure, CallProblem } from '../../shared/api/client';
import { assertNever, BuildingFileStatuses, BuildingFileType } from '../../shared/api/enums';
import type { UploadTarget } from '../../shared/uploads';
import { acceptsUpload } from '../dropfolders/remote';
import type { ContentStreamFactory, QueuedClient, TransferProgress } from '../http/queued-client';
import { failureOf, UploadFailure } from './failure';

function valueOf<T>(result: { kind: 'ok'; value: T } | CallProblem | CallNetworkFailure): T {
  if (result.kind === 'ok') return result.value;
  throw failureOf(result);
}

/** A remote file as an upload needs to know it, a building's or a portfolio's. */
export interface RemoteFile {
  id: string;
  /** Creating (6) until content arrived; then Uploaded, or a building source file's processing statuses. */
  status: number;
  fileSize: number | null;
  lastModifiedDate: string;
  /** A building file's Source (0) or Information (1); a portfolio file's Information (1) or PassportPdf. */
  type: number;
}

function remoteOf(file: RemoteFile): RemoteFile {
  return { id: file.id, status: file.status, fileSize: file.fileSize, lastModifiedDate: file.lastModifiedDate, type: file.type };
}

/**
 * Creates the remote file. The Idempotency-Key makes a create repeated after a lost answer (by the queued client, or
 * after a restart) answer the first file again on servers that honour it, instead of making a second one.
 */
export async function createRemoteFile(client: QueuedClient, target: UploadTarget, fileName: string, idempotencyKey: string, signal: AbortSignal): Promise<RemoteFile> {
  const headers = { 'idempotency-key': idempotencyKey };
  switch (target.kind) {
    case 'building-file': {
      const body = { type: target.fileType, name: fileName, ...(target.tags === undefined ? {} : { tags: target.tags }) };
      const result = await client.call('createBuildingFile', { params: { buildingId: target.buildingId }, body, headers }, { signal });
      if (result.kind === 'problem' && result.status === 404) throw new UploadFailure('refused', 'The building no longer exists on the server.');
      return remoteOf(valueOf(result));
    }
    case 'portfolio-file': {
      const result = await client.call('createPortfolioFile', { params: { portfolioId: target.portfolioId }, body: { name: fileName }, headers }, { signal });
      if (result.kind === 'problem' && result.status === 404) throw new UploadFailure('refused', 'The portfolio no longer exists on the server.');
      return remoteOf(valueOf(result));
    }
    default:
      return assertNever(target, 'upload target');
  }
}

/** The remote file, or undefined when it no longer exists. */
export async function readRemoteFile(client: QueuedClient, target: UploadTarget, fileId: string, signal: AbortSignal): Promise<RemoteFile | undefined> {
  const result =
    target.kind === 'building-file'
      ? await client.call('getBuildingFile', { params: { buildingId: target.buildingId, fileId } }, { signal })
      : await client.call('getPortfolioFile', { params: { portfolioId: target.portfolioId, fileId } }, { signal });
  if (result.kind === 'problem' && result.status === 404) return undefined;
  return remoteOf(valueOf<RemoteFile>(result));
}

/** What one send of an upload's bytes is. */
export interface ContentSend {
  fileId: string;
  fileName: string;
  /** Opens the bytes anew for each attempt of the queued client. */
  body: ContentStreamFactory;
  size: number;
  onProgress: (progress: TransferProgress) => void;
  signal: AbortSignal;
}

/**
 * Sends the bytes into the remote file. A repeat after a lost answer is harmless: a file that took the bytes already
 * answers 409, which the caller checks against the file.
 */
export async function sendContent(client: QueuedClient, target: UploadTarget, send: ContentSend): Promise<void> {
  const { fileId, fileName, body, size, onProgress, signal } = send;
  const options = { signal, bodySize: size, onProgress, retryUnsafe: true };
  const result =
    target.kind === 'building-file'
      ? await client.call('uploadBuildingFile', { params: { buildingId: target.buildingId, fileId, fileName }, body }, options)
      : await client.call('uploadPortfolioFile', { params: { portfolioId: target.portfolioId, fileId, fileName }, body }, options);
  valueOf(result);
}

/** Deletes the remote file; one that is gone already counts as deleted. */
export async function deleteRemoteFile(client: QueuedClient, target: UploadTarget, fileId: string, signal: AbortSignal): Promise<void> {
  const result =
    target.kind === 'building-file'
      ? await client.call('deleteBuildingFile', { params: { buildingId: target.buildingId, fileId } }, { signal })
      : await client.call('deletePortfolioFile', { params: { portfolioId: target.portfolioId, fileId } }, { signal });
  if (result.kind === 'problem' && result.status === 404) return;
  valueOf(result);
}

/** Whether a remote file holds no content yet: Creating, which is 6 for building and portfolio files alike. */
export function isEmpty(file: RemoteFile): boolean {
  return file.status === BuildingFileStatuses.Creating;
}

/** Whether a file takes an upload now: an empty file, or a source file whose processing has ended. */
export function takesUpload(file: RemoteFile): boolean {
  return acceptsUpload(file.type === BuildingFileType.Source ? 'source' : 'information', file.status);
}
