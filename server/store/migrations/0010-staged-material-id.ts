import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * A spreadsheet names the material or product of an element by id (its Material/Product id column): the staging table
 * keeps it, refinement maps the element by it as it is staged, and the swap copies it into `elements.materialId`.
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('staged_elements').addColumn('materialId', dialect.textType).execute();
}
