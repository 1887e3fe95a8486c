import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/** Remembers which version of each committed seed data set (platform materials, NL-SfB) the database holds. */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('seed_versions')
    .addColumn('dataset', dialect.textType, (c) => c.primaryKey())
    .addColumn('version', dialect.textType, (c) => c.notNull())
    .addColumn('appliedAt', dialect.textType, (c) => c.notNull())
    .execute();
}
