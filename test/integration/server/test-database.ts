/**
 * The database the server integration tests run on: SQLite in each server's data folder (default), or PostgreSQL when
 * `TEST_DATABASE=postgres` (the `integration-postgres` Vitest project), where every test server gets a database of its
 * own, created from a template that is already migrated and seeded, and dropped when the server closes.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The dialect under test. */
export const testDatabase: 'sqlite' | 'postgres' = process.env['TEST_DATABASE'] === 'postgres' ? 'postgres' : 'sqlite';

/** The database every test database is copied from (created by the global setup of the PostgreSQL project). */
export const TEMPLATE_DATABASE = 'cd_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser address of the throwaway cluster's `postgres` database. */
    postgresUrl: string;
  }
}

/** The address of `database` on the cluster of `adminUrl`. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on the cluster's `postgres` database. */
export async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A database of one test: its address (undefined on SQLite) and how to remove it. */
export interface TestDatabase {
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database on PostgreSQL, copied from the migrated and seeded template (or `empty`, for tests of
 * what a first start does); nothing (the data folder's SQLite) otherwise.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (testDatabase === 'sqlite') return { url: undefined, drop: async () => undefined };
  const adminUrl = inject('postgresUrl');
  const name = `cd_test_${randomBytes(8).toString('hex')}`;
  await adminQuery(adminUrl, options.empty === true ? `create database ${name}` : `create database ${name} template ${TEMPLATE_DATABASE}`);
  return {
    url: databaseUrl(adminUrl, name),
    // FORCE ends connections a test left open (a killed server process).
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** `serve` arguments of the test database: `--database <url>` on PostgreSQL, none on SQLite. */
export function databaseArgs(database: TestDatabase): string[] {
  return database.url === undefined ? [] : ['--database', database.url];
}

/** The environment for a server process: without the store addresses of the caller's own environment. */
export function serverEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, BLOB_STORE_URL: _blobs, ...rest } = process.env;
  return { ...rest, ...extra };
}
