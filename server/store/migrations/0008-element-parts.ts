import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * An IFC import splits an element of a layered or composite material into one element per part (server/imports/README.md,
 * "Materials"): both element tables record what a part is a part of, its kind and whether its share was assumed (all
 * null for other elements and for those imported before), and a file keeps what its last import split, for the import
 * report (null: nothing on record).
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const text = dialect.textType;
  for (const table of ['elements', 'staged_elements']) {
    await db.schema.alterTable(table).addColumn('partOf', text).execute();
    await db.schema.alterTable(table).addColumn('partKind', text).execute();
    await db.schema.alterTable(table).addColumn('partShareAssumed', 'integer').execute();
  }
  await db.schema.alterTable('building_files').addColumn('partFindings', text).execute();
}
