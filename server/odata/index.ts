import type { SelectQueryBuilder } from 'kysely';
import type { ODataQuery } from './ast';
import type { ODataDialect } from '../store/dialect';
import { ELEMENT_ENTITY_SET, type ElementWireField } from './element-fields';
import { parseODataQuery } from './parser';
import { applyODataQuery } from './translate';
export { rowsAfter } from './translate';

export type { ODataFilter, ODataOrderItem, ODataQuery, ODataValue } from './ast';
export { ODataError, type ODataOptionName } from './errors';
export { ELEMENT_FIELDS, type ElementWireField } from './element-fields';

/** The parsed OData options of an elements list request. */
export type ElementQuery = ODataQuery<ElementWireField>;

/** Parses the query parameters of `GET …/elements`; throws ODataError (a 400) for anything outside decisions §10. */
export function parseElementQuery(raw: Readonly<Record<string, unknown>>): ElementQuery {
  return parseODataQuery(raw, ELEMENT_ENTITY_SET);
}

/**
 * Adds the where/order by/limit/offset of `query` to a select from `elements` (already scoped to one building file),
 * and returns it with the wire fields the response must carry.
 */
export function applyElementQuery<DB, TB extends keyof DB, O>(
  builder: SelectQueryBuilder<DB, TB, O>,
  query: ElementQuery,
  dialect: ODataDialect,
): { builder: SelectQueryBuilder<DB, TB, O>; fields: readonly ElementWireField[] } {
  return { builder: applyODataQuery(builder, query, dialect), fields: query.select };
}
