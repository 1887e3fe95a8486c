import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * An import refines each element as it reads it (server/refine/README.md), so the staging table holds the derived
 * columns of `elements` too and the swap copies them. Rows staged before this step belong to an import that stopped;
 * its rerun clears them.
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const text = dialect.textType;
  await db.schema.alterTable('staged_elements').addColumn('mappingType', 'integer').execute();
  for (const column of [
    'mappingId',
    'mappingSource',
    'phaseMatchId',
    'phaseMatchName',
    'brandLayerMatchId',
    'brandLayerMatchName',
    'classificationMatchId',
    'classificationMatchName',
    'classificationMatchCode',
    'classificationSource',
  ]) {
    await db.schema.alterTable('staged_elements').addColumn(column, text).execute();
  }
}
