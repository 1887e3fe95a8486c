/**
 * The $filter grammar: a recursive-descent parser over the subset of OData's `commonExpr` we take (README,
 * "Decisions"), type-checking each operand as soon as its operator is known.
 */
import { assertNever } from '../../shared/api/enums';
import type { CaseConversionName, ComparisonOperator, ODataFilter, ODataValue, StringLiteral, StringPredicateName } from './ast';
import { checkLength, MAX_NESTING_DEPTH } from './bounds';
import { parseFieldPath, unsupportedCall } from './field-path';
import type { ODataFieldMap } from './field-map';
import type { IdentifierToken } from './lexer';
import { comparable, describeOperand, expectBoolean, operandType, sortOperand, type Operand } from './operands';
import { describeToken, TokenCursor } from './token-cursor';

const STRING_PREDICATES: ReadonlySet<string> = new Set<StringPredicateName>(['contains', 'startswith', 'endswith']);
const CASE_CONVERSIONS: ReadonlySet<string> = new Set<CaseConversionName>(['tolower', 'toupper']);
/** Infix operators of the ABNF outside our subset, named in the error instead of a generic "unexpected". */
const UNSUPPORTED_INFIX: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'div', 'divby', 'mod', 'in', 'has']);

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
      this.cursor.fail(token.start, unsupportedCall(token.text));
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
