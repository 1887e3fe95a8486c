import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type ColumnDataType, type Expression } from 'kysely';
import type { DatabaseSchema } from './tables';
import { registerSqliteODataFunctions, sqliteODataDialect, type ODataDialect } from '../odata/dialect';

/** The SQL dialects the store runs on. */
export type DialectName = 'sqlite';

/**
 * Everything that differs between the SQL dialects lives here, so queries are written once with Kysely.
 * Values are stored dialect-neutrally: ISO 8601 text for timestamps, JSON as text, booleans as 0/1 integers.
 */
export interface StoreDialect {
  /** Which dialect this is. */
  readonly name: DialectName;
  /** Column type for floating-point numbers. */
  readonly doubleType: ColumnDataType;
  /** Column type for text (identifiers, names, JSON, timestamps). */
  readonly textType: ColumnDataType;
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
};

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

/** Opens a SQLite database file (or `:memory:`) with the pragmas the server relies on. */
export function openSqlite(file: string): { db: Kysely<DatabaseSchema>; dialect: StoreDialect; close: () => Promise<void> } {
  const connection = new Database(file);
  // WAL lets readers run while the worker writes; NORMAL sync is durable across application crashes in WAL mode.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  registerSqliteODataFunctions(connection);
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return { db, dialect: sqliteDialect, close: () => db.destroy() };
}
