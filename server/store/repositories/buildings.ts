import type { Kysely, Selectable } from 'kysely';
import type { Principal } from '../../auth/principal';
import type { BuildingsTable, DatabaseSchema } from '../tables';
import { buildingScopeFilter } from './scope-filter';
import { compiledQuery } from '../compiled-query';

/** A building row as stored. */
export type BuildingRow = Selectable<BuildingsTable>;

/** The columns a BuildingRequest sets (entire replacement: all of them, null when absent). */
export type BuildingRequestColumns = Omit<
  BuildingRow,
  | 'id'
  | 'accountId'
  | 'images'
  | 'mpgLabelManual'
  | 'mpgLabelIndicative'
  | 'isDirty'
  | 'hasDirtyElements'
  | 'mostRecentBimInfo'
  | 'geoLatitude'
  | 'geoLongtitude'
  | 'phaseType'
  | 'createdAt'
  | 'updatedAt'
>;

const buildingById = compiledQuery((db: Kysely<DatabaseSchema>, id: string) =>
  db.selectFrom('buildings').selectAll().where('id', '=', id),
);

/** One building, or undefined. */
export async function findBuilding(db: Kysely<DatabaseSchema>, id: string): Promise<BuildingRow | undefined> {
  return (await buildingById(db, id))[0];
}

/** Buildings in the caller's scope, optionally of one portfolio, in creation order. */
export function listBuildingRows(db: Kysely<DatabaseSchema>, principal: Principal, portfolioId?: string): Promise<BuildingRow[]> {
  let query = db.selectFrom('buildings').selectAll().where(buildingScopeFilter(principal));
  if (portfolioId !== undefined) query = query.where('portfolioId', '=', portfolioId);
  return query.orderBy('createdAt').orderBy('id').execute();
}

/** Inserts a building. */
export async function insertBuilding(
  db: Kysely<DatabaseSchema>,
  id: string,
  accountId: string,
  columns: BuildingRequestColumns,
  now: string,
): Promise<void> {
  await db
    .insertInto('buildings')
    .values({
      ...columns,
      id,
      accountId,
      images: '[]',
      mpgLabelManual: null,
      mpgLabelIndicative: null,
      isDirty: 0,
      hasDirtyElements: 0,
      mostRecentBimInfo: null,
      geoLatitude: null,
      geoLongtitude: null,
      phaseType: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

/** Replaces the request fields of a building. */
export async function updateBuildingColumns(
  db: Kysely<DatabaseSchema>,
  id: string,
  columns: BuildingRequestColumns,
  now: string,
): Promise<void> {
  await db
    .updateTable('buildings')
    .set({ ...columns, updatedAt: now })
    .where('id', '=', id)
    .execute();
}

/** Deletes a building with its rights and tokens; files, elements and figures go by foreign-key cascade. */
export async function deleteBuildingRow(db: Kysely<DatabaseSchema>, id: string): Promise<void> {
  await db.deleteFrom('user_rights').where('scopeKind', '=', 'building').where('scopeId', '=', id).execute();
  await db.deleteFrom('tokens').where('scopeKind', '=', 'building').where('scopeId', '=', id).execute();
  await db.deleteFrom('jobs').where('subjectId', '=', id).execute();
  await db.deleteFrom('buildings').where('id', '=', id).execute();
}
