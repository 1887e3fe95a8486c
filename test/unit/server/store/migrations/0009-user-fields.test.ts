/**
 * Migration 0009 on a database with elements edited before it: they keep what the earlier rule kept (material and
 * lookups), and the elements of a file never uploaded, all made through the API, are the user's in every field.
 */
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { USER_FIELDS } from '../../../../../shared/api';
import { openSqlite, sqliteDialect, type OpenedDatabase } from '../../../../../server/store/dialect';
import * as initial from '../../../../../server/store/migrations/0001-initial';
import * as seedVersion from '../../../../../server/store/migrations/0002-seed-version';
import * as elementImports from '../../../../../server/store/migrations/0003-element-imports';
import * as idempotencyKeys from '../../../../../server/store/migrations/0004-idempotency-keys';
import * as importSources from '../../../../../server/store/migrations/0005-import-sources';
import * as rejectedRows from '../../../../../server/store/migrations/0006-rejected-rows';
import * as stagedRefinement from '../../../../../server/store/migrations/0007-staged-refinement';
import * as userFields from '../../../../../server/store/migrations/0009-user-fields';
import { readUserFields } from '../../../../../server/services/user-fields';

const before = { initial, seedVersion, elementImports, idempotencyKeys, importSources, rejectedRows, stagedRefinement };

/** Runs the migrations given, in their order. */
async function migrate(db: Kysely<unknown>, steps: Record<string, { up(db: Kysely<unknown>, dialect: typeof sqliteDialect): Promise<void> }>): Promise<void> {
  const migrations = Object.fromEntries(
    Object.entries(steps).map(([name, step], index): [string, Migration] => [`${String(index).padStart(4, '0')}-${name}`, { up: (database) => step.up(database, sqliteDialect) }]),
  );
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error !== undefined) throw error;
}

let opened: OpenedDatabase | undefined;
afterEach(async () => {
  await opened?.close();
});

describe('migration 0009-user-fields', () => {
  it('keeps the material and lookups of elements edited before it, and makes the elements of a file built by hand the user’s', async () => {
    opened = openSqlite(':memory:');
    const db = opened.db as unknown as Kysely<unknown>;
    await migrate(db, before);
    // Only the rows this step reads: the files' building is not needed for it.
    await sql`pragma foreign_keys = off`.execute(db);
    for (const [id, blobKey] of [['uploaded', 'blob-1'], ['by-hand', null]] as const) {
      await sql`insert into building_files (id, "buildingId", type, "fileName", "fileSize", status, "isActive", "isDirty", "lastModifiedDate", tags,
        "preferredAccountIds", "elementProcessedCount", "elementCount", "createdAt", "blobKey")
        values (${id}, 'building', 0, 'model.ifc', 0, 3, 1, 0, '2026-01-01T00:00:00Z', '[]', '[]', 0, 0, '2026-01-01T00:00:00Z', ${blobKey})`.execute(db);
    }
    for (const [file, id, edited] of [['uploaded', 'E1', 1], ['uploaded', 'E2', 0], ['by-hand', 'H1', 1]] as const) {
      await sql`insert into elements ("buildingFileId", id, "phaseLookup", "classificationLookup", "userEdited") values (${file}, ${id}, '[]', '[]', ${edited})`.execute(db);
    }

    await migrate(db, { ...before, userFields });
    const rows = await opened.db.selectFrom('elements').select(['id', 'userFields', 'userCreated']).orderBy('id').execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(readUserFields(byId.get('E1')?.userFields ?? null)).toEqual({
      materialId: { model: null },
      phaseLookup: { model: [] },
      classificationLookup: { model: [] },
    });
    expect(byId.get('E1')?.userCreated).toBe(0);
    expect(byId.get('E2')).toMatchObject({ userFields: null, userCreated: 0 });
    expect(Object.keys(readUserFields(byId.get('H1')?.userFields ?? null))).toEqual([...USER_FIELDS]);
    expect(byId.get('H1')?.userCreated).toBe(1);
    expect(await opened.db.selectFrom('deleted_elements').selectAll().execute()).toEqual([]);
    expect(await opened.db.selectFrom('removed_edited_elements').selectAll().execute()).toEqual([]);
  });
});
