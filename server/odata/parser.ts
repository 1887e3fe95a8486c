import { assertNever } from '../../shared/api/enums';
import {
  type CaseConversionName,
  type ComparisonOperator,
  type FieldReference,
  type ODataFilter,
  type ODataOrderItem,
  type ODataQuery,
  type ODataValue,
  type StringLiteral,
  type StringPredicateName,
} from './ast';
import { ODataError, type ODataOptionName } from './errors';
import {
  lookUpField,
  subPathsOf,
  topLevelFields,
  type ODataEntitySet,
  type ODataFieldMap,
  type TopLevelField,
} from './field-map';
import { describeCharacter, scanToken, type IdentifierToken, type Token } from './lexer';

/** Longest option text parsed; longer texts are refused before any work. */
export const MAX_OPTION_LENGTH = 8192;

/** Deepest nesting of parentheses, function calls and `not` in $filter; keeps recursion far from the stack limit. */
export const MAX_NESTING_DEPTH = 100;

const MAX_INT32 = 2_147_483_647;

const STRING_PREDICATES: ReadonlySet<string> = new Set<StringPredicateName>(['contains', 'startswith', 'endswith']);
const CASE_CONVERSIONS: ReadonlySet<string> = new Set<CaseConversionName>(['tolower', 'toupper']);
const LAMBDA_OPERATORS: ReadonlySet<string> = new Set(['any', 'all']);
/** Infix operators of the ABNF outside our subset, named in the error instead of a generic "unexpected". */
const UNSUPPORTED_INFIX: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'div', 'divby', 'mod', 'in', 'has']);

/** All system query options of OData 4.01, which may be sent without `$` and in any case. */
const SYSTEM_OPTIONS: ReadonlySet<string> = new Set([
  'filter', 'orderby', 'select', 'top', 'skip', 'expand', 'count', 'search', 'apply', 'compute', 'format',
  'skiptoken', 'deltatoken', 'index', 'levels', 'schemaversion', 'id',
]);
const SUPPORTED_OPTIONS: ReadonlySet<string> = new Set<ODataOptionName>(['$filter', '$orderby', '$select', '$top', '$skip']);

/** A guid literal lives only until the comparison that gives it a uuid counterpart. */
interface GuidLiteral {
  readonly kind: 'guid';
  readonly value: string;
  readonly position: number;
}

type Operand = ODataValue | ODataFilter | GuidLiteral;

/** What an operand can be compared with; `string-literal` also fits a uuid field. */
type OperandType = 'string' | 'string-literal' | 'number' | 'uuid' | 'guid' | 'null' | 'boolean';

/** An operand sorted by what it can be: a Boolean expression, a value, or a guid literal awaiting its comparison. */
type SortedOperand =
  | { readonly sort: 'boolean'; readonly filter: ODataFilter }
  | { readonly sort: 'value'; readonly value: ODataValue }
  | { readonly sort: 'guid'; readonly guid: GuidLiteral };

function sortOperand(operand: Operand): SortedOperand {
  switch (operand.kind) {
    case 'boolean':
    case 'compare':
    case 'stringPredicate':
    case 'and':
    case 'or':
    case 'not':
      return { sort: 'boolean', filter: operand };
    case 'field':
    case 'string':
    case 'case':
    case 'number':
    case 'null':
      return { sort: 'value', value: operand };
    case 'guid': return { sort: 'guid', guid: operand };
    default: return assertNever(operand);
  }
}

function valueType(value: ODataValue): OperandType {
  switch (value.kind) {
    case 'field': return value.type;
    case 'string': return 'string-literal';
    case 'case': return 'string';
    case 'number': return 'number';
    case 'null': return 'null';
    default: return assertNever(value);
  }
}

function operandType(operand: Operand): OperandType {
  const sorted = sortOperand(operand);
  return sorted.sort === 'value' ? valueType(sorted.value) : sorted.sort;
}

/** Whether `a op b` type-checks, in one direction; null fits anything, a quoted uuid fits a uuid. */
function comparable(a: OperandType, b: OperandType): boolean {
  return a === b || a === 'null' || b === 'null'
    || (a === 'string' && b === 'string-literal')
    || ((a === 'uuid' || a === 'guid') && (b === 'uuid' || b === 'guid' || b === 'string-literal'));
}

function describeValue(value: ODataValue): string {
  switch (value.kind) {
    case 'field': return `${value.type} field '${value.path}'`;
    case 'string': return 'a string';
    case 'case': return `${value.function}(…)`;
    case 'number': return 'a number';
    case 'null': return 'null';
    default: return assertNever(value);
  }
}

function describeOperand(operand: Operand): string {
  const sorted = sortOperand(operand);
  switch (sorted.sort) {
    case 'boolean': return 'a Boolean expression';
    case 'value': return describeValue(sorted.value);
    case 'guid': return 'a guid';
    default: return assertNever(sorted);
  }
}

function describeToken(token: Token): string {
  switch (token.kind) {
    case 'end': return 'the end';
    case 'whitespace': return 'whitespace';
    case 'open': return "'('";
    case 'close': return "')'";
    case 'comma': return "','";
    case 'slash': return "'/'";
    case 'identifier': return `'${token.text}'`;
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'guid': return 'a guid';
    default: return assertNever(token);
  }
}

function checkLength(option: string, text: string): void {
  if (text.length > MAX_OPTION_LENGTH) {
    throw new ODataError(option, MAX_OPTION_LENGTH, `longer than ${MAX_OPTION_LENGTH} characters`);
  }
}

/** Narrows an operand to a Boolean expression, or reports what was found instead (and `hint`). */
function expectBoolean(operand: Operand, context: string, option: string, hint = ''): ODataFilter {
  const sorted = sortOperand(operand);
  if (sorted.sort === 'boolean') return sorted.filter;
  throw new ODataError(option, operand.position, `${context} needs a Boolean operand, found ${describeOperand(operand)}${hint}`);
}

/**
 * Reads tokens on demand, so that the first error in reading order is the one reported. Tokens are remembered by
 * offset because operator lookahead backtracks over the same few tokens at every precedence level.
 */
class TokenCursor {
  offset = 0;
  private readonly scanned = new Map<number, Token>();

  constructor(
    readonly text: string,
    readonly option: string,
  ) {}

  peek(): Token {
    let token = this.scanned.get(this.offset);
    if (token === undefined) {
      token = scanToken(this.text, this.offset, this.option);
      this.scanned.set(this.offset, token);
    }
    return token;
  }

  next(): Token {
    const token = this.peek();
    this.offset = token.end;
    return token;
  }

  skipWhitespace(): void {
    if (this.peek().kind === 'whitespace') this.next();
  }

  fail(position: number, detail: string): never {
    throw new ODataError(this.option, position, detail);
  }
}

/** `first ( "/" identifier )*` resolved against the field map to a scalar field. */
function parseFieldPath(cursor: TokenCursor, first: IdentifierToken, fields: ODataFieldMap): FieldReference {
  const segments = [first.text];
  while (cursor.peek().kind === 'slash') {
    cursor.next();
    const segment = cursor.next();
    if (segment.kind !== 'identifier') cursor.fail(segment.start, `expected a property name after '/', found ${describeToken(segment)}`);
    if (cursor.text[segment.end] === '(') {
      cursor.fail(segment.start, LAMBDA_OPERATORS.has(segment.text.toLowerCase())
        ? 'lambda operators (any, all) are not supported'
        : `unsupported function '${segment.text}'`);
    }
    segments.push(segment.text);
  }
  const path = segments.join('/');
  const field = lookUpField(fields, path);
  if (field === undefined) {
    const subPaths = subPathsOf(fields, path);
    cursor.fail(first.start, subPaths.length > 0
      ? `'${path}' is a structured field; use one of ${subPaths.join(', ')}`
      : `unknown field '${path}'`);
  }
  if (field.type === 'string-array') cursor.fail(first.start, `'${path}' is a collection, which ${cursor.option} cannot use`);
  return { kind: 'field', path, column: field.column, type: field.type, position: first.start };
}

/**
 * Recursive descent over the $filter subset, with OData's precedence (URL Conventions 5.1.1.15): `not` binds
 * tighter than the relational operators, which bind tighter than eq/ne, then `and`, then `or`. Operands are type-checked
 * as soon as their operator is known, so errors point at the operand that does not fit.
 */
class FilterParser {
  private depth = 0;

  constructor(
    private readonly cursor: TokenCursor,
    private readonly fields: ODataFieldMap,
  ) {}

  parseOr(): Operand {
    const first = this.parseAnd();
    const operands = [first];
    while (this.tryInfix(['or'])) operands.push(this.parseAnd());
    if (operands.length === 1) return first;
    return { kind: 'or', operands: operands.map((o) => expectBoolean(o, "'or'", this.cursor.option)), position: first.position };
  }

  /** Reports whatever follows a complete expression where only an operator, ')' or the end may come. */
  failAfterExpression(expected: string): never {
    const token = this.cursor.next();
    if (token.kind !== 'whitespace') this.cursor.fail(token.start, `expected ${expected}, found ${describeToken(token)}`);
    const after = this.cursor.peek();
    if (after.kind === 'end') this.cursor.fail(token.start, 'unexpected whitespace at the end');
    this.cursor.fail(after.start, `expected ${expected}, found ${describeToken(after)}`);
  }

  private parseAnd(): Operand {
    const first = this.parseEquality();
    const operands = [first];
    while (this.tryInfix(['and'])) operands.push(this.parseEquality());
    if (operands.length === 1) return first;
    return { kind: 'and', operands: operands.map((o) => expectBoolean(o, "'and'", this.cursor.option)), position: first.position };
  }

  private parseEquality(): Operand {
    let left = this.parseRelational();
    for (let operator = this.tryInfix(['eq', 'ne']); operator; operator = this.tryInfix(['eq', 'ne'])) {
      left = this.comparison(operator, left, this.parseRelational());
    }
    return left;
  }

  private parseRelational(): Operand {
    let left = this.parseUnary();
    for (let operator = this.tryInfix(['gt', 'ge', 'lt', 'le']); operator; operator = this.tryInfix(['gt', 'ge', 'lt', 'le'])) {
      left = this.comparison(operator, left, this.parseUnary());
    }
    return left;
  }

  /** Consumes `RWS word RWS` if one of `words` (case-insensitive, as ABNF quoted strings are) comes next. */
  private tryInfix<W extends string>(words: readonly W[]): { operator: W; position: number } | undefined {
    const start = this.cursor.offset;
    if (this.cursor.peek().kind !== 'whitespace') return undefined;
    this.cursor.next();
    const word = this.cursor.peek();
    const operator = word.kind === 'identifier' ? words.find((w) => w === word.text.toLowerCase()) : undefined;
    if (operator === undefined) {
      this.cursor.offset = start;
      return undefined;
    }
    this.cursor.next();
    const space = this.cursor.peek();
    if (space.kind === 'end') this.cursor.fail(space.start, `expected an expression after '${operator}'`);
    if (space.kind !== 'whitespace') this.cursor.fail(space.start, `expected a space after '${operator}'`);
    this.cursor.next();
    return { operator, position: word.start };
  }

  private parseUnary(): Operand {
    const token = this.cursor.peek();
    const operand = token.kind === 'identifier' && token.text.toLowerCase() === 'not'
      ? this.parseNot(token)
      : this.parsePrimary();
    const after = this.cursor.peek();
    if (after.kind !== 'whitespace' && after.kind !== 'close' && after.kind !== 'comma' && after.kind !== 'end') {
      this.cursor.fail(after.start, `found ${describeToken(after)} directly after an operand`);
    }
    this.rejectUnsupportedInfix();
    return operand;
  }

  private parseNot(token: IdentifierToken): Operand {
    const following = this.cursor.text[token.end];
    if (following === undefined) this.cursor.fail(token.end, "expected an expression after 'not'");
    if (following === '(') this.cursor.fail(token.end, "expected a space after 'not'");
    if (following !== ' ' && following !== '\t') return this.parsePrimary();
    this.cursor.next();
    this.cursor.next();
    this.enterNesting(token.start);
    const operand = expectBoolean(this.parseUnary(), "'not'", this.cursor.option,
      "; 'not' binds tighter than comparisons, so write not (a eq b)");
    this.depth--;
    return { kind: 'not', operand, position: token.start };
  }

  private rejectUnsupportedInfix(): void {
    const start = this.cursor.offset;
    if (this.cursor.peek().kind !== 'whitespace') return;
    this.cursor.next();
    const word = this.cursor.peek();
    if (word.kind === 'identifier' && UNSUPPORTED_INFIX.has(word.text.toLowerCase())) {
      this.cursor.fail(word.start, `the '${word.text}' operator is not supported`);
    }
    this.cursor.offset = start;
  }

  private parsePrimary(): Operand {
    const token = this.cursor.next();
    switch (token.kind) {
      case 'open': {
        this.enterNesting(token.start);
        this.cursor.skipWhitespace();
        const inner = this.parseOr();
        this.cursor.skipWhitespace();
        if (this.cursor.peek().kind !== 'close') this.failAfterExpression("an operator or ')'");
        this.cursor.next();
        this.depth--;
        return inner;
      }
      case 'string': return { kind: 'string', value: token.value, position: token.start };
      case 'number': return { kind: 'number', value: token.value, position: token.start };
      case 'guid': return { kind: 'guid', value: token.value, position: token.start };
      case 'identifier': return this.parseIdentifier(token);
      case 'whitespace': return this.cursor.fail(token.start, 'unexpected whitespace');
      case 'end':
      case 'close':
      case 'comma':
      case 'slash':
        return this.cursor.fail(token.start, `expected an expression, found ${describeToken(token)}`);
      default: return assertNever(token);
    }
  }

  private parseIdentifier(token: IdentifierToken): Operand {
    const following = this.cursor.text[token.end];
    if (following === '(') return this.parseCall(token);
    if (following === "'") this.cursor.fail(token.start, `typed literals such as ${token.text}'…' are not supported`);
    // `null` is case-sensitive in the ABNF (%s"null"); `true`/`false` are not.
    if (token.text === 'null') return { kind: 'null', position: token.start };
    const lower = token.text.toLowerCase();
    if (lower === 'true' || lower === 'false') return { kind: 'boolean', value: lower === 'true', position: token.start };
    return parseFieldPath(this.cursor, token, this.fields);
  }

  private parseCall(token: IdentifierToken): Operand {
    const name = token.text.toLowerCase();
    const isCaseConversion = CASE_CONVERSIONS.has(name);
    if (!isCaseConversion && !STRING_PREDICATES.has(name)) {
      this.cursor.fail(token.start, LAMBDA_OPERATORS.has(name)
        ? 'lambda operators (any, all) are not supported'
        : `unsupported function '${token.text}'`);
    }
    const wrongCount = isCaseConversion ? `${name} takes 1 argument` : `${name} takes 2 arguments`;
    this.enterNesting(token.start);
    this.cursor.next();
    const first = this.expectString(this.parseArgument(), name);
    if (isCaseConversion) {
      this.expectArgumentEnd('close', wrongCount);
      this.depth--;
      return { kind: 'case', function: name as CaseConversionName, argument: first, position: token.start };
    }
    this.expectArgumentEnd('comma', wrongCount);
    const second = this.expectString(this.parseArgument(), name);
    this.expectArgumentEnd('close', wrongCount);
    this.depth--;
    return { kind: 'stringPredicate', function: name as StringPredicateName, text: first, search: second, position: token.start };
  }

  private parseArgument(): Operand {
    this.cursor.skipWhitespace();
    const argument = this.parseOr();
    this.cursor.skipWhitespace();
    return argument;
  }

  private expectArgumentEnd(expected: 'comma' | 'close', wrongCount: string): void {
    const token = this.cursor.next();
    if (token.kind === expected) return;
    if (token.kind === 'comma' || token.kind === 'close') this.cursor.fail(token.start, wrongCount);
    this.cursor.fail(token.start, `expected ${expected === 'comma' ? "','" : "')'"}, found ${describeToken(token)}`);
  }

  private enterNesting(position: number): void {
    this.depth++;
    if (this.depth > MAX_NESTING_DEPTH) this.cursor.fail(position, `nesting deeper than ${MAX_NESTING_DEPTH} levels`);
  }

  private expectString(operand: Operand, functionName: string): ODataValue {
    const type = operandType(operand);
    if (operand.kind !== 'guid' && (type === 'string' || type === 'string-literal' || type === 'null')) {
      return this.expectValue(operand);
    }
    return this.cursor.fail(operand.position, `${functionName} needs string arguments, found ${describeOperand(operand)}`);
  }

  /** Narrows an operand already known not to be Boolean or a guid. */
  private expectValue(operand: Operand): ODataValue {
    const sorted = sortOperand(operand);
    if (sorted.sort === 'value') return sorted.value;
    return this.cursor.fail(operand.position, `expected a value, found ${describeOperand(operand)}`);
  }

  private comparison(operator: { operator: string; position: number }, left: Operand, right: Operand): ODataFilter {
    const leftType = operandType(left);
    const rightType = operandType(right);
    if (leftType === 'boolean') this.cursor.fail(operator.position, 'Boolean values cannot be compared');
    if (rightType === 'boolean') this.cursor.fail(right.position, 'Boolean values cannot be compared');
    const uuidSide = leftType === 'uuid' || leftType === 'guid' || rightType === 'uuid' || rightType === 'guid';
    if (!comparable(leftType, rightType) && !comparable(rightType, leftType)) {
      this.cursor.fail(right.position, `cannot compare ${describeOperand(left)} with ${describeOperand(right)}`);
    }
    return {
      kind: 'compare',
      operator: operator.operator as ComparisonOperator,
      left: uuidSide ? this.asUuidValue(left) : this.expectValue(left),
      right: uuidSide ? this.asUuidValue(right) : this.expectValue(right),
      position: left.position,
    };
  }

  /** Guid literals and strings compared with a uuid field become lowercase strings, the form uuid columns hold. */
  private asUuidValue(operand: Operand): ODataValue {
    if (operand.kind !== 'guid' && operand.kind !== 'string') return this.expectValue(operand);
    const value = operand.value.toLowerCase();
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) {
      this.cursor.fail(operand.position, `'${operand.value}' is not a uuid`);
    }
    const literal: StringLiteral = { kind: 'string', value, position: operand.position };
    return literal;
  }
}

/** Parses a $filter expression of any type and rejects anything left over; exported for the ABNF `commonExpr` cases. */
export function parseCommonExpression(text: string, fields: ODataFieldMap): ODataFilter | ODataValue {
  checkLength('$filter', text);
  const cursor: TokenCursor = new TokenCursor(text, '$filter');
  const parser = new FilterParser(cursor, fields);
  const expression = parser.parseOr();
  if (cursor.peek().kind !== 'end') parser.failAfterExpression("an operator ('and', 'or', 'eq', …) or the end");
  if (expression.kind === 'guid') cursor.fail(expression.position, 'a guid can only be compared with a uuid field');
  return expression;
}

/** Parses a $filter value into a Boolean expression over `fields`. */
export function parseFilter(text: string, fields: ODataFieldMap): ODataFilter {
  return expectBoolean(parseCommonExpression(text, fields), '$filter', '$filter');
}

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
