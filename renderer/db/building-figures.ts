/**
 * A building's figures in the cache (`/circular`, `/financial`, `/validation`, fetched together) and when they are
 * due: the pull marks them stale as it applies building and file lists, and fetches them once the building is no
 * longer dirty.
 */
import type { BuildingCircularInformation, BuildingFinancialInformation, BuildingValidation } from '../../shared/api/schemas';
import type { CacheDb } from './cache-db';
import { isLocalId, type BuildingFiguresRow } from './schema';

/** The figures row of a building seen for the first time: nothing fetched, nothing seen. */
export function newFiguresRow(buildingId: string): BuildingFiguresRow {
  return {
    buildingId,
    circular: null,
    financial: null,
    validation: null,
    refreshedAt: null,
    stale: false,
    seenIsDirty: false,
    seenMostRecentBimInfo: null,
    filesSignature: null,
  };
}

/** The three figures of a building, fetched together. */
export interface BuildingFigures {
  circular: BuildingCircularInformation;
  financial: BuildingFinancialInformation;
  validation: BuildingValidation;
}

/** Ids of buildings whose figures are due and that the server is not recalculating. */
export async function buildingsWithFiguresDue(db: CacheDb): Promise<string[]> {
  const rows = await db.buildingFigures.filter((row) => row.stale && !row.seenIsDirty).toArray();
  return rows.map((row) => row.buildingId).filter((id) => !isLocalId(id));
}

/** Writes a building's figures; they are no longer due. */
export async function writeBuildingFigures(db: CacheDb, buildingId: string, figures: BuildingFigures, at: string): Promise<void> {
  await db.transaction('rw', db.buildingFigures, async () => {
    const before = (await db.buildingFigures.get(buildingId)) ?? newFiguresRow(buildingId);
    await db.buildingFigures.put({ ...before, ...figures, refreshedAt: at, stale: false });
  });
}

/** Gives up a due refresh the server refused: the figures are fetched again on demand or after the next change. */
export async function dropFiguresDue(db: CacheDb, buildingId: string): Promise<void> {
  await db.buildingFigures.update(buildingId, { stale: false });
}
