/** How the sync engine reads the server's answers: a list of the expected items, or why an answer is unusable. */
import type { ApiFailure } from '../api/failure';
import { isRecord } from '../../shared/is-record';

/**
 * The answer as a list whose items have a string field `key` (and pass `check`), or undefined. Items are taken as the
 * contract's type beyond that: checking every field of every element would reject a server that adds a field, and
 * the cache stores what the server said.
 */
export function listOf<T>(value: unknown, key: string | null, check: (item: Record<string, unknown>) => boolean = () => true): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const valid = value.every((item) => isRecord(item) && (key === null || typeof item[key] === 'string') && check(item));
  return valid ? (value as T[]) : undefined;
}

/** The failure of an answer that is not what the operation promises. */
export function invalid(where: string, what: string): ApiFailure {
  return { kind: 'invalid-answer', message: `The answer of ${where} is not ${what}.` };
}
