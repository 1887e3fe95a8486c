import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * The rows of a source file that its last import left out (no id, a duplicate id, a quantity that is no number), with
 * the reason of each: how many there were, and the first of them, for the import report. Files imported before this
 * step have none on record.
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('building_files').addColumn('rejectedRows', dialect.textType, (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('building_files').addColumn('rejectedCount', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
