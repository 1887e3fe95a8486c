import type { Kysely, Selectable } from 'kysely';
import type { BuildingsTable, DatabaseSchema } from '../tables';
import { compiledQuery } from '../compiled-query';

/** A building row as stored. */
export type BuildingRow = Selectable<BuildingsTable>;

const buildingById = compiledQuery((db: Kysely<DatabaseSchema>, id: string) =>
  db.selectFrom('buildings').selectAll().where('id', '=', id),
);

/** One building, or undefined: the lookup every service and job that reads a whole building shares. */
export async function findBuilding(db: Kysely<DatabaseSchema>, id: string): Promise<BuildingRow | undefined> {
  return (await buildingById(db, id))[0];
}
