import { invalidField } from './catalogue-fields';

/**
 * A request's date-time as the API answers it: UTC with `Z` (decisions §1), whatever offset it was sent with
 * (`2019-06-28T00:00:00+02:00` → `2019-06-27T22:00:00.000Z`). A value that is no date-time is a 400 naming `path`.
 */
export function utcDateTime(value: string, path: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidField(path, `'${value}' is not an ISO 8601 date-time`);
  return new Date(time).toISOString();
}

/** `utcDateTime` of an optional value: absent or null stays null. */
export function utcDateTimeOrNull(value: string | null | undefined, path: string): string | null {
  return value === undefined || value === null ? null : utcDateTime(value, path);
}
