import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * Where each element's classification, quantities and mapping came from, for the import report: the importer's
 * classification hints (model references of any system, presentation layers, the IFC class), its material hints (the
 * material properties of CAD tools) and the source of its volume or weight (the file or its geometry) are staged with
 * the element; refinement records which classification and
 * mapping it used. Elements imported before this step get what can be told from their rows.
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const text = dialect.textType;
  for (const table of ['elements', 'staged_elements']) {
    await db.schema.alterTable(table).addColumn('classificationHints', text, (c) => c.notNull().defaultTo('[]')).execute();
    await db.schema.alterTable(table).addColumn('materialHints', text, (c) => c.notNull().defaultTo('[]')).execute();
    await db.schema.alterTable(table).addColumn('quantitySource', text).execute();
    await db.schema.alterTable(table).addColumn('geometryIssue', text).execute();
  }
  await db.schema.alterTable('elements').addColumn('classificationSource', text).execute();
  await db.schema.alterTable('elements').addColumn('mappingSource', text).execute();
  await sql`update elements set "quantitySource" = 'model' where volume > 0 or weight > 0`.execute(db);
  await sql`update elements set "classificationSource" = 'model' where "classificationMatchId" is not null`.execute(db);
  await sql`update elements set "mappingSource" = case when "materialId" is not null then 'model' else 'rule' end where "mappingId" is not null`.execute(db);
}
