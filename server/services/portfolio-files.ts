import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type {
  FileDownloadResponse,
  PortfolioFileRequest,
  PortfolioFileResponse,
  PortfolioFileStatusResponse,
} from '../../shared/api';
import { PortfolioFileStatuses, PortfolioFileType } from '../../shared/api';
import type { PassportLanguage } from '../../shared/api/routes';
import { storeThenSwitch } from './blob-switch';
import { fileNameFromTitle } from './file-names';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { badRequest, conflict, notFound } from '../errors';
import { enqueueJob } from '../jobs/queue';
import { parseJsonColumn } from '../store/repositories/json';
import type { PortfolioFilesTable } from '../store/tables';
import { listBuildings } from './buildings';
import { signedDownload } from './download-links';
import { checkedFileName } from './file-names';
import { getPortfolioRow } from './portfolios';

/** A portfolio file row as stored. */
export type PortfolioFileRow = PortfolioFilesTable;

/** The wire shape of a portfolio file; name and size are null until a name is given and content exists. */
export function toPortfolioFileResponse(row: PortfolioFileRow): PortfolioFileResponse {
  return {
    portfolioId: row.portfolioId,
    fileName: row.fileName === '' ? null : row.fileName,
    fileSize: row.blobKey === null ? null : row.fileSize,
    status: row.status as PortfolioFileResponse['status'],
    type: row.type as PortfolioFileResponse['type'],
    lastModifiedDate: row.lastModifiedDate,
    tags: parseJsonColumn<string[]>(row.tags, 'portfolio_files.tags'),
    id: row.id,
  };
}

/** The status of a portfolio file as answered. */
export function toPortfolioFileStatus(row: PortfolioFileRow): PortfolioFileStatusResponse {
  return { status: row.status as PortfolioFileStatusResponse['status'], statusMessage: row.statusMessage, id: row.id };
}

/** A file of a portfolio in the caller's scope, else 404. */
export async function getPortfolioFileRow(
  ctx: ServerContext,
  principal: Principal,
  portfolioId: string,
  fileId: string,
): Promise<PortfolioFileRow> {
  await getPortfolioRow(ctx, principal, portfolioId);
  const row = await ctx.db
    .selectFrom('portfolio_files')
    .selectAll()
    .where('id', '=', fileId)
    .where('portfolioId', '=', portfolioId)
    .executeTakeFirst();
  if (row === undefined) throw notFound('Portfolio file', fileId);
  return row;
}

/** The files of a portfolio, in creation order. */
export async function listPortfolioFiles(ctx: ServerContext, principal: Principal, portfolioId: string): Promise<PortfolioFileResponse[]> {
  await getPortfolioRow(ctx, principal, portfolioId);
  const rows = await ctx.db
    .selectFrom('portfolio_files')
    .selectAll()
    .where('portfolioId', '=', portfolioId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map(toPortfolioFileResponse);
}

/** Creates an information file in Creating; its content comes with the upload (decisions §3). */
export async function createPortfolioFile(
  ctx: ServerContext,
  principal: Principal,
  portfolioId: string,
  request: PortfolioFileRequest,
): Promise<PortfolioFileResponse> {
  await getPortfolioRow(ctx, principal, portfolioId);
  const fileName = request.name === undefined || request.name === null ? '' : checkedFileName(request.name, 'name');
  const now = ctx.now().toISOString();
  const row: PortfolioFileRow = {
    id: randomUUID(),
    portfolioId,
    type: PortfolioFileType.Information,
    fileName,
    fileSize: 0,
    status: PortfolioFileStatuses.Creating,
    statusMessage: 'Created; waiting for an upload.',
    lastModifiedDate: now,
    tags: JSON.stringify(request.tags ?? []),
    blobKey: null,
    contentType: null,
    createdAt: now,
  };
  await ctx.db.insertInto('portfolio_files').values(row).execute();
  return toPortfolioFileResponse(row);
}

/** Deletes a portfolio file with its content and any passport job still waiting for it. */
export async function deletePortfolioFile(ctx: ServerContext, principal: Principal, portfolioId: string, fileId: string): Promise<void> {
  await getPortfolioFileRow(ctx, principal, portfolioId, fileId);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('jobs').where('subjectId', '=', fileId).execute();
    await trx.deleteFrom('portfolio_files').where('id', '=', fileId).execute();
  });
  // Blobs go after the row: a crash in between leaves an unreferenced blob, never a row pointing at a missing one.
  await ctx.blobs.deletePrefix(`portfolios/${portfolioId}/files/${fileId}`);
}

/** A signed, expiring address of the file's content; 409 while it has none (not uploaded, passport not generated). */
export async function portfolioFileDownload(
  ctx: ServerContext,
  principal: Principal,
  portfolioId: string,
  fileId: string,
  baseUrl: string,
): Promise<FileDownloadResponse> {
  const row = await getPortfolioFileRow(ctx, principal, portfolioId, fileId);
  if (row.blobKey === null) throw conflict(`The file has no content yet (status ${row.status}).`);
  return signedDownload(ctx, baseUrl, { blobKey: row.blobKey, fileName: row.fileName, contentType: row.contentType });
}

/**
 * Stores the content of an information file in Creating and moves it to Uploaded. A file is uploaded once: a second
 * upload, or one to a passport (which the server generates), is 409 (decisions §3).
 */
export async function uploadPortfolioFile(
  ctx: ServerContext,
  principal: Principal,
  portfolioId: string,
  fileId: string,
  rawFileName: string,
  content: Readable,
  contentType: string,
): Promise<void> {
  const fileName = checkedFileName(rawFileName, 'fileName');
  const row = await getPortfolioFileRow(ctx, principal, portfolioId, fileId);
  if (row.type !== PortfolioFileType.Information) throw conflict('A passport is generated by the server; it cannot be uploaded.');
  // Checked before the content is read, so a refused upload costs no transfer; the update below settles races.
  if (row.status !== PortfolioFileStatuses.Creating) throw conflict('The file has been uploaded already; create a new file instead.');
  const blobKey = `portfolios/${portfolioId}/files/${fileId}/${randomUUID()}`;
  await storeThenSwitch(ctx, blobKey, content, ctx.config.maxUploadBytes, async (stored) => {
    const result = await ctx.db
      .updateTable('portfolio_files')
      .set({
        fileName,
        fileSize: stored.size,
        contentType,
        blobKey,
        status: PortfolioFileStatuses.Uploaded,
        statusMessage: 'Uploaded.',
        lastModifiedDate: ctx.now().toISOString(),
      })
      .where('id', '=', fileId)
      .where('status', '=', PortfolioFileStatuses.Creating)
      .where('blobKey', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw conflict('The file was uploaded or deleted meanwhile.');
    return null;
  });
}

/**
 * Schedules a PDF passport of buildings of a portfolio: creates the passport file in Creating and its job in one
 * transaction; the job generates the content later. Every id must be a building of the portfolio (400 naming it); an
 * empty list means all of them, resolved now so the passport covers what the caller saw.
 */
export async function createPortfolioPassport(
  ctx: ServerContext,
  principal: Principal,
  portfolioId: string,
  buildingIds: readonly string[],
  language: PassportLanguage,
): Promise<PortfolioFileResponse> {
  const portfolio = await getPortfolioRow(ctx, principal, portfolioId);
  const portfolioBuildingIds = (await listBuildings(ctx, principal, portfolioId)).map((building) => building.id);
  const known = new Set(portfolioBuildingIds);
  buildingIds.forEach((id, index) => {
    if (!known.has(id)) {
      throw badRequest(`buildingIds[${index}]: '${id}' is not a building of this portfolio.`, [
        { path: `buildingIds.${index}`, message: 'not a building of this portfolio' },
      ]);
    }
  });
  const coveredBuildingIds = buildingIds.length === 0 ? portfolioBuildingIds : [...new Set(buildingIds)];
  const now = ctx.now();
  const row: PortfolioFileRow = {
    id: randomUUID(),
    portfolioId,
    type: PortfolioFileType.PassportPdf,
    fileName: fileNameFromTitle(portfolio.name, ' - passport.pdf'),
    fileSize: 0,
    status: PortfolioFileStatuses.Creating,
    statusMessage: 'Passport generation queued.',
    lastModifiedDate: now.toISOString(),
    tags: '[]',
    blobKey: null,
    contentType: 'application/pdf',
    createdAt: now.toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await trx.insertInto('portfolio_files').values(row).execute();
    await enqueueJob(
      trx,
      { kind: 'portfolio-passport', subjectId: row.id, payload: { buildingIds: coveredBuildingIds, language } },
      now,
    );
  });
  return toPortfolioFileResponse(row);
}
