/**
 * A property path of $filter or $orderby, resolved against the field map to a scalar field: the one place that tells
 * an unknown field, a structured one (naming its paths) and a collection apart.
 */
import type { FieldReference } from './ast';
import { lookUpField, subPathsOf, type ODataFieldMap } from './field-map';
import type { IdentifierToken } from './lexer';
import { describeToken, type TokenCursor } from './token-cursor';

const LAMBDA_OPERATORS: ReadonlySet<string> = new Set(['any', 'all']);

/** What a call of `name` is told: lambda operators and other functions alike are outside our subset. */
export function unsupportedCall(name: string): string {
  return LAMBDA_OPERATORS.has(name.toLowerCase()) ? 'lambda operators (any, all) are not supported' : `unsupported function '${name}'`;
}

/** `first ( "/" identifier )*` resolved against the field map to a scalar field. */
export function parseFieldPath(cursor: TokenCursor, first: IdentifierToken, fields: ODataFieldMap): FieldReference {
  const segments = [first.text];
  while (cursor.peek().kind === 'slash') {
    cursor.next();
    const segment = cursor.next();
    if (segment.kind !== 'identifier') cursor.fail(segment.start, `expected a property name after '/', found ${describeToken(segment)}`);
    if (cursor.text[segment.end] === '(') cursor.fail(segment.start, unsupportedCall(segment.text));
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
