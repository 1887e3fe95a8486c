/** How a wire field can be used in $filter and $orderby. */
export type ODataFieldType = 'string' | 'number' | 'uuid' | 'string-array';

/** Field types that can be compared and ordered (collections cannot). */
export type ODataScalarType = Exclude<ODataFieldType, 'string-array'>;

/** One wire path (`mapping/type`) and the database column that holds it. */
export interface ODataField {
  readonly column: string;
  readonly type: ODataFieldType;
  /** The column never holds null (a key): it is ordered without a NULLS clause, so that an index on it serves the order. */
  readonly notNull?: boolean;
}

/** Wire path (segments joined by `/`) → column and type; key order is the wire order of the entity. */
export type ODataFieldMap<P extends string = string> = { readonly [K in P]: ODataField };

/** The top-level wire field a path belongs to: `mapping/type` → `mapping`. */
export type TopLevelField<P extends string> = P extends `${infer Head}/${string}` ? Head : P;

/** An entity set that OData query options can be applied to. */
export interface ODataEntitySet<P extends string = string> {
  readonly fields: ODataFieldMap<P>;
  /** A unique scalar path, appended to every $orderby so that paging with $top/$skip is stable and complete. */
  readonly keyPath: P;
}

/** The field for a wire path, or undefined; never looks at inherited properties such as `constructor`. */
export function lookUpField(fields: ODataFieldMap, path: string): ODataField | undefined {
  return Object.hasOwn(fields, path) ? fields[path] : undefined;
}

/** The paths below a structured top-level field (`mapping` → `mapping/type`, `mapping/id`), empty for scalar or unknown names. */
export function subPathsOf(fields: ODataFieldMap, name: string): string[] {
  return Object.keys(fields).filter((path) => path.startsWith(`${name}/`));
}

/** The distinct top-level wire fields in wire order. */
export function topLevelFields<P extends string>(fields: ODataFieldMap<P>): TopLevelField<P>[] {
  const names = new Set<string>();
  for (const path of Object.keys(fields)) names.add(path.split('/', 1)[0] ?? path);
  // Each name is the first segment of a key of `fields`, which is what TopLevelField<P> describes.
  return [...names] as TopLevelField<P>[];
}
