/**
 * The query options of a request parsed against an entity set: which options it gives (in any case, with or without
 * `$`), and each parsed: $orderby, $select, $top and $skip here, $filter by `filter-parser.ts`.
 */
import type { ODataOrderItem, ODataQuery } from './ast';
import { checkLength } from './bounds';
import { ODataError, type ODataOptionName } from './errors';
import { parseFieldPath } from './field-path';
import { lookUpField, topLevelFields, type ODataEntitySet, type ODataFieldMap, type TopLevelField } from './field-map';
import { parseFilter } from './filter-parser';
import { describeCharacter } from './lexer';
import { describeToken, TokenCursor } from './token-cursor';

const MAX_INT32 = 2_147_483_647;

/** All system query options of OData 4.01, which may be sent without `$` and in any case. */
const SYSTEM_OPTIONS: ReadonlySet<string> = new Set([
  'filter', 'orderby', 'select', 'top', 'skip', 'expand', 'count', 'search', 'apply', 'compute', 'format',
  'skiptoken', 'deltatoken', 'index', 'levels', 'schemaversion', 'id',
]);
const SUPPORTED_OPTIONS: ReadonlySet<string> = new Set<ODataOptionName>(['$filter', '$orderby', '$select', '$top', '$skip']);

/** Parses a $orderby value: a comma list of scalar field paths, each optionally followed by asc or desc. */
export function parseOrderBy(text: string, fields: ODataFieldMap): ODataOrderItem[] {
  checkLength('$orderby', text);
  const cursor: TokenCursor = new TokenCursor(text, '$orderby');
  const items: ODataOrderItem[] = [];
  for (;;) {
    const first = cursor.next();
    if (first.kind !== 'identifier') cursor.fail(first.start, `expected a property path, found ${describeToken(first)}`);
    if (text[first.end] === '(') cursor.fail(first.start, '$orderby accepts property paths only, not functions');
    const field = parseFieldPath(cursor, first, fields);
    let direction: ODataOrderItem['direction'] = 'asc';
    if (cursor.peek().kind === 'whitespace') {
      const space = cursor.next();
      const word = cursor.next();
      const lower = word.kind === 'identifier' ? word.text.toLowerCase() : undefined;
      if (word.kind === 'end') cursor.fail(space.start, 'unexpected whitespace at the end');
      if (lower !== 'asc' && lower !== 'desc') {
        cursor.fail(word.start, `expected 'asc' or 'desc', found ${describeToken(word)} ($orderby accepts property paths only)`);
      }
      direction = lower;
    }
    items.push({ path: field.path, column: field.column, direction, ...(lookUpField(fields, field.path)?.notNull === true ? { notNull: true } : {}) });
    const separator = cursor.next();
    if (separator.kind === 'end') return items;
    if (separator.kind === 'whitespace' && cursor.peek().kind === 'end') cursor.fail(separator.start, 'unexpected whitespace at the end');
    if (separator.kind !== 'comma') cursor.fail(separator.start, `expected ',' or the end, found ${describeToken(separator)}`);
  }
}

/** Parses a $select value: `*` or a comma list of top-level wire fields; returns them in wire order. */
function parseSelect<P extends string>(text: string, fields: ODataFieldMap<P>): TopLevelField<P>[] {
  checkLength('$select', text);
  const fail: (position: number, detail: string) => never = (position, detail) => {
    throw new ODataError('$select', position, detail);
  };
  const available: readonly string[] = topLevelFields(fields);
  const chosen = new Set<string>();
  let start = 0;
  for (;;) {
    const comma = text.indexOf(',', start);
    const end = comma === -1 ? text.length : comma;
    const item = text.slice(start, end);
    if (item === '*') {
      available.forEach((name) => chosen.add(name));
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(item)?.[0];
      if (name === undefined) fail(start, `expected a field name, found ${describeCharacter(text, start)}`);
      if (!available.includes(name)) fail(start, `unknown field '${name}'`);
      const nameEnd = start + name.length;
      if (text[nameEnd] === '/') fail(start, `nested paths are not supported in $select; select '${name}' to get all of it`);
      if (nameEnd < end) fail(nameEnd, `unexpected character ${describeCharacter(text, nameEnd)}`);
      chosen.add(name);
    }
    if (comma === -1) return topLevelFields(fields).filter((name) => chosen.has(name));
    start = comma + 1;
  }
}

/** Parses a $top or $skip value: `1*DIGIT` within int32. */
function parseNonNegativeInteger(text: string, option: '$top' | '$skip'): number {
  checkLength(option, text);
  if (text === '') throw new ODataError(option, 0, 'expected a non-negative integer');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === undefined || c < '0' || c > '9') {
      throw new ODataError(option, i, i === 0
        ? `expected a non-negative integer, found ${describeCharacter(text, i)}`
        : `unexpected character ${describeCharacter(text, i)}`);
    }
  }
  const significant = text.replace(/^0+(?=\d)/, '');
  if (significant.length > 10 || Number(significant) > MAX_INT32) {
    throw new ODataError(option, 0, `out of range; at most ${MAX_INT32}`);
  }
  return Number(significant);
}

/** The system option a query parameter names (lowercase, without `$`), or undefined for a custom option. */
function systemOptionName(key: string): string | undefined {
  if (key.startsWith('$')) return key.slice(1).toLowerCase();
  const lower = key.toLowerCase();
  return SYSTEM_OPTIONS.has(lower) ? lower : undefined;
}

function isSupportedOption(option: string): option is ODataOptionName {
  return SUPPORTED_OPTIONS.has(option);
}

function optionText(option: ODataOptionName, value: unknown): string {
  if (typeof value === 'string') return value;
  // A route schema that declares $top/$skip as integers hands them over already coerced.
  if (typeof value === 'number' && (option === '$top' || option === '$skip')) return String(value);
  if (Array.isArray(value)) throw new ODataError(option, 0, 'given more than once');
  throw new ODataError(option, 0, 'must be a single text value');
}

/**
 * Parses the query parameters of a request against an entity set. OData 4.01 system options are recognised in any
 * case and with or without `$`; other custom options are ignored; unsupported system options and parameter aliases are
 * refused.
 */
export function parseODataQuery<P extends string>(
  raw: Readonly<Record<string, unknown>>,
  entitySet: ODataEntitySet<P>,
): ODataQuery<TopLevelField<P>> {
  const texts = new Map<ODataOptionName, string>();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (key.startsWith('@')) throw new ODataError(key, 0, 'parameter aliases are not supported');
    const name = systemOptionName(key);
    if (name === undefined) continue;
    const option = `$${name}`;
    if (!isSupportedOption(option)) {
      throw new ODataError(key, 0, 'unsupported query option; supported are $filter, $orderby, $select, $top and $skip');
    }
    if (texts.has(option)) throw new ODataError(option, 0, 'given more than once');
    texts.set(option, optionText(option, value));
  }
  const filterText = texts.get('$filter');
  const orderByText = texts.get('$orderby');
  const selectText = texts.get('$select');
  const topText = texts.get('$top');
  const skipText = texts.get('$skip');
  const orderBy = orderByText === undefined ? [] : parseOrderBy(orderByText, entitySet.fields);
  if (!orderBy.some((item) => item.path === entitySet.keyPath)) {
    const key = entitySet.fields[entitySet.keyPath];
    orderBy.push({ path: entitySet.keyPath, column: key.column, direction: 'asc', ...(key.notNull === true ? { notNull: true } : {}) });
  }
  return {
    filter: filterText === undefined ? undefined : parseFilter(filterText, entitySet.fields),
    orderBy,
    select: selectText === undefined ? topLevelFields(entitySet.fields) : parseSelect(selectText, entitySet.fields),
    top: topText === undefined ? undefined : parseNonNegativeInteger(topText, '$top'),
    skip: skipText === undefined ? undefined : parseNonNegativeInteger(skipText, '$skip'),
  };
}
