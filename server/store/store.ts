import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { openSqlite, type StoreDialect } from './dialect';
import { migrateToLatest } from './migrations';
import type { DatabaseSchema } from './tables';

/** The database half of the store, migrated and ready. */
export interface Database {
  readonly db: Kysely<DatabaseSchema>;
  readonly dialect: StoreDialect;
  close(): Promise<void>;
}

/** Opens (creating if needed) the SQLite database in `dataDir` (or in memory for `:memory:`) and migrates it. */
export async function openDatabase(dataDir: string | ':memory:'): Promise<Database> {
  let file: string = dataDir;
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = path.join(dataDir, 'circularity.sqlite');
  }
  const opened = openSqlite(file);
  try {
    await migrateToLatest(opened.db as Kysely<unknown>, opened.dialect);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}
