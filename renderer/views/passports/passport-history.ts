/**
 * The history of passports as one list, the same on the Passports screen and in Activity: the passports of the host's
 * passport folders, and the passports made on the server that none of them requested (asked for on a building's page,
 * from the cache of the active connection, or on a portfolio's page, as the server lists them), newest first.
 */
import { BuildingFileStatuses, BuildingFileType, PortfolioFileStatuses } from '../../../shared/api/enums';
import type { PortfolioFileResponse } from '../../../shared/api/schemas';
import type { PassportEntry, PassportFormat, PassportState } from '../../../shared/passports';
import type { CacheDb } from '../../db/cache-db';
import type { FileRow } from '../../db/schema';
import type { PortfolioPassport } from './portfolio-passports';

/** A passport made on the server for a building, as the cache lists it. */
export interface BuildingPassport {
  file: FileRow;
  buildingName: string | null;
}

/** One line of the history. */
export type PassportHistoryRow =
  | { kind: 'folder'; key: string; at: string; entry: PassportEntry }
  | { kind: 'building'; key: string; at: string; format: PassportFormat; state: BuildingPassportState; passport: BuildingPassport }
  | { kind: 'portfolio'; key: string; at: string; state: Exclude<BuildingPassportState, 'failed'>; passport: PortfolioPassport };

/** Where a passport made on the server is: being generated, ready to open or save, or failed. */
export type BuildingPassportState = Extract<PassportState, 'generating' | 'failed'> | 'ready';

function isPassport(file: FileRow): boolean {
  return file.type === BuildingFileType.PassportPdf || file.type === BuildingFileType.PassportExcel;
}

/** The passports of every cached building, each with its building's name. */
export async function cachedBuildingPassports(db: CacheDb): Promise<BuildingPassport[]> {
  const files = await db.files.filter(isPassport).toArray();
  const buildings = await db.buildings.bulkGet([...new Set(files.map((file) => file.buildingId))]);
  const names = new Map(buildings.flatMap((building) => (building === undefined ? [] : [[building.id, building.name]])));
  return files.map((file) => ({ file, buildingName: names.get(file.buildingId) ?? null }));
}

function stateOf(file: FileRow): BuildingPassportState {
  if (file.status === BuildingFileStatuses.Creating) return 'generating';
  return file.status === BuildingFileStatuses.Error ? 'failed' : 'ready';
}

/** Whether a portfolio's passport is still being generated: its file waits for its content. */
export function isPortfolioPassportGenerating(file: PortfolioFileResponse): boolean {
  return file.status === PortfolioFileStatuses.Creating;
}

/** The history: every folder entry, and the building and portfolio passports no folder entry stands for. */
export function passportHistory(
  entries: readonly PassportEntry[],
  passports: readonly BuildingPassport[],
  portfolioPassports: readonly PortfolioPassport[],
): PassportHistoryRow[] {
  const requestedByFolders = new Set(entries.flatMap((entry) => (entry.remoteFileId === null ? [] : [entry.remoteFileId])));
  const rows: PassportHistoryRow[] = entries.map((entry) => ({ kind: 'folder', key: `folder:${entry.id}`, at: entry.requestedAt, entry }));
  for (const passport of passports) {
    if (requestedByFolders.has(passport.file.id)) continue;
    rows.push({
      kind: 'building',
      key: `building:${passport.file.id}`,
      at: passport.file.lastModifiedDate,
      format: passport.file.type === BuildingFileType.PassportExcel ? 'xlsx' : 'pdf',
      state: stateOf(passport.file),
      passport,
    });
  }
  for (const passport of portfolioPassports) {
    if (requestedByFolders.has(passport.file.id)) continue;
    const state = isPortfolioPassportGenerating(passport.file) ? 'generating' : 'ready';
    rows.push({ kind: 'portfolio', key: `portfolio:${passport.file.id}`, at: passport.file.lastModifiedDate, state, passport });
  }
  return rows.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || a.key.localeCompare(b.key));
}
