import { createReadStream, existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { openBlobStore, type BlobStore } from './blobs';
import { openDatabase, sqliteFileIn, type Database } from './store';
import type { DatabaseSchema } from './tables';
import { rotateDownloadSigningSecret } from '../downloads';
import type { MigrationProgress, MigrationSummary } from '../../shared/workspace-migration';

/**
 * Every table of the store in an order that respects its foreign keys (a table after the tables it references).
 * Kysely's own migration tables are not copied: the target has its own, written by the same migrations.
 */
export const TABLES_IN_DEPENDENCY_ORDER = [
  'server_settings',
  'seed_versions',
  'accounts',
  'account_databases',
  'users',
  'tokens',
  'idempotency_keys',
  'user_rights',
  'portfolios',
  'portfolio_files',
  'buildings',
  'building_figures',
  'building_files',
  'elements',
  'staged_elements',
  'deleted_elements',
  'removed_edited_elements',
  'materials',
  'material_matches',
  'material_financial_values',
  'products',
  'product_matches',
  'product_financial_values',
  'product_children',
  'classification_methods',
  'classification_codes',
  'jobs',
  'import_turns',
] as const satisfies readonly (keyof DatabaseSchema)[];

/** A table of the store. */
type TableName = (typeof TABLES_IN_DEPENDENCY_ORDER)[number];

/** What to migrate where. */
export interface MigrateWorkspaceOptions {
  /** The local workspace's data folder: `circularity.sqlite` and `blobs/`. */
  fromDataDir: string;
  /** The PostgreSQL database of the team server; it must hold no data yet. */
  databaseUrl: string;
  /** The team server's blob store (`s3://bucket?…` or a folder); absent: the folder `blobs` in `dataDir`. */
  blobs?: string;
  /** The team server's data folder, for its default blob folder (default `./.data`). */
  dataDir?: string;
  onProgress?: (progress: MigrationProgress) => void;
}

/** The target already holds data: nothing was copied. */
export class MigrationTargetNotEmptyError extends Error {
  constructor(readonly tables: { table: string; rows: number }[]) {
    super(
      `The target database already holds data (${tables.map(({ table, rows }) => `${table}: ${rows} rows`).join(', ')}). ` +
        'A workspace is copied into a new, empty database only; nothing was changed.',
    );
    this.name = 'MigrationTargetNotEmptyError';
  }
}

/** Bound parameters per INSERT: well under PostgreSQL's 65,535. */
const parametersPerInsert = 30_000;
/** Rows read from the source at a time. */
const readBatch = 2_000;

/** Rows per table. */
async function rowCounts(db: Kysely<DatabaseSchema>): Promise<Map<TableName, number>> {
  const counts = new Map<TableName, number>();
  for (const table of TABLES_IN_DEPENDENCY_ORDER) {
    const { count } = await db
      .selectFrom(table)
      .select(sql<number>`count(*)`.as('count'))
      .executeTakeFirstOrThrow();
    counts.set(table, Number(count));
  }
  return counts;
}

/** Copies one table in batches, reading the source in rowid order (every table of the store has one). */
async function copyTable(
  source: Kysely<DatabaseSchema>,
  target: Kysely<DatabaseSchema>,
  table: TableName,
  total: number,
  onProgress: (progress: MigrationProgress) => void,
): Promise<number> {
  let copied = 0;
  let lastRowid = Number.MIN_SAFE_INTEGER;
  onProgress({ step: 'table', table, copied, total });
  for (;;) {
    const rows = (await source
      .selectFrom(table)
      .selectAll()
      .select(sql<number>`rowid`.as('__rowid'))
      .where(sql<number>`rowid`, '>', lastRowid)
      .orderBy(sql`rowid`)
      .limit(readBatch)
      .execute()) as Record<string, unknown>[];
    if (rows.length === 0) break;
    lastRowid = Number(rows.at(-1)?.['__rowid']);
    const values = rows.map(({ __rowid: _rowid, ...row }) => row);
    const columns = Object.keys(values[0] ?? {}).length;
    const perInsert = Math.max(1, Math.floor(parametersPerInsert / Math.max(1, columns)));
    for (let first = 0; first < values.length; first += perInsert) {
      // The rows are the source's own, of the same schema: the column names and types match by construction.
      await target.insertInto(table).values(values.slice(first, first + perInsert) as never).execute();
    }
    copied += rows.length;
    onProgress({ step: 'table', table, copied, total });
  }
  return copied;
}

/** Every file under `folder` as a blob key (`/`-separated), except uploads that never finished (`*.partial`). */
async function blobKeys(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Copies the blob folder into the target store; answers the count and bytes. */
async function copyBlobs(folder: string, target: BlobStore, onProgress: (progress: MigrationProgress) => void): Promise<{ count: number; bytes: number }> {
  const keys = await blobKeys(folder);
  let bytes = 0;
  onProgress({ step: 'blobs', copied: 0, total: keys.length, bytes });
  for (const [index, key] of keys.entries()) {
    const file = path.join(folder, ...key.split('/'));
    const { size } = await stat(file);
    await target.put(key, createReadStream(file), size);
    bytes += size;
    onProgress({ step: 'blobs', copied: index + 1, total: keys.length, bytes });
  }
  return { count: keys.length, bytes };
}

/**
 * Copies a local workspace (its SQLite database and blob folder) into a team server's PostgreSQL database and blob
 * store: migrates the target, refuses it when it holds any row, copies every table in dependency order in batches and
 * then the blobs, and commits only when all of it was copied and the row counts match. A failure rolls the database
 * back (blobs already copied are overwritten by the next run), so the command can simply be run again.
 */
export async function migrateWorkspace(options: MigrateWorkspaceOptions): Promise<MigrationSummary> {
  const onProgress = options.onProgress ?? (() => undefined);
  if (!existsSync(sqliteFileIn(options.fromDataDir))) {
    throw new Error(`No workspace in '${options.fromDataDir}': ${sqliteFileIn(options.fromDataDir)} does not exist.`);
  }
  const targetDataDir = options.dataDir ?? './.data';
  const sourceBlobs = path.join(options.fromDataDir, 'blobs');
  // A target blob folder that is the source's own already holds every blob.
  const blobsInPlace = options.blobs === undefined && path.resolve(targetDataDir) === path.resolve(options.fromDataDir);

  const source: Database = await openDatabase(options.fromDataDir);
  let target: Database | undefined;
  let blobs: BlobStore | undefined;
  try {
    const opened = await openDatabase({ url: options.databaseUrl });
    target = opened;
    const targetBlobs = await openBlobStore(options.blobs, targetDataDir);
    blobs = targetBlobs;
    // One read transaction: a consistent snapshot of the workspace even if its server is still running.
    const summary = await source.db.transaction().execute((reading) =>
      opened.db.transaction().execute(async (writing) => {
        await opened.dialect.lockUntilCommit(writing, 'workspace-migration');
        const occupied = [...(await rowCounts(writing))].filter(([, rows]) => rows > 0).map(([table, rows]) => ({ table, rows }));
        if (occupied.length > 0) throw new MigrationTargetNotEmptyError(occupied);

        const expected = await rowCounts(reading);
        const tables: MigrationSummary['tables'] = [];
        for (const table of TABLES_IN_DEPENDENCY_ORDER) {
          try {
            tables.push({ table, rows: await copyTable(reading, writing, table, expected.get(table) ?? 0, onProgress) });
          } catch (error) {
            throw new Error(`Copying the table ${table} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
          }
        }
        const copied = await rowCounts(writing);
        for (const table of TABLES_IN_DEPENDENCY_ORDER) {
          if (copied.get(table) !== expected.get(table)) {
            throw new Error(`The table ${table} has ${copied.get(table)} rows in the target but ${expected.get(table)} in the workspace.`);
          }
        }
        await rotateDownloadSigningSecret(writing);
        const blobCounts = blobsInPlace ? { count: 0, bytes: 0 } : await copyBlobs(sourceBlobs, targetBlobs, onProgress);
        return { tables, blobs: blobCounts };
      }),
    );
    onProgress({ step: 'committed' });
    return summary;
  } finally {
    await blobs?.close();
    await target?.close();
    await source.close();
  }
}
