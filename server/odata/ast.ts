import type { ODataScalarType } from './field-map';

/** Comparison operators of $filter. */
export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

/** Boolean string functions of $filter; all case-sensitive, no wildcards. */
export type StringPredicateName = 'contains' | 'startswith' | 'endswith';

/** String-valued case conversions of $filter. */
export type CaseConversionName = 'tolower' | 'toupper';

/** Every node remembers where it starts in the option's text, so that type errors can name the position. */
interface Positioned {
  readonly position: number;
}

/** A resolved wire path, e.g. `mapping/type` → column `mappingType`. */
export interface FieldReference extends Positioned {
  readonly kind: 'field';
  readonly path: string;
  readonly column: string;
  readonly type: ODataScalarType;
}

/** A string literal, quotes and `''` escapes removed (a guid literal or a string compared with a uuid field: lowercase). */
export interface StringLiteral extends Positioned {
  readonly kind: 'string';
  readonly value: string;
}

/** A finite number literal. */
export interface NumberLiteral extends Positioned {
  readonly kind: 'number';
  readonly value: number;
}

/** The `null` literal. */
export interface NullLiteral extends Positioned {
  readonly kind: 'null';
}

/** `tolower(x)` or `toupper(x)` of a string-valued operand. */
export interface CaseConversion extends Positioned {
  readonly kind: 'case';
  readonly function: CaseConversionName;
  readonly argument: ODataValue;
}

/** A value-typed expression: what comparisons and string functions take as operands. */
export type ODataValue = FieldReference | StringLiteral | NumberLiteral | NullLiteral | CaseConversion;

/** `true` or `false`. */
export interface BooleanLiteral extends Positioned {
  readonly kind: 'boolean';
  readonly value: boolean;
}

/** `left op right` over two values of compatible types. */
export interface Comparison extends Positioned {
  readonly kind: 'compare';
  readonly operator: ComparisonOperator;
  readonly left: ODataValue;
  readonly right: ODataValue;
}

/** `contains(text, search)`, `startswith(…)` or `endswith(…)`. */
export interface StringPredicate extends Positioned {
  readonly kind: 'stringPredicate';
  readonly function: StringPredicateName;
  readonly text: ODataValue;
  readonly search: ODataValue;
}

/** `a and b and …`, flattened so that long chains do not nest deeply. */
export interface Conjunction extends Positioned {
  readonly kind: 'and';
  readonly operands: readonly ODataFilter[];
}

/** `a or b or …`, flattened like Conjunction. */
export interface Disjunction extends Positioned {
  readonly kind: 'or';
  readonly operands: readonly ODataFilter[];
}

/** `not x`. */
export interface Negation extends Positioned {
  readonly kind: 'not';
  readonly operand: ODataFilter;
}

/** A Boolean-typed $filter expression. */
export type ODataFilter = BooleanLiteral | Comparison | StringPredicate | Conjunction | Disjunction | Negation;

/** One $orderby key. */
export interface ODataOrderItem {
  readonly path: string;
  readonly column: string;
  readonly direction: 'asc' | 'desc';
  /** The column holds no nulls (see ODataField.notNull). */
  readonly notNull?: boolean;
}

/** The parsed and type-checked query options of one request. */
export interface ODataQuery<F extends string = string> {
  readonly filter: ODataFilter | undefined;
  /** Never empty: the requested keys, then the entity set's key ascending unless it was already among them. */
  readonly orderBy: readonly ODataOrderItem[];
  /** Top-level wire fields to return, in wire order; every field when $select is absent or `*`. */
  readonly select: readonly F[];
  readonly top: number | undefined;
  readonly skip: number | undefined;
}
