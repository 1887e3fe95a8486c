/**
 * Values of resources as flat maps of field paths (`name`, `circular.recycledPercentageFeedstock`, `name.nl`): the
 * unit of local changes, of the push's three-way merge and of conflicts, so an edit of one language of a name does not
 * collide with an edit of another. Plain objects are walked into; arrays and scalars are single values.
 */
import { isRecord } from '../../shared/is-record';

/** A field path: the property names from the top of the resource, joined with dots (no API field holds a dot). */
export type FieldPath = string;

/** Field values by path. */
export type FlatFields = Record<FieldPath, unknown>;


/** The leaves of a value by path. Undefined leaves are left out: an absent field is an unchanged one. */
export function flattenFields(value: Readonly<Record<string, unknown>>, prefix = ''): FlatFields {
  const flat: FlatFields = {};
  for (const [name, field] of Object.entries(value)) {
    if (field === undefined) continue;
    const path = `${prefix}${name}`;
    if (isRecord(field)) Object.assign(flat, flattenFields(field, `${path}.`));
    else flat[path] = field;
  }
  return flat;
}

/** The value at a path, undefined where the path leads nowhere. */
export function getField(value: unknown, path: FieldPath): unknown {
  let current = value;
  for (const name of path.split('.')) {
    if (!isRecord(current)) return undefined;
    current = current[name];
  }
  return current;
}

/** A copy of `value` with the field at `path` set (objects on the way copied or created); undefined removes it. */
export function withField<T extends Record<string, unknown>>(value: T, path: FieldPath, field: unknown): T {
  const [name, ...rest] = path.split('.') as [string, ...string[]];
  const copy: Record<string, unknown> = { ...value };
  if (rest.length > 0) {
    const inner = copy[name];
    copy[name] = withField(isRecord(inner) ? inner : {}, rest.join('.'), field);
  } else if (field === undefined) {
    delete copy[name];
  } else {
    copy[name] = field;
  }
  return copy as T;
}

/** A copy of `value` with every field of `fields` set. */
export function withFields<T extends Record<string, unknown>>(value: T, fields: Readonly<FlatFields>): T {
  let result = value;
  for (const [path, field] of Object.entries(fields)) result = withField(result, path, field);
  return result;
}

/**
 * Whether two values are the same for the API: deep equality where null and absent are one (decisions §1: a missing
 * optional field is null), so `{ nl: 'x' }` equals `{ nl: 'x', en: null }`.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || (a == null && b == null)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].every((name) => sameValue(a[name], b[name]));
}

/** A copy of a JSON value with every string equal to `from` replaced by `to` (a local id by the server's). */
export function replaceString<T>(value: T, from: string, to: string): T {
  if (value === from) return to as T;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceString(item, from, to)) as T;
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, replaceString(field, from, to)])) as T;
  }
  return value;
}

/** Whether a JSON value holds a string satisfying `test` anywhere. */
export function containsString(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((item) => containsString(item, test));
  if (isRecord(value)) return Object.values(value).some((field) => containsString(field, test));
  return false;
}
