import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { StoreDialect } from '../dialect';
import * as initial from './0001-initial';
import * as seedVersion from './0002-seed-version';
import * as elementImports from './0003-element-imports';
import * as idempotencyKeys from './0004-idempotency-keys';
import * as importSources from './0005-import-sources';
import * as rejectedRows from './0006-rejected-rows';
import * as stagedRefinement from './0007-staged-refinement';
import * as elementParts from './0008-element-parts';
import * as userFields from './0009-user-fields';
import * as stagedMaterialId from './0010-staged-material-id';
import * as importTurns from './0011-import-turns';

/** A forward-only migration; every step takes the dialect for its few type differences. */
interface StoreMigration {
  up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void>;
}

/** Every migration in order. Append only: a released migration never changes. */
const migrations: Record<string, StoreMigration> = {
  '0001-initial': initial,
  '0002-seed-version': seedVersion,
  '0003-element-imports': elementImports,
  '0004-idempotency-keys': idempotencyKeys,
  '0005-import-sources': importSources,
  '0006-rejected-rows': rejectedRows,
  '0007-staged-refinement': stagedRefinement,
  '0008-element-parts': elementParts,
  '0009-user-fields': userFields,
  '0010-staged-material-id': stagedMaterialId,
  '0011-import-turns': importTurns,
};

/** Brings the database to the newest schema; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Kysely<unknown>, dialect: StoreDialect): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(migrations).map(([name, migration]): [string, Migration] => [
          name,
          { up: (database) => migration.up(database, dialect) },
        ]),
      ),
  };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
