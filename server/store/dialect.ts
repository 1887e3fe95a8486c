import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { nativeSqliteOptions } from '../../shared/native-sqlite';
import { Kysely, PostgresDialect, sql, type ColumnDataType, type Expression, type SqlBool } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from './tables';
import { TurnTakingSqliteDialect } from './turn-taking-sqlite';

/**
 * The few SQL expressions of $filter that differ between databases. Each must return NULL when any argument is NULL
 * (OData's canonical functions propagate null), compare case-sensitively, and treat every character of `search`
 * literally: no LIKE, so `%`, `_` and `\` in user input are plain characters.
 */
export interface ODataDialect {
  /** True when `text` contains `search`. */
  contains(text: Expression<string | null>, search: Expression<string | null>): Expression<SqlBool>;
  /** True when `text` starts with `search`. */
  startsWith(text: Expression<string | null>, search: Expression<string | null>): Expression<SqlBool>;
  /** True when `text` ends with `search`. */
  endsWith(text: Expression<string | null>, search: Expression<string | null>): Expression<SqlBool>;
  /** `text` in lowercase (full Unicode, as OData's tolower). */
  toLower(text: Expression<string | null>): Expression<string | null>;
  /** `text` in uppercase (full Unicode, as OData's toupper). */
  toUpper(text: Expression<string | null>): Expression<string | null>;
  /** A string literal as a bound parameter, typed where the database cannot infer it. */
  stringValue(value: string): Expression<string>;
  /** A number literal as a bound parameter, typed where the database cannot infer it. */
  numberValue(value: number): Expression<number>;
}

const SQLITE_TO_LOWER = 'odata_tolower';
const SQLITE_TO_UPPER = 'odata_toupper';

/**
 * Registers the functions the SQLite dialect calls: SQLite's own lower()/upper() only fold ASCII, OData's fold all of
 * Unicode. Call once per better-sqlite3 connection before running queries built with `sqliteODataDialect`.
 */
export function registerSqliteODataFunctions(connection: Pick<Database.Database, 'function'>): void {
  const options = { deterministic: true, varargs: false } as const;
  connection.function(SQLITE_TO_LOWER, options, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  connection.function(SQLITE_TO_UPPER, options, (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value));
}

/** SQLite (3.39+): instr() and byte-wise blob comparisons, which unlike length()/substr() on text do not stop at U+0000. */
export const sqliteODataDialect: ODataDialect = {
  contains: (text, search) => sql<SqlBool>`instr(${text}, ${search}) > 0`,
  // The first occurrence is at 1 exactly when text starts with search (instr(x, '') is 1).
  startsWith: (text, search) => sql<SqlBool>`instr(${text}, ${search}) = 1`,
  // Comparing UTF-8 bytes is exact: a valid UTF-8 suffix equal to search's bytes starts on a character boundary.
  // substr() of an empty blob is NULL, not an empty blob, hence the explicit null test and coalesce.
  endsWith: (text, search) => sql<SqlBool>`case when ${text} is null or ${search} is null then null else coalesce(substr(cast(${text} as blob), length(cast(${text} as blob)) - length(cast(${search} as blob)) + 1), x'') = cast(${search} as blob) end`,
  toLower: (text) => sql<string | null>`${sql.raw(SQLITE_TO_LOWER)}(${text})`,
  toUpper: (text) => sql<string | null>`${sql.raw(SQLITE_TO_UPPER)}(${text})`,
  stringValue: (value) => sql.val(value),
  numberValue: (value) => sql.val(value),
};

/**
 * PostgreSQL (11+). Parameters are cast because PostgreSQL cannot infer the type of a parameter inside strpos() or
 * compared with an integer column. Text columns are `collate "C"` (code-point order, as SQLite), but case mapping
 * follows the collation of its argument and "C" maps ASCII only: lower()/upper() run under the database's default
 * collation, which folds all of Unicode when its LC_CTYPE is a UTF-8 locale, and their result compares as "C" again.
 */
export const postgresODataDialect: ODataDialect = {
  contains: (text, search) => sql<SqlBool>`strpos(${text}, ${search}) > 0`,
  startsWith: (text, search) => sql<SqlBool>`starts_with(${text}, ${search})`,
  endsWith: (text, search) => sql<SqlBool>`right(${text}, char_length(${search})) = ${search}`,
  toLower: (text) => sql<string | null>`(lower(${text} collate "default") collate "C")`,
  toUpper: (text) => sql<string | null>`(upper(${text} collate "default") collate "C")`,
  stringValue: (value) => sql<string>`cast(${value} as text)`,
  numberValue: (value) => sql<number>`cast(${value} as double precision)`,
};

/** The SQL dialects the store runs on. */
export type DialectName = 'sqlite' | 'postgres';

/** A column type: a name Kysely knows, or SQL for one it does not (a collation). */
export type ColumnType = ColumnDataType | Expression<unknown>;

/**
 * Everything that differs between the SQL dialects lives here, so queries are written once with Kysely.
 * Values are stored dialect-neutrally: ISO 8601 text for timestamps, JSON as text, booleans as 0/1 integers.
 */
export interface StoreDialect {
  /** Which dialect this is. */
  readonly name: DialectName;
  /** Column type for floating-point numbers. */
  readonly doubleType: ColumnDataType;
  /** Column type for text (identifiers, names, JSON, timestamps), compared and sorted by code point everywhere. */
  readonly textType: ColumnType;
  /** Column type for 64-bit integers (file sizes). */
  readonly bigintType: ColumnDataType;
  /** The expressions of OData `$filter` that differ between databases. */
  readonly odata: ODataDialect;
  /**
   * Whether `SELECT … FOR UPDATE SKIP LOCKED` exists. Without it (SQLite) a claim is a conditional update inside the
   * database's single write lock, which is just as exclusive.
   */
  readonly rowLocks: boolean;
  /** The larger of two numbers (SQLite's two-argument `max`, PostgreSQL's `greatest`). */
  greatest(a: Expression<number>, b: Expression<number>): Expression<number>;
  /**
   * Runs `work` while holding the lock `name` across every process of the server (PostgreSQL: a session advisory lock
   * on one connection, which `work` gets as its database). SQLite runs it as is: one file serialises its writers.
   */
  exclusively<T>(db: Kysely<DatabaseSchema>, name: string, work: (db: Kysely<DatabaseSchema>) => Promise<T>): Promise<T>;
  /**
   * Takes the lock `name` until the end of the transaction `trx`, waiting for another transaction that holds it
   * (PostgreSQL: a transaction advisory lock). A no-op on SQLite, where a writing transaction excludes all others.
   */
  lockUntilCommit(trx: Kysely<DatabaseSchema>, name: string): Promise<void>;
  /**
   * Brings the planner's statistics of `table` up to date after a bulk write. PostgreSQL plans a file's elements by
   * them: unanalysed, it guesses a few rows per file and sorts a whole file for one page instead of reading its index.
   * SQLite plans these queries by its indexes alone.
   */
  refreshStatistics(db: Kysely<DatabaseSchema>, table: keyof DatabaseSchema): Promise<void>;
}

/** SQLite through better-sqlite3: the embedded default. */
export const sqliteDialect: StoreDialect = {
  name: 'sqlite',
  doubleType: 'real',
  textType: 'text',
  bigintType: 'integer',
  odata: sqliteODataDialect,
  rowLocks: false,
  greatest: (a, b) => sql<number>`max(${a}, ${b})`,
  exclusively: (db, _name, work) => work(db),
  lockUntilCommit: async () => undefined,
  refreshStatistics: async () => undefined,
};

/** The 64-bit key of an advisory lock: a hash of its name, so names of different purposes never share a key. */
function advisoryKey(name: string): bigint {
  return createHash('sha256').update(`circularity-desk:${name}`).digest().readBigInt64BE(0);
}

/** PostgreSQL 11+ through node-postgres. */
export const postgresDialect: StoreDialect = {
  name: 'postgres',
  doubleType: 'double precision',
  // "C" compares and sorts by code point, as SQLite's BINARY does, whatever the database's locale: ids, keyset paging
  // and $orderby give the same order on both.
  textType: sql`text collate "C"`,
  bigintType: 'bigint',
  odata: postgresODataDialect,
  rowLocks: true,
  greatest: (a, b) => sql<number>`greatest(${a}, ${b})`,
  exclusively: (db, name, work) =>
    db.connection().execute(async (connection) => {
      const key = advisoryKey(name);
      await sql`select pg_advisory_lock(${key})`.execute(connection);
      try {
        return await work(connection);
      } finally {
        await sql`select pg_advisory_unlock(${key})`.execute(connection);
      }
    }),
  lockUntilCommit: async (trx, name) => {
    await sql`select pg_advisory_xact_lock(${advisoryKey(name)})`.execute(trx);
  },
  refreshStatistics: async (db, table) => {
    await sql`analyze ${sql.table(table)}`.execute(db);
  },
};

/** Whether a location is a PostgreSQL address (`postgres://`, `postgresql://`); anything else names a SQLite data folder. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * A message for an error PostgreSQL raises on a value SQLite would have stored (SQLSTATE class 22: U+0000 in text, an
 * integer out of range), so that it can be answered as the client's mistake; undefined for any other error.
 */
export function unstorableValueMessage(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('22')) return undefined;
  if (code === '22021' || code === '22P05') return 'A text value contains the character U+0000, which cannot be stored.';
  if (code === '22003') return 'A number is out of the range the field can hold.';
  return 'A value cannot be stored in its field.';
}

/** Prepared statements kept per connection; generated SQL (OData filters) varies, so the cache is bounded. */
const statementCacheSize = 500;

/**
 * The connection as Kysely's SQLite driver sees it, with `prepare` answered from a cache: preparing is a large share
 * of a simple request's cost. Sharing a statement is safe because the driver runs one query at a time per connection
 * (a streamed query holds the connection until it is read to the end).
 */
function withStatementCache(connection: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  const prepare = (source: string): Database.Statement => {
    let statement = statements.get(source);
    if (statement === undefined) {
      statement = connection.prepare(source);
      if (statements.size >= statementCacheSize) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(connection, {
    get: (target, property) => {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      // Native methods must run on the real connection, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** An open database with its dialect. */
export interface OpenedDatabase {
  db: Kysely<DatabaseSchema>;
  dialect: StoreDialect;
  close(): Promise<void>;
}

/** Opens a SQLite database file (or `:memory:`) with the pragmas the server relies on. */
export function openSqlite(file: string): OpenedDatabase {
  const connection = new Database(file, nativeSqliteOptions(process.versions, process.env));
  // WAL lets readers run while the worker writes; NORMAL sync is durable across application crashes in WAL mode.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  registerSqliteODataFunctions(connection);
  const db = new Kysely<DatabaseSchema>({ dialect: new TurnTakingSqliteDialect({ database: withStatementCache(connection) }) });
  return { db, dialect: sqliteDialect, close: () => db.destroy() };
}

/** node-postgres answers 64-bit integers (`count(*)`, `bigint` columns) and numerics as strings; the store uses numbers. */
function parseNumber(text: string): number {
  return Number(text);
}

/** Type parsers of this store's connections only, so other users of `pg` in the process keep theirs. */
const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? parseNumber
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** Connections per process: requests and the worker share them; a transaction holds one until it ends. */
const poolSize = 10;

/** Opens a pool on a PostgreSQL database (`postgres://user:password@host:port/database`). */
export function openPostgres(url: string): OpenedDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: postgresTypes,
    application_name: 'circularity-desk',
  });
  // An idle connection the server closed (a restart, a dropped database) is discarded by the pool and the next query
  // opens another; without a listener the event would end the process.
  pool.on('error', () => undefined);
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: postgresDialect, close: () => db.destroy() };
}
