import { Readable } from 'node:stream';
import { badRequest, type ApiError } from './errors';

/** The deepest nesting of objects and arrays a request may carry; no body of the API comes near it. */
export const MAX_NESTING = 64;

/** Where a walk stopped: at a value (or key) that matched, or at an object or array nested deeper than allowed. */
interface Stop {
  path: string;
  tooDeep: boolean;
}

/** An object or array being walked, with the entries still to visit. */
interface Frame {
  entries: Iterator<[string, unknown]>;
  path: string;
  depth: number;
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !(value instanceof Readable);
}

/**
 * The first place in `value`, in document order, where `matches` holds for a value or an object key, or where
 * objects and arrays nest deeper than `MAX_NESTING`. The walk keeps its own stack: a body nested 200,000 deep must
 * answer 400, not overflow the call stack.
 */
function firstStop(value: unknown, rootPath: string, matches: (item: unknown) => boolean): Stop | undefined {
  if (!isContainer(value)) return matches(value) ? { path: rootPath, tooDeep: false } : undefined;
  const stack: Frame[] = [{ entries: Object.entries(value)[Symbol.iterator](), path: rootPath, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const next = frame.entries.next();
    if (next.done === true) {
      stack.pop();
      continue;
    }
    const [key, item] = next.value;
    const itemPath = childPath(frame.path, key);
    if (matches(key)) return { path: itemPath, tooDeep: false };
    if (!isContainer(item)) {
      if (matches(item)) return { path: itemPath, tooDeep: false };
      continue;
    }
    if (frame.depth >= MAX_NESTING) return { path: itemPath, tooDeep: true };
    stack.push({ entries: Object.entries(item)[Symbol.iterator](), path: itemPath, depth: frame.depth + 1 });
  }
  return undefined;
}

function holdsNul(item: unknown): boolean {
  return typeof item === 'string' && item.includes('\0');
}

function isNonFiniteNumber(item: unknown): boolean {
  return typeof item === 'number' && !Number.isFinite(item);
}

function fieldName(path: string): string {
  return path === '' ? 'body' : path;
}

function tooDeepError(path: string): ApiError {
  return badRequest(`The request is invalid: ${path} nests objects and arrays deeper than ${MAX_NESTING} levels.`, [
    { path, message: `must not nest deeper than ${MAX_NESTING} levels` },
  ]);
}

/** The 400 for text holding U+0000. */
function nulTextError(field: string): ApiError {
  return badRequest(`The request is invalid: ${field} contains the character U+0000, which no text may hold.`, [
    { path: field, message: 'must not contain U+0000' },
  ]);
}

/** Refuses a value (path parameters or a query) nested too deep or holding U+0000 in a text or a key. */
export function checkTexts(value: unknown, rootPath: string): void {
  const stop = firstStop(value, rootPath, holdsNul);
  if (stop === undefined) return;
  throw stop.tooDeep ? tooDeepError(stop.path) : nulTextError(stop.path);
}

/**
 * Refuses a parsed body nested too deep or holding U+0000, and a body or query holding a number that is not finite:
 * type coercion reads the strings "Infinity" and "-Infinity" as numbers that pass every bound check of ajv and that no
 * JSON answer can carry.
 */
export function checkBodyValues(body: unknown, query: unknown): void {
  const nul = firstStop(body, '', holdsNul);
  if (nul !== undefined) throw nul.tooDeep ? tooDeepError(nul.path) : nulTextError(fieldName(nul.path));
  const nonFinite = firstStop(body, '', isNonFiniteNumber) ?? firstStop(query, '', isNonFiniteNumber);
  if (nonFinite === undefined) return;
  const field = fieldName(nonFinite.path);
  if (nonFinite.tooDeep) throw tooDeepError(field);
  throw badRequest(`The request is invalid: ${field} must be a finite number.`, [{ path: field, message: 'must be a finite number' }]);
}
