/**
 * Small builders the API schemas are written with. They keep the schemas plain JSON Schema that Fastify's ajv,
 * fast-json-stringify, TypeBox's own compiler and the OpenAPI generator all read the same way.
 */
import { Type, type Static, type TNumberOptions, type TSchema, type TStringOptions, type TUnsafe } from 'typebox';

/** Smallest int32. */
export const INT32_MIN = -2_147_483_648;
/** Largest int32. */
export const INT32_MAX = 2_147_483_647;

/** The spec's `int32`: an integer within 32-bit bounds (narrower bounds may be given). */
export function Int32(options: TNumberOptions = {}) {
  return Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX, ...options });
}

/** The spec's `int64`. JavaScript numbers are exact to 2^53, far beyond any file size. */
export function Int64(options: TNumberOptions = {}) {
  return Type.Integer(options);
}

/** The spec's `double`. */
export function Double(options: TNumberOptions = {}) {
  return Type.Number(options);
}

/** A fraction 0..1 (decisions §1: percentages travel as fractions). */
export function Fraction(options: TNumberOptions = {}) {
  return Type.Number({ minimum: 0, maximum: 1, ...options });
}

/** The spec's `uuid`. */
export function Uuid(options: TStringOptions = {}) {
  return Type.String({ format: 'uuid', ...options });
}

/** The spec's `date-time` (ISO 8601 with offset). */
export function DateTime(options: TStringOptions = {}) {
  return Type.String({ format: 'date-time', ...options });
}

const nullableSources = new WeakMap<object, TSchema>();

/**
 * `schema` or null. A schema with a single `type` becomes `type: [type, 'null']` (an enum also lists null), because
 * fast-json-stringify serialises a type list much faster than an `anyOf`; an `anyOf` gains a null branch.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const source = schema as Record<string, unknown>;
  let nullable: Record<string, unknown>;
  if (typeof source['type'] === 'string') {
    nullable = { ...source, type: [source['type'], 'null'] };
    if (Array.isArray(source['enum'])) nullable['enum'] = [...source['enum'], null];
  } else if (Array.isArray(source['anyOf'])) {
    nullable = { ...source, anyOf: [...source['anyOf'], { type: 'null' }] };
  } else {
    nullable = { anyOf: [schema, { type: 'null' }] };
  }
  const result = Type.Unsafe<Static<T> | null>(nullable);
  nullableSources.set(result, schema);
  return result;
}

/** A request field: may be absent or null (decisions §1: missing optional request fields are null). */
export function Maybe<T extends TSchema>(schema: T) {
  const nullable = Nullable(schema);
  // Type.Optional copies the schema, so the copy is registered too: the OpenAPI generator follows it to `schema`.
  const optional = Type.Optional(nullable);
  nullableSources.set(optional, schema);
  return optional;
}

/** The schema a Nullable or Maybe wrapper was made from, if `schema` is one. */
export function nullableSource(schema: object): TSchema | undefined {
  return nullableSources.get(schema);
}

/** A string that is one of `values` (a plain JSON Schema `enum`, which every reader of these schemas understands). */
export function StringChoice<const Values extends readonly string[]>(values: Values, options: TStringOptions = {}): TUnsafe<Values[number]> {
  return Type.Unsafe<Values[number]>({ type: 'string', enum: [...values], ...options });
}
