import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { assertNever } from '../../shared/api/enums';
import { type Comparison, type ODataFilter, type ODataOrderItem, type ODataQuery, type ODataValue, type StringPredicate } from './ast';
import type { ODataDialect } from '../store/dialect';

/**
 * A condition under construction: a constant where the outcome is known without the row, so that null literals and
 * literal-only comparisons fold away instead of reaching the database as untyped parameters.
 */
type Condition = boolean | Expression<SqlBool>;

/** A value that does not depend on the row: null, or a string or number. */
type Constant = { readonly isNull: true } | { readonly isNull: false; readonly value: string | number };

/** The SQL comparison operators, the only operator text that goes into SQL as is. */
type SqlOperator = '=' | '<>' | '>' | '>=' | '<' | '<=';

/** SQLite needs a LIMIT before OFFSET; a limit no result reaches keeps the same SQL valid on every dialect. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** Longest flat `a and b and …` emitted; SQLite parses such chains left-deep and refuses expressions over 1000 deep. */
const MAX_FLAT_OPERANDS = 16;

function joined(operands: readonly Expression<SqlBool>[], connective: 'and' | 'or'): Expression<SqlBool> {
  if (operands.length <= MAX_FLAT_OPERANDS) return sql<SqlBool>`(${sql.join(operands, sql.raw(` ${connective} `))})`;
  const middle = Math.ceil(operands.length / 2);
  return joined([joined(operands.slice(0, middle), connective), joined(operands.slice(middle), connective)], connective);
}

function all(conditions: readonly Condition[]): Condition {
  if (conditions.includes(false)) return false;
  const open = conditions.filter((c): c is Expression<SqlBool> => c !== true);
  if (open.length <= 1) return open[0] ?? true;
  return joined(open, 'and');
}

function any(conditions: readonly Condition[]): Condition {
  if (conditions.includes(true)) return true;
  const open = conditions.filter((c): c is Expression<SqlBool> => c !== false);
  if (open.length <= 1) return open[0] ?? false;
  return joined(open, 'or');
}

function toExpression(condition: Condition): Expression<SqlBool> {
  if (condition === true) return sql<SqlBool>`1 = 1`;
  if (condition === false) return sql<SqlBool>`1 = 0`;
  return condition;
}

function constantOf(value: ODataValue): Constant | undefined {
  switch (value.kind) {
    case 'null': return { isNull: true };
    case 'string':
    case 'number':
      return { isNull: false, value: value.value };
    case 'field': return undefined;
    case 'case': {
      const argument = constantOf(value.argument);
      if (argument === undefined || argument.isNull) return argument;
      const text = String(argument.value);
      return { isNull: false, value: value.function === 'tolower' ? text.toLowerCase() : text.toUpperCase() };
    }
    default: return assertNever(value);
  }
}

/** SQL that is TRUE exactly when the value is null (`wanted`) or exactly when it is not; a constant where known. */
function isNull(value: ODataValue, wanted: boolean): Condition {
  switch (value.kind) {
    case 'null': return wanted;
    case 'string':
    case 'number':
      return !wanted;
    case 'field': return wanted ? sql<SqlBool>`${sql.ref(value.column)} is null` : sql<SqlBool>`${sql.ref(value.column)} is not null`;
    case 'case': return isNull(value.argument, wanted);
    default: return assertNever(value);
  }
}

function valueSql(value: ODataValue, dialect: ODataDialect): Expression<unknown> {
  switch (value.kind) {
    case 'field': return sql.ref(value.column);
    case 'string': return dialect.stringValue(value.value);
    case 'number': return dialect.numberValue(value.value);
    case 'case': {
      const argument = valueSql(value.argument, dialect) as Expression<string | null>;
      return value.function === 'tolower' ? dialect.toLower(argument) : dialect.toUpper(argument);
    }
    // Null operands are folded by the callers before any SQL is built.
    case 'null': return sql`null`;
    default: return assertNever(value);
  }
}

/** Orders like SQLite's BINARY collation (and PostgreSQL's "C"): strings by code point, not by UTF-16 unit. */
function compareConstants(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = [...String(a)];
  const right = [...String(b)];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = (left[i]?.codePointAt(0) ?? 0) - (right[i]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** `left op right` as SQL, TRUE only when both are non-null and the relation holds (as SQL comparisons are). */
function relation(operator: SqlOperator, left: ODataValue, right: ODataValue, dialect: ODataDialect): Condition {
  const a = constantOf(left);
  const b = constantOf(right);
  if (a?.isNull === true || b?.isNull === true) return false;
  if (a !== undefined && b !== undefined) {
    const order = compareConstants(a.value, b.value);
    switch (operator) {
      case '=': return order === 0;
      case '<>': return order !== 0;
      case '>': return order > 0;
      case '>=': return order >= 0;
      case '<': return order < 0;
      case '<=': return order <= 0;
      default: return assertNever(operator);
    }
  }
  return sql<SqlBool>`${valueSql(left, dialect)} ${sql.raw(operator)} ${valueSql(right, dialect)}`;
}

/** The comparison that is true exactly where the negated one is false (eq and ne are each other's complement). */
const NEGATED = { eq: 'ne', ne: 'eq', gt: 'not gt', lt: 'not lt', ge: 'not ge', le: 'not le' } as const;

/**
 * OData comparisons are two-valued (URL Conventions 5.1.1.1): eq/ne treat null as equal to itself only; gt/lt are
 * false when either side is null; ge/le are true when both are null. `negated` asks for the rows where the comparison
 * is false.
 */
function comparison(node: Comparison, negated: boolean, dialect: ODataDialect): Condition {
  const { left, right } = node;
  const rel = (operator: SqlOperator): Condition => relation(operator, left, right, dialect);
  const bothNull = (): Condition => all([isNull(left, true), isNull(right, true)]);
  const oneNull = (): Condition => any([
    all([isNull(left, true), isNull(right, false)]),
    all([isNull(left, false), isNull(right, true)]),
  ]);
  const eitherNull = (): Condition => any([isNull(left, true), isNull(right, true)]);
  const operator = negated ? NEGATED[node.operator] : node.operator;
  switch (operator) {
    case 'eq': return any([rel('='), bothNull()]);
    case 'ne': return any([rel('<>'), oneNull()]);
    case 'gt': return rel('>');
    case 'lt': return rel('<');
    case 'ge': return any([rel('>='), bothNull()]);
    case 'le': return any([rel('<='), bothNull()]);
    case 'not gt': return any([rel('<='), eitherNull()]);
    case 'not lt': return any([rel('>='), eitherNull()]);
    case 'not ge': return any([rel('<'), oneNull()]);
    case 'not le': return any([rel('>'), oneNull()]);
    default: return assertNever(operator);
  }
}

/** String functions return null for a null argument, so neither polarity holds then. */
function stringPredicate(node: StringPredicate, negated: boolean, dialect: ODataDialect): Condition {
  if (constantOf(node.text)?.isNull === true || constantOf(node.search)?.isNull === true) return false;
  const text = valueSql(node.text, dialect) as Expression<string | null>;
  const search = valueSql(node.search, dialect) as Expression<string | null>;
  const holds = node.function === 'contains'
    ? dialect.contains(text, search)
    : node.function === 'startswith'
      ? dialect.startsWith(text, search)
      : dialect.endsWith(text, search);
  // SQL NOT keeps NULL as NULL, which is what a null OData result needs.
  return negated ? sql<SqlBool>`not (${holds})` : holds;
}

/**
 * SQL that is TRUE exactly where the OData expression is true (or, negated, exactly where it is false). OData's
 * and/or/not are three-valued like SQL's, but comparisons are two-valued, so `not` is pushed down to the leaves
 * (De Morgan holds in three-valued logic) instead of being emitted as SQL NOT over a possibly NULL comparison.
 */
function condition(node: ODataFilter, negated: boolean, dialect: ODataDialect): Condition {
  switch (node.kind) {
    case 'boolean': return node.value !== negated;
    case 'compare': return comparison(node, negated, dialect);
    case 'stringPredicate': return stringPredicate(node, negated, dialect);
    case 'and': {
      const operands = node.operands.map((o) => condition(o, negated, dialect));
      return negated ? any(operands) : all(operands);
    }
    case 'or': {
      const operands = node.operands.map((o) => condition(o, negated, dialect));
      return negated ? all(operands) : any(operands);
    }
    case 'not': return condition(node.operand, !negated, dialect);
    default: return assertNever(node);
  }
}

/** The WHERE condition for a $filter: TRUE for exactly the rows the OData expression is true for. */
function filterToSql(filter: ODataFilter, dialect: ODataDialect): Expression<SqlBool> {
  return toExpression(condition(filter, false, dialect));
}

/**
 * Adds the filter, ordering and paging of a parsed query to a select over the entity set's table. Column references
 * are unqualified, so the table must not be joined with another that has columns of the same names.
 */
export function applyODataQuery<DB, TB extends keyof DB, O>(
  builder: SelectQueryBuilder<DB, TB, O>,
  query: ODataQuery,
  dialect: ODataDialect,
): SelectQueryBuilder<DB, TB, O> {
  let result = query.filter === undefined ? builder : builder.where(filterToSql(query.filter, dialect));
  for (const item of query.orderBy) {
    // OData sorts null first ascending and last descending; PostgreSQL's default is the opposite, so say it. Not for
    // a column without nulls: PostgreSQL would then sort the rows instead of reading them in the order of its index.
    result = result.orderBy(sql.ref(item.column), (order) => {
      if (item.notNull === true) return item.direction === 'asc' ? order.asc() : order.desc();
      return item.direction === 'asc' ? order.asc().nullsFirst() : order.desc().nullsLast();
    });
  }
  if (query.top !== undefined) result = result.limit(query.top);
  if (query.skip !== undefined) {
    if (query.top === undefined) result = result.limit(NO_LIMIT);
    result = result.offset(query.skip);
  }
  return result;
}

/**
 * The rows that come after `row` in the order `orderBy` (OData's: nulls first ascending, last descending; the key last,
 * so the order is total): a where-clause that pages on by key instead of by a growing OFFSET, whose cost grows with
 * every page. `row` holds the columns of the last row of the page before.
 */
export function rowsAfter(orderBy: readonly ODataOrderItem[], row: Readonly<Record<string, unknown>>): RawBuilder<SqlBool> {
  const alternatives: RawBuilder<SqlBool>[] = [];
  orderBy.forEach((item, index) => {
    const after = afterValue(item, row[item.column]);
    if (after === undefined) return;
    const equalBefore = orderBy.slice(0, index).map((earlier) => sameValue(earlier, row[earlier.column]));
    alternatives.push(sql<SqlBool>`(${sql.join([...equalBefore, after], sql` and `)})`);
  });
  return alternatives.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`;
}

function sameValue(item: ODataOrderItem, value: unknown): RawBuilder<SqlBool> {
  return value === null || value === undefined ? sql<SqlBool>`${sql.ref(item.column)} is null` : sql<SqlBool>`${sql.ref(item.column)} = ${value}`;
}

/** What comes after `value` in one key's order; undefined when nothing does (descending, where nulls come last). */
function afterValue(item: ODataOrderItem, value: unknown): RawBuilder<SqlBool> | undefined {
  const column = sql.ref(item.column);
  const isNull = value === null || value === undefined;
  if (item.direction === 'asc') return isNull ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`${column} > ${value}`;
  if (isNull) return undefined;
  return item.notNull === true ? sql<SqlBool>`${column} < ${value}` : sql<SqlBool>`(${column} < ${value} or ${column} is null)`;
}

