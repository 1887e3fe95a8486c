/**
 * What an operand of $filter can be and how operands type-check: a Boolean expression, a value of a type, or a guid
 * literal that lives only until its comparison; and how each is named in a message.
 */
import { assertNever } from '../../shared/api/enums';
import type { ODataFilter, ODataValue } from './ast';
import { ODataError } from './errors';

/** A guid literal lives only until the comparison that gives it a uuid counterpart. */
interface GuidLiteral {
  readonly kind: 'guid';
  readonly value: string;
  readonly position: number;
}

export type Operand = ODataValue | ODataFilter | GuidLiteral;

/** What an operand can be compared with; `string-literal` also fits a uuid field. */
type OperandType = 'string' | 'string-literal' | 'number' | 'uuid' | 'guid' | 'null' | 'boolean';

/** An operand sorted by what it can be: a Boolean expression, a value, or a guid literal awaiting its comparison. */
type SortedOperand =
  | { readonly sort: 'boolean'; readonly filter: ODataFilter }
  | { readonly sort: 'value'; readonly value: ODataValue }
  | { readonly sort: 'guid'; readonly guid: GuidLiteral };

export function sortOperand(operand: Operand): SortedOperand {
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

export function operandType(operand: Operand): OperandType {
  const sorted = sortOperand(operand);
  return sorted.sort === 'value' ? valueType(sorted.value) : sorted.sort;
}

/** Whether `a op b` type-checks, in one direction; null fits anything, a quoted uuid fits a uuid. */
export function comparable(a: OperandType, b: OperandType): boolean {
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

export function describeOperand(operand: Operand): string {
  const sorted = sortOperand(operand);
  switch (sorted.sort) {
    case 'boolean': return 'a Boolean expression';
    case 'value': return describeValue(sorted.value);
    case 'guid': return 'a guid';
    default: return assertNever(sorted);
  }
}

/** Narrows an operand to a Boolean expression, or reports what was found instead (and `hint`). */
export function expectBoolean(operand: Operand, context: string, option: string, hint = ''): ODataFilter {
  const sorted = sortOperand(operand);
  if (sorted.sort === 'boolean') return sorted.filter;
  throw new ODataError(option, operand.position, `${context} needs a Boolean operand, found ${describeOperand(operand)}${hint}`);
}
