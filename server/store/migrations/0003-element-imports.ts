import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * Imports write into `staged_elements` first and swap into `elements` in one transaction when complete, so a crash
 * mid-import leaves the current elements untouched and a rerun starts clean. `userEdited` marks elements a user
 * created or replaced through the API, whose enrichment a new version of the source keeps (decisions §3).
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const text = dialect.textType;
  const double = dialect.doubleType;
  await db.schema.alterTable('elements').addColumn('userEdited', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  let staged = db.schema
    .createTable('staged_elements')
    .addColumn('buildingFileId', text, (c) => c.notNull().references('building_files.id').onDelete('cascade'))
    .addColumn('id', text, (c) => c.notNull());
  for (const column of ['name', 'materialName', 'typeName', 'elementClass', 'floor']) staged = staged.addColumn(column, text);
  for (const column of ['volume', 'area', 'height', 'width', 'length', 'weight']) staged = staged.addColumn(column, double);
  await staged
    .addColumn('phaseLookup', text, (c) => c.notNull())
    .addColumn('classificationLookup', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('staged_elements_pk', ['buildingFileId', 'id'])
    .execute();
}
