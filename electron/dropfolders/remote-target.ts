/** Where on the server a drop folder file goes: its building, and the remote file it is uploaded into. */
import path from 'node:path';
import { assertNever, BuildingFileStatuses, BuildingFileType } from '../../shared/api/enums';
import type { BuildingFileResponse } from '../../shared/api/schemas';
import type { DropFolderMapping } from '../../shared/dropfolders';
import { buildingFolderOf } from './file-rules';
import { rowId } from './file-rows';
import type { LedgerRow } from './ledger';
import { createFile, findOrCreateBuilding, listFiles, RemoteFailure, type DropFolderClient } from './remote';
import type { UploaderContext } from './uploader-context';

/** The building a file goes to: the mapping's, or its subfolder's in a portfolio (found by name, else created, once). */
export async function buildingOf(
  ctx: UploaderContext,
  mapping: DropFolderMapping,
  row: LedgerRow,
  client: DropFolderClient,
  signal: AbortSignal,
): Promise<string> {
  const target = mapping.target;
  switch (target.kind) {
    case 'building':
      return target.buildingId;
    case 'portfolio': {
      if (row.buildingId !== null) return row.buildingId;
      const folderName = buildingFolderOf(row.path);
      if (folderName === undefined) throw new RemoteFailure('permanent', 'A file directly in a portfolio folder belongs to no building.');
      const known = ctx.ledger.buildingOf(mapping.id, folderName);
      if (known !== undefined) return known;
      const lookupKey = rowId({ mappingId: mapping.id, path: folderName });
      let lookup = ctx.buildingLookups.get(lookupKey);
      if (lookup === undefined) {
        lookup = (async () => {
          const buildingId = await findOrCreateBuilding(client, target.portfolioId, folderName, signal);
          ctx.ledger.rememberBuilding(mapping.id, folderName, buildingId);
          return buildingId;
        })().finally(() => ctx.buildingLookups.delete(lookupKey));
        ctx.buildingLookups.set(lookupKey, lookup);
      }
      return lookup;
    }
    default:
      return assertNever(target, 'drop folder target');
  }
}

/**
 * The remote file for a row that has none: a source file of the same name (a new version of it), or an empty one of
 * ours whose creation was not recorded before a crash; else a new file. A file another row uploads into is never
 * taken.
 */
export async function adoptOrCreate(
  ctx: UploaderContext,
  row: LedgerRow,
  client: DropFolderClient,
  buildingId: string,
  signal: AbortSignal,
): Promise<BuildingFileResponse> {
  const name = path.posix.basename(row.path);
  const type = row.kind === 'source' ? BuildingFileType.Source : BuildingFileType.Information;
  const candidates = (await listFiles(client, buildingId, signal)).filter((file) => {
    if (file.type !== type || file.fileName !== name) return false;
    if (row.kind === 'information' && file.status !== BuildingFileStatuses.Creating) return false;
    const claim = ctx.ledger.claimOf(file.id);
    return claim === undefined || (claim.mappingId === row.mappingId && claim.path === row.path);
  });
  const newest = candidates.sort((a, b) => (a.lastModifiedDate < b.lastModifiedDate ? 1 : -1))[0];
  return newest ?? createFile(client, buildingId, row.kind, name, signal);
}
