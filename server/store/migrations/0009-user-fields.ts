import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect';

/**
 * What a user set on an element, field by field, which a new version of the source keeps (decisions §3):
 * `elements.userFields` (JSON: per field the model's value when the user set it, and a change of the model since),
 * `elements.userCreated` (made through the API, kept while the model lacks it), the model elements a user deleted
 * (`deleted_elements`, which stay deleted) and the edited elements the last new version no longer has
 * (`removed_edited_elements`, said in the model changes).
 *
 * Elements edited before this step kept their material and lookups on a new version; they keep these three fields,
 * remembered as what the model gave then: no material and no lookups, which is what the model gives for most. The
 * elements of files never uploaded were all made through the API: every field of theirs is the user's.
 */
export async function up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const text = dialect.textType;
  await db.schema.alterTable('elements').addColumn('userFields', text).execute();
  await db.schema.alterTable('elements').addColumn('userCreated', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('deleted_elements')
    .addColumn('buildingFileId', text, (c) => c.notNull().references('building_files.id').onDelete('cascade'))
    .addColumn('id', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('deleted_elements_pk', ['buildingFileId', 'id'])
    .execute();
  await db.schema
    .createTable('removed_edited_elements')
    .addColumn('buildingFileId', text, (c) => c.notNull().references('building_files.id').onDelete('cascade'))
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('name', text)
    .addPrimaryKeyConstraint('removed_edited_elements_pk', ['buildingFileId', 'id'])
    .execute();
  const legacy = JSON.stringify({ materialId: { model: null }, phaseLookup: { model: [] }, classificationLookup: { model: [] } });
  await sql`update elements set "userFields" = ${legacy} where "userEdited" = 1`.execute(db);
  const created = JSON.stringify(Object.fromEntries(EVERY_FIELD.map((field) => [field, { model: LOOKUPS.has(field) ? [] : null }])));
  await sql`update elements set "userFields" = ${created}, "userCreated" = 1
    where "userEdited" = 1 and "buildingFileId" in (select id from building_files where "blobKey" is null)`.execute(db);
}

/** The fields a user sets, as this step knows them. */
const EVERY_FIELD = [
  'name', 'floor', 'materialName', 'materialId', 'typeName', 'elementClass', 'volume', 'area', 'height', 'width', 'length',
  'weight', 'phaseLookup', 'classificationLookup',
];
const LOOKUPS = new Set(['phaseLookup', 'classificationLookup']);
