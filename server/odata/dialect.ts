import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Expression, type SqlBool } from 'kysely';

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
export function registerSqliteODataFunctions(connection: Pick<BetterSqlite3.Database, 'function'>): void {
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
