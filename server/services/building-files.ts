import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type {
  BuildingFileRequest,
  BuildingFileResponse,
  BuildingFileStatusResponse,
  BuildingFileValidation,
  FileDownloadResponse,
  BuildingFileSettings,
} from '../../shared/api';
import { BuildingFileStatuses, BuildingFileType, BuildingRequestFileType, enumValue } from '../../shared/api';
import { withFileActive } from '../../shared/status-messages';
import type { Principal } from '../auth/principal';
import { createCatalogue } from '../calc/inputs';
import { validationFigures } from '../calc/validation';
import type { ServerContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { enqueueJob } from '../jobs/queue';
import { parseJsonColumn } from '../store/repositories/json';
import type { BuildingFilesTable, DatabaseSchema } from '../store/tables';
import { getBuildingRow } from './buildings';
import { checkedFileName } from './file-names';
import { signedDownload } from './download-links';
import { storeThenSwitch } from './blob-switch';

/** A building file row as stored. */
export type BuildingFileRow = BuildingFilesTable;

/** Validation figures before any have been computed: those of no elements (decisions §8: zero elements → 0). */
export function emptyValidation(): BuildingFileValidation {
  return validationFigures([], createCatalogue());
}

/** The wire shape of a building file. */
export function toBuildingFileResponse(row: BuildingFileRow): BuildingFileResponse {
  return {
    buildingId: row.buildingId,
    isActive: row.isActive === 1,
    isDirty: row.isDirty === 1,
    fileName: row.fileName,
    fileSize: row.fileSize,
    status: row.status as BuildingFileResponse['status'],
    type: row.type as BuildingFileResponse['type'],
    lastModifiedDate: row.lastModifiedDate,
    tags: parseJsonColumn<string[]>(row.tags, 'building_files.tags'),
    validation:
      row.validation === null ? emptyValidation() : parseJsonColumn<BuildingFileValidation>(row.validation, 'building_files.validation'),
    id: row.id,
  };
}

/** The status of a building file as answered. */
export function toBuildingFileStatus(row: BuildingFileRow): BuildingFileStatusResponse {
  return {
    status: row.status as BuildingFileStatusResponse['status'],
    elementProcessedCount: row.elementProcessedCount,
    elementCount: row.elementCount,
    statusMessage: row.statusMessage,
    id: row.id,
  };
}

/** A file of a building in the caller's scope, else 404. */
export async function getBuildingFileRow(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
): Promise<BuildingFileRow> {
  await getBuildingRow(ctx, principal, buildingId);
  const row = await ctx.db
    .selectFrom('building_files')
    .selectAll()
    .where('id', '=', fileId)
    .where('buildingId', '=', buildingId)
    .executeTakeFirst();
  if (row === undefined) throw notFound('Building file', fileId);
  return row;
}

/** The files of a building, in creation order. */
export async function listBuildingFiles(ctx: ServerContext, principal: Principal, buildingId: string): Promise<BuildingFileResponse[]> {
  await getBuildingRow(ctx, principal, buildingId);
  const rows = await ctx.db
    .selectFrom('building_files')
    .selectAll()
    .where('buildingId', '=', buildingId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map(toBuildingFileResponse);
}

/** Checks that preferred databases are ones the account may use. */
async function checkedPreferredDatabases(ctx: ServerContext, principal: Principal, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const allowed = new Set(
    (
      await ctx.db.selectFrom('account_databases').select('databaseAccountId').where('accountId', '=', principal.accountId).execute()
    ).map((row) => row.databaseAccountId),
  );
  allowed.add(principal.accountId);
  ids.forEach((id, index) => {
    if (!allowed.has(id)) {
      throw badRequest(`preferredAccountIds[${index}]: '${id}' is not a database this account may use.`, [
        { path: `preferredAccountIds.${index}`, message: 'unknown database' },
      ]);
    }
  });
  return [...new Set(ids)];
}

/** Creates a source or information file in Creating (decisions §3). */
export async function createBuildingFile(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  request: BuildingFileRequest,
): Promise<BuildingFileResponse> {
  await getBuildingRow(ctx, principal, buildingId);
  const type = request.type === undefined || request.type === null ? BuildingRequestFileType.Source : enumValue(BuildingRequestFileType, request.type);
  if (type === undefined) throw badRequest('type must be 0 (source) or 1 (information).', [{ path: 'type', message: 'unknown type' }]);
  const fileName = request.name === undefined || request.name === null ? '' : checkedFileName(request.name, 'name');
  const now = ctx.now().toISOString();
  const row: BuildingFileRow = {
    id: randomUUID(),
    buildingId,
    type,
    fileName,
    fileSize: 0,
    status: BuildingFileStatuses.Creating,
    statusMessage: 'Created; waiting for an upload.',
    isActive: 0,
    isDirty: 0,
    lastModifiedDate: now,
    tags: JSON.stringify(request.tags ?? []),
    preferredAccountIds: JSON.stringify(await checkedPreferredDatabases(ctx, principal, request.preferredAccountIds ?? [])),
    validation: null,
    elementProcessedCount: 0,
    elementCount: 0,
    blobKey: null,
    contentType: null,
    language: null,
    createdAt: now,
    rejectedRows: '[]',
    rejectedCount: 0,
    partFindings: null,
  };
  await ctx.db.insertInto('building_files').values(row).execute();
  return toBuildingFileResponse(row);
}

/** Marks a building dirty and schedules its recalculation (decisions §3). */
export async function markBuildingDirty(db: Kysely<DatabaseSchema>, buildingId: string, now: Date): Promise<void> {
  await db.updateTable('buildings').set({ isDirty: 1, updatedAt: now.toISOString() }).where('id', '=', buildingId).execute();
  const queued = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', 'process-building')
    .where('subjectId', '=', buildingId)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  // One queued recalculation covers every change made before it runs.
  if (queued === undefined) await enqueueJob(db, { kind: 'process-building', subjectId: buildingId }, now);
}

/** Deletes a file with its elements and content; an active file makes its building dirty. */
export async function deleteBuildingFile(ctx: ServerContext, principal: Principal, buildingId: string, fileId: string): Promise<void> {
  const row = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('jobs').where('subjectId', '=', fileId).execute();
    await trx.deleteFrom('building_files').where('id', '=', fileId).execute();
    if (row.isActive === 1) await markBuildingDirty(trx, buildingId, ctx.now());
  });
  await ctx.blobs.deletePrefix(`buildings/${buildingId}/files/${fileId}`);
}

/** A signed, expiring address of the file's content; 409 while it has none. */
export async function buildingFileDownload(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  baseUrl: string,
): Promise<FileDownloadResponse> {
  const row = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  if (row.blobKey === null) throw conflict(`The file has no content yet (status ${row.status}).`);
  return signedDownload(ctx, baseUrl, { blobKey: row.blobKey, fileName: row.fileName, contentType: row.contentType });
}

/** Activates or deactivates a file; the building becomes dirty and is recalculated. */
export async function setBuildingFileActive(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  active: boolean,
): Promise<BuildingFileResponse> {
  const row = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  const isActive = active ? 1 : 0;
  // The summary says whether the file's elements count; how many do, or would, does not change.
  const statusMessage = withFileActive(row.statusMessage, active);
  if (row.isActive !== isActive) {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('building_files').set({ isActive, statusMessage }).where('id', '=', fileId).execute();
      await markBuildingDirty(trx, buildingId, ctx.now());
    });
  }
  return toBuildingFileResponse(row.isActive !== isActive ? { ...row, isActive, statusMessage } : row);
}

/** Statuses from which a file may be set to Importing (decisions §3). */
const importableFrom = new Set<number>([
  BuildingFileStatuses.Creating,
  BuildingFileStatuses.Mapped,
  BuildingFileStatuses.Refined,
  BuildingFileStatuses.Imported,
  BuildingFileStatuses.Error,
]);

/** Sets a source file to Importing, so elements can be created, replaced and deleted. */
export async function setBuildingFileImporting(ctx: ServerContext, principal: Principal, buildingId: string, fileId: string): Promise<void> {
  const row = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  if (row.type !== BuildingFileType.Source) throw conflict('Only a source file holds elements; this is not a source file.');
  if (row.status === BuildingFileStatuses.Importing) return;
  if (!importableFrom.has(row.status)) {
    throw conflict(`A file in status ${row.status} cannot be set to Importing; wait until its processing has ended.`);
  }
  const result = await ctx.db
    .updateTable('building_files')
    .set({ status: BuildingFileStatuses.Importing, statusMessage: 'Importing: elements can be created, replaced and deleted.' })
    .where('id', '=', fileId)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw conflict('The file changed status meanwhile; try again.');
}

/** Starts refinement of an Importing or Imported file that has elements (202; the job does the work). */
export async function startBuildingFileRefinement(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
): Promise<void> {
  const row = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  if (row.status !== BuildingFileStatuses.Importing && row.status !== BuildingFileStatuses.Imported) {
    throw conflict(`Refinement starts from Importing or Imported; the file is in status ${row.status}.`);
  }
  await ctx.db.transaction().execute(async (trx) => {
    const { count } = await trx
      .selectFrom('elements')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('buildingFileId', '=', fileId)
      .executeTakeFirstOrThrow();
    if (Number(count) === 0) throw conflict('The file has no elements to refine.');
    const result = await trx
      .updateTable('building_files')
      .set({
        status: BuildingFileStatuses.Refining,
        statusMessage: 'Refinement queued.',
        elementProcessedCount: 0,
        elementCount: Number(count),
      })
      .where('id', '=', fileId)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw conflict('The file changed status meanwhile; try again.');
    await enqueueJob(trx, { kind: 'refine-file', subjectId: fileId }, ctx.now());
  });
}

/** Statuses in which a source file accepts an upload: its first, or a new version (decisions §3). */
const sourceUploadableFrom = new Set<number>([
  BuildingFileStatuses.Creating,
  BuildingFileStatuses.Mapped,
  BuildingFileStatuses.Error,
  BuildingFileStatuses.UnknownImportFile,
]);

/** What an upload did: a source file is scheduled for processing (201), an information file only stored (202). */
export type UploadOutcome = 'scheduled' | 'stored';

/**
 * Streams an upload into the blob store and moves the file to Uploaded. The content is written under a fresh key first,
 * so a failed or concurrent upload never damages the current version; the old content is removed after the switch.
 */
export async function uploadBuildingFile(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  rawFileName: string,
  content: Readable,
  contentType: string,
): Promise<UploadOutcome> {
  const fileName = checkedFileName(rawFileName, 'fileName');
  const row = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  const allowed =
    row.type === BuildingFileType.Source ? sourceUploadableFrom.has(row.status) : row.status === BuildingFileStatuses.Creating;
  if (!allowed) throw conflict(`A file in status ${row.status} does not accept an upload.`);
  const blobKey = `buildings/${buildingId}/files/${fileId}/${randomUUID()}`;
  const isSource = row.type === BuildingFileType.Source;
  await storeThenSwitch(ctx, blobKey, content, ctx.config.maxUploadBytes, (stored) =>
    ctx.db.transaction().execute(async (trx) => {
      const now = ctx.now();
      const result = await trx
        .updateTable('building_files')
        .set({
          fileName,
          fileSize: stored.size,
          contentType,
          blobKey,
          status: BuildingFileStatuses.Uploaded,
          statusMessage: isSource ? 'Uploaded; waiting for the import to start.' : 'Uploaded.',
          elementProcessedCount: 0,
          elementCount: 0,
          lastModifiedDate: now.toISOString(),
        })
        .where('id', '=', fileId)
        .where('status', '=', row.status)
        .where((eb) => (row.blobKey === null ? eb('blobKey', 'is', null) : eb('blobKey', '=', row.blobKey)))
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw conflict('The file changed during the upload; upload again.');
      if (isSource) await enqueueJob(trx, { kind: 'import-file', subjectId: fileId, payload: { blobKey } }, now);
      return row.blobKey;
    }),
  );
  return isSource ? 'scheduled' : 'stored';
}

/** A building file's tags and preferred databases (an extension: the API sets them only when a file is created). */
export async function getBuildingFileSettings(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
): Promise<BuildingFileSettings> {
  const row = await getBuildingFileRow(ctx, principal, buildingId, fileId);
  return settingsOf(row);
}

/** Replaces a building file's tags and preferred databases; the databases take effect at its next refinement. */
export async function replaceBuildingFileSettings(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
  request: BuildingFileSettings,
): Promise<BuildingFileSettings> {
  await getBuildingFileRow(ctx, principal, buildingId, fileId);
  const columns = {
    tags: JSON.stringify(request.tags),
    preferredAccountIds: JSON.stringify(await checkedPreferredDatabases(ctx, principal, request.preferredAccountIds)),
  };
  await ctx.db.updateTable('building_files').set(columns).where('id', '=', fileId).execute();
  return settingsOf(columns);
}

function settingsOf(row: Pick<BuildingFileRow, 'tags' | 'preferredAccountIds'>): BuildingFileSettings {
  return {
    tags: parseJsonColumn<string[]>(row.tags, 'building_files.tags'),
    preferredAccountIds: parseJsonColumn<string[]>(row.preferredAccountIds, 'building_files.preferredAccountIds'),
  };
}
