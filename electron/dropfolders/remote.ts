/**
 * The API calls of drop folders, through a connection's queued client, with every outcome that is not the expected
 * answer turned into a `RemoteFailure` that says how to go on: wait and try again, give up, wait for the file, start
 * over because the remote thing is gone, or stop because the work was stopped. Only documented endpoints are used,
 * so drop folders work against any server that speaks the spec.
 */
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { CallNetworkFailure, CallProblem } from '../../shared/api/client';
import { assertNever, BuildingFileStatuses } from '../../shared/api/enums';
import type { BuildingFileResponse, BuildingFileStatusResponse } from '../../shared/api/schemas';
import type { QueuedClient, TransferProgress } from '../http/queued-client';
import type { DropFileKind } from '../../shared/dropfolders';
import { readInsideFolder } from './file-access';

/** The client drop folders call the server with. */
export type DropFolderClient = QueuedClient;

/**
 * How to go on after a failed call: `transient` (the network, 5xx, 429: later, with backoff), `permanent` (the
 * request is wrong or not allowed: give up with the reason), `conflict` (409: the file is busy), `gone` (404), or
 * `stopped` (our own abort).
 */
export type FailureKind = 'transient' | 'permanent' | 'conflict' | 'gone' | 'stopped';

/** A call that did not give the expected answer. */
export class RemoteFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RemoteFailure';
  }
}

/** Statuses of a source file whose processing has ended, and which therefore accept a new version (decisions §3). */
const ENDED_STATUSES: ReadonlySet<number> = new Set([
  BuildingFileStatuses.Mapped,
  BuildingFileStatuses.Error,
  BuildingFileStatuses.UnknownImportFile,
]);

/** Whether a file accepts an upload now: a new file, or a source file whose processing has ended. */
export function acceptsUpload(kind: DropFileKind, status: number): boolean {
  return status === BuildingFileStatuses.Creating || (kind === 'source' && ENDED_STATUSES.has(status));
}

function problemFailure(what: string, failure: CallProblem): RemoteFailure {
  const reason = failure.problem.detail !== '' ? failure.problem.detail : failure.problem.title;
  const message = `${what}: ${reason}`;
  const { status } = failure;
  if (status === 404) return new RemoteFailure('gone', message, status);
  if (status === 409) return new RemoteFailure('conflict', message, status);
  if (status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505)) {
    return new RemoteFailure('transient', message, status);
  }
  return new RemoteFailure('permanent', message, status);
}

function networkFailure(what: string, failure: CallNetworkFailure): RemoteFailure {
  const message = `${what}: ${failure.error.message}`;
  switch (failure.error.reason) {
    case 'unreachable':
    case 'timeout':
      return new RemoteFailure('transient', message);
    case 'aborted':
      return new RemoteFailure('stopped', message);
    case 'invalid-request':
    case 'invalid-response':
      return new RemoteFailure('permanent', message);
    default:
      return assertNever(failure.error.reason, 'network failure reason');
  }
}

/** The value of a successful call; any other outcome is thrown as a RemoteFailure. */
export function valueOf<T>(result: { kind: 'ok'; value: T } | CallProblem | CallNetworkFailure, what: string): T {
  switch (result.kind) {
    case 'ok':
      return result.value;
    case 'problem':
      throw problemFailure(what, result);
    case 'network':
      throw networkFailure(what, result);
    default:
      return assertNever(result, 'call result');
  }
}

/** The building named `name` in a portfolio, created when there is none (the oldest wins when several share the name). */
export async function findOrCreateBuilding(client: DropFolderClient, portfolioId: string, name: string, signal: AbortSignal): Promise<string> {
  const buildings = valueOf(
    await client.call('listPortfolioBuildings', { params: { id: portfolioId } }, { signal }),
    `Listing the buildings of portfolio ${portfolioId}`,
  );
  const found = buildings.find((building) => building.name === name);
  if (found !== undefined) return found.id;
  const created = valueOf(
    await client.call(
      'createBuilding',
      { body: { portfolioId, name }, headers: { 'idempotency-key': randomUUID() } },
      { signal, retryUnsafe: true },
    ),
    `Creating the building ${name}`,
  );
  return created.id;
}

/** A building file, or undefined when it no longer exists. */
export async function getFile(client: DropFolderClient, buildingId: string, fileId: string, signal: AbortSignal): Promise<BuildingFileResponse | undefined> {
  try {
    return valueOf(await client.call('getBuildingFile', { params: { buildingId, fileId } }, { signal }), 'Reading the file on the server');
  } catch (error) {
    if (error instanceof RemoteFailure && error.kind === 'gone') return undefined;
    throw error;
  }
}

/** The files of a building. */
export async function listFiles(client: DropFolderClient, buildingId: string, signal: AbortSignal): Promise<BuildingFileResponse[]> {
  return valueOf(await client.call('listBuildingFiles', { params: { buildingId } }, { signal }), `Listing the files of building ${buildingId}`);
}

/**
 * Creates a file. The Idempotency-Key lets the queued client repeat the request after a lost answer without a second
 * file on servers that honour it; elsewhere a lost answer is a failure, and the orphan is found again by its name.
 */
export async function createFile(
  client: DropFolderClient,
  buildingId: string,
  kind: DropFileKind,
  name: string,
  signal: AbortSignal,
): Promise<BuildingFileResponse> {
  return valueOf(
    await client.call(
      'createBuildingFile',
      { params: { buildingId }, body: { type: kind === 'source' ? 0 : 1, name }, headers: { 'idempotency-key': randomUUID() } },
      { signal, retryUnsafe: true },
    ),
    `Creating the file ${name} on the server`,
  );
}

/** What one upload sends. */
export interface UploadRequest {
  buildingId: string;
  fileId: string;
  fileName: string;
  /** The drop folder and the file's key in it. */
  folder: string;
  relativeKey: string;
  size: number;
}

/**
 * Streams a file from disk into a remote file; every attempt of the queued client opens it anew, and reads it only
 * when it is the folder's own (`openInsideFolder`). Answers 201 (source, processing scheduled) or 202 (information, stored).
 */
export async function uploadFile(
  client: DropFolderClient,
  request: UploadRequest,
  onProgress: (progress: TransferProgress) => void,
  signal: AbortSignal,
): Promise<void> {
  valueOf(
    await client.call(
      'uploadBuildingFile',
      {
        params: { buildingId: request.buildingId, fileId: request.fileId, fileName: request.fileName },
        body: () => Readable.from(readInsideFolder(request.folder, request.relativeKey, 256 * 1024)),
      },
      // A repeat after a lost answer is at worst a new version of the same content; the uploader checks before it
      // uploads again after a conflict.
      { signal, bodySize: request.size, onProgress, retryUnsafe: true },
    ),
    `Uploading ${request.fileName}`,
  );
}

/** A file's processing status. */
export async function getStatus(client: DropFolderClient, buildingId: string, fileId: string, signal: AbortSignal): Promise<BuildingFileStatusResponse> {
  return valueOf(await client.call('getBuildingFileStatus', { params: { buildingId, fileId } }, { signal }), 'Reading the processing status');
}

/** Activates a file, so it counts in the building's figures. */
export async function activateFile(client: DropFolderClient, buildingId: string, fileId: string, signal: AbortSignal): Promise<void> {
  valueOf(await client.call('setBuildingFileActive', { params: { buildingId, fileId }, body: true }, { signal }), 'Activating the file');
}
