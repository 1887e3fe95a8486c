import path from 'node:path';
import type { Kysely } from 'kysely';
import { isPostgresUrl, openPostgres, openSqlite, type OpenedDatabase, type StoreDialect } from './dialect';
import { migrateToLatest } from './migrations';
import { ensurePrivateFile, ensurePrivateFolder } from './private-files';
import type { DatabaseSchema } from './tables';

/** The database half of the store, migrated and ready. */
export interface Database {
  readonly db: Kysely<DatabaseSchema>;
  readonly dialect: StoreDialect;
  close(): Promise<void>;
}

/** Where the database is: a SQLite data folder (or `:memory:`), or a PostgreSQL database by its `postgres://` address. */
export type DatabaseLocation = string | { url: string };

/** The file of the SQLite database in a data folder. */
export function sqliteFileIn(dataDir: string): string {
  return path.join(dataDir, 'circularity.sqlite');
}

/** Opens the database without migrating it. */
function open(location: DatabaseLocation): OpenedDatabase {
  if (typeof location !== 'string') return openPostgres(location.url);
  if (isPostgresUrl(location)) return openPostgres(location);
  if (location === ':memory:') return openSqlite(location);
  // SQLite gives its -wal and -shm files the database file's mode.
  ensurePrivateFolder(location);
  const file = sqliteFileIn(location);
  ensurePrivateFile(file);
  return openSqlite(file);
}

/**
 * Opens (creating if needed) the database and migrates it: SQLite in a data folder (or in memory for `:memory:`), or
 * PostgreSQL at its address. Processes that start together against one PostgreSQL database migrate it once between them.
 */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  const opened = open(location);
  try {
    await migrateToLatest(opened.db as Kysely<unknown>, opened.dialect);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}
