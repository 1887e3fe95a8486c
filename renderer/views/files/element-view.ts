/**
 * Which elements of a file the grid shows, in which order: the user's quick filter, per-column filters and sort,
 * computed over the cache in short steps (the scan, the grouping, the sort and the packing of the ids alike: never a
 * long task), as a list of element ids (packed: see packed-ids.ts) with a split element's parts kept together
 * (element-groups.ts). The grid then reads only the rows it shows, by id. Without filters or sort the view is the
 * file's ids in id order, read from the keys alone. A filter keeps the parts that match, under their parent; a sort
 * orders a split element by its parent's value (parent-values.ts: the sum of a volume, the name its parts share) and
 * its parts among themselves by their own. Filters and sorts go by the words the grid shows: a phase, which the server
 * names in English, in the user's language, worded and keyed once per distinct phase rather than per element.
 */
import { elementIdsOf, scanElements } from '../../db/reads';
import type { CacheDb } from '../../db/cache-db';
import { PackedIdsBuilder, type PackedIds } from '../../db/packed-ids';
import { eachInSteps } from '../../each-in-steps';
import { sortInSteps } from '../../sort-in-steps';
import type { ElementRow } from '../../db/schema';
import { ELEMENT_COLUMNS, elementColumn, type ElementColumn, type ElementColumnKey } from './element-columns';
import { entrySpan, groupedView, groupParts, packInOrder, viewGroups, type ElementView, type Grouping } from './element-groups';
import { PartKind } from './element-parts';
import { parentQuantity, sharedValue } from './parent-values';
import { inFocus, type ElementFocus } from './element-focus';
import { shownPhaseMatch } from './inferred-values';
import type { PhaseMatch } from '../../../shared/api/schemas';
import { catalogueNamesOf, type CatalogueName, type MappingRef } from '../../components/use-mapping-names';

/** A column to sort by, and which way. */
export interface ElementSort {
  column: ElementColumnKey;
  direction: 'asc' | 'desc';
}

/** What the user asked the grid for. */
export interface ElementQuery {
  /** Text any shown column contains (case and accents ignored). */
  quick: string;
  /** Per column: text it contains; for quantities also `>x`, `>=x`, `<x`, `<=x`, `=x` or `a..b`. */
  filters: Partial<Record<ElementColumnKey, string>>;
  sort: ElementSort | null;
  /** Only elements mapped to nothing. */
  unmappedOnly: boolean;
  /** Only the elements of a group of the import report (element-focus.ts); absent or null: all. */
  focus?: ElementFocus | null;
}

/**
 * The user's words for what the grid shows in words of its own: a phase the server names in English
 * (`use-phase-words.ts`), and the item an element is mapped to by its name (`use-mapping-names.ts`), given the item
 * the cache holds for it.
 */
export interface ElementWords {
  phase: (match: PhaseMatch) => string;
  mapping: (mapping: MappingRef, item: CatalogueName | undefined) => string;
}

/** The catalogue items by id, for the mapping's words; empty when no filter or sort looks at the mapping. */
type CatalogueNames = ReadonlyMap<string, CatalogueName>;

/** A query that shows every element in id order. */
export const PLAIN_QUERY: ElementQuery = { quick: '', filters: {}, sort: null, unmappedOnly: false };

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLocaleLowerCase();
}

/** A test of a number: a comparison or a range. Answers undefined for text that is not one. */
export function parseQuantityFilter(text: string): ((value: number) => boolean) | undefined {
  const trimmed = text.trim().replace(',', '.');
  const range = /^(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)$/.exec(trimmed);
  if (range !== null) {
    const low = Number(range[1]);
    const high = Number(range[2]);
    return (value) => value >= low && value <= high;
  }
  const comparison = /^(>=|<=|>|<|=)?\s*(-?\d+(?:\.\d+)?)$/.exec(trimmed);
  if (comparison === null) return undefined;
  const bound = Number(comparison[2]);
  switch (comparison[1]) {
    case '>':
      return (value) => value > bound;
    case '>=':
      return (value) => value >= bound;
    case '<':
      return (value) => value < bound;
    case '<=':
      return (value) => value <= bound;
    default:
      return (value) => value === bound;
  }
}

/** Whether a query leaves elements out: a quick filter, a column's filter or "unmapped only". */
export function isFiltering(query: ElementQuery): boolean {
  return (
    query.quick.trim() !== '' || Object.values(query.filters).some((text) => (text ?? '').trim() !== '') || query.unmappedOnly || (query.focus ?? null) !== null
  );
}

/** Whether a query keeps every element in id order. */
export function isPlainQuery(query: ElementQuery): boolean {
  return !isFiltering(query) && query.sort === null;
}

type SortKey = string | number | null;

/**
 * The key text sorts by: folded, its digit runs padded, so that comparing keys as plain strings orders them as a
 * person reads them ("Wall 2" before "Wall 10") without a collator call per comparison, which would make sorting a
 * large file one long task.
 */
function textSortKey(text: string): SortKey {
  return text === '' ? null : fold(text).replace(/\d+/g, (digits) => digits.padStart(16, '0'));
}

/** A column's text as the grid shows it, folded, and the key a row sorts by. */
interface ColumnReader {
  folded(row: ElementRow): string;
  sortKey(row: ElementRow): SortKey;
}

/** Folded words and a sort key made once per distinct value (a file has a handful of phases and items) and kept. */
function wordedOnce<K>(word: (key: K) => string): (key: K) => { folded: string; sortKey: SortKey } {
  const known = new Map<K, { folded: string; sortKey: SortKey }>();
  return (key) => {
    let worded = known.get(key);
    if (worded === undefined) {
      const text = word(key);
      worded = { folded: fold(text), sortKey: textSortKey(text) };
      known.set(key, worded);
    }
    return worded;
  };
}

/**
 * How a column is read for filters and sorts, in `words`: a phase and a mapped item as the grid says them, worded once
 * per distinct phase or item and looked up per element (by the match's id and name, the item's id), without a string
 * made per element. An unmapped element has no mapping text, so it sorts last as any cell without a value.
 */
function readerOf(column: ElementColumn, words: ElementWords, names: CatalogueNames): ColumnReader {
  const plain: ColumnReader = {
    folded: (row) => fold(column.text(row)),
    sortKey: (row) => (column.kind === 'quantity' ? column.number(row) : textSortKey(column.text(row))),
  };
  const by = (worded: (row: ElementRow) => { folded: string; sortKey: SortKey } | null): ColumnReader => ({
    folded: (row) => worded(row)?.folded ?? plain.folded(row),
    sortKey: (row) => {
      const known = worded(row);
      return known === null ? plain.sortKey(row) : known.sortKey;
    },
  });
  if (column.key === 'phase') {
    const byId = new Map<string, (name: string) => { folded: string; sortKey: SortKey }>();
    return by((row) => {
      const match = shownPhaseMatch(row);
      if (match === null) return null;
      let byName = byId.get(match.id);
      if (byName === undefined) {
        const id = match.id;
        byName = wordedOnce((name: string) => words.phase({ id, name }));
        byId.set(id, byName);
      }
      return byName(match.name);
    });
  }
  if (column.kind === 'mapping') {
    const byItem = new Map<string, (type: number) => { folded: string; sortKey: SortKey }>();
    return by((row) => {
      const mapping = row.mapping;
      if (mapping === null) return null;
      let byType = byItem.get(mapping.id);
      if (byType === undefined) {
        const id = mapping.id;
        byType = wordedOnce((type: number) => words.mapping({ id, type }, names.get(id)));
        byItem.set(id, byType);
      }
      return byType(mapping.type);
    });
  }
  return plain;
}

/** Whether a query filters or sorts by the mapping's words: only then are the catalogue's names read. */
function readsMapping(query: ElementQuery, shown: readonly ElementColumnKey[]): boolean {
  return (query.quick.trim() !== '' && shown.includes('mapping')) || (query.filters.mapping ?? '').trim() !== '' || query.sort?.column === 'mapping';
}

/** The test a query makes of a row, given the columns shown (the quick filter looks at those), in `words`. */
export function rowFilter(
  query: ElementQuery,
  shown: readonly ElementColumnKey[],
  words: ElementWords,
  names: CatalogueNames = new Map(),
): (row: ElementRow) => boolean {
  const quick = fold(query.quick.trim());
  const quickColumns = ELEMENT_COLUMNS.filter((column) => shown.includes(column.key)).map((column) => readerOf(column, words, names));
  const tests: ((row: ElementRow) => boolean)[] = [];
  if (query.unmappedOnly) tests.push((row) => row.mapping === null);
  const focus = query.focus ?? null;
  if (focus !== null) tests.push((row) => inFocus(row, focus));
  if (quick !== '') tests.push((row) => quickColumns.some((column) => column.folded(row).includes(quick)));
  for (const [key, raw] of Object.entries(query.filters) as [ElementColumnKey, string | undefined][]) {
    const text = (raw ?? '').trim();
    if (text === '') continue;
    const column = elementColumn(key);
    const numeric = column.kind === 'quantity' ? parseQuantityFilter(text) : undefined;
    if (numeric !== undefined) {
      tests.push((row) => {
        const value = column.number(row);
        return value !== null && numeric(value);
      });
    } else {
      const folded = fold(text);
      const reader = readerOf(column, words, names);
      tests.push((row) => reader.folded(row).includes(folded));
    }
  }
  return (row) => tests.every((test) => test(row));
}

/** Orders keys: values before none, numbers by size, text by its sort key. */
function compareKeys(a: SortKey, b: SortKey): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How far a view's computation got. */
export interface ViewProgress {
  scanned: number;
}

/**
 * The elements a query shows, in its order. Elements of equal sort keys stay in id order; elements without a value
 * come last either way. Text is filtered and sorted in `words`. Stops (answering what it has) when `signal` aborts.
 */
export async function buildElementView(
  db: CacheDb,
  fileId: string,
  query: ElementQuery,
  shown: readonly ElementColumnKey[],
  words: ElementWords,
  options: { signal?: AbortSignal; onProgress?: (progress: ViewProgress) => void } = {},
): Promise<ElementView> {
  const { signal } = options;
  if (isPlainQuery(query)) return groupedView(await elementIdsOf(db, fileId, undefined, signal), false, signal);
  const open = isFiltering(query);
  const names = readsMapping(query, shown) ? await catalogueNamesOf(db) : new Map<string, CatalogueName>();
  const keep = rowFilter(query, shown, words, names);
  const sortColumn = query.sort === null ? null : elementColumn(query.sort.column);
  const sortReader = sortColumn === null ? null : readerOf(sortColumn, words, names);
  // Kept ids are packed as they are found and their keys held apart (no object per element): a view of a million
  // elements otherwise keeps a million small objects alive through the scan, and the collector's pauses grow with them.
  const found = new PackedIdsBuilder();
  const keys: SortKey[] = [];
  let scanned = 0;
  await scanElements(
    db,
    fileId,
    (rows) => {
      for (const row of rows) {
        if (!keep(row)) continue;
        found.add(row.id);
        if (sortReader !== null) keys.push(sortReader.sortKey(row));
      }
      scanned += rows.length;
      options.onProgress?.({ scanned });
    },
    signal,
  );
  const kept = found.build();
  if (sortColumn === null || query.sort === null || signal?.aborted === true) return groupedView(kept, open, signal);
  const sign = query.sort.direction === 'asc' ? 1 : -1;
  const compare = (a: SortKey, b: SortKey): number => (a === null || b === null ? compareKeys(a, b) : sign * compareKeys(a, b));
  const grouping = await groupParts(kept, signal);
  if (grouping === null) {
    const order = await sortInSteps(
      Array.from({ length: kept.length }, (_, index) => index),
      (a, b) => compare(keys[a] ?? null, keys[b] ?? null),
      signal,
    );
    return { ids: await packInOrder(kept, order, signal), groups: null, open };
  }
  return sortGroups(kept, grouping, keys, sortColumn, compare, open, signal);
}

/**
 * A grouped view in the order of `compare`: each split element's parts by their own keys (equal ones in the set's
 * order), and the entries by their keys, a split element's being its parent's value, else its first part's.
 */
async function sortGroups(
  kept: PackedIds,
  grouping: Grouping,
  keys: readonly SortKey[],
  column: ElementColumn,
  compare: (a: SortKey, b: SortKey) => number,
  open: boolean,
  signal: AbortSignal | undefined,
): Promise<ElementView> {
  const { order, ends, kinds } = grouping;
  const entries = ends.length;
  const keyOf = (position: number): SortKey => keys[position] ?? null;
  const entryKeys: SortKey[] = [];
  await eachInSteps(
    entries,
    (entry) => {
      const { first, end } = entrySpan(grouping, entry);
      if (kinds[entry] === PartKind.None) {
        entryKeys.push(keyOf(order[first] ?? 0));
        return;
      }
      const members = Array.from(order.subarray(first, end)).sort((a, b) => compare(keyOf(a), keyOf(b)));
      order.set(members, first);
      const memberKeys = members.map(keyOf);
      const parent = column.kind === 'quantity' ? parentQuantity(column.key, memberKeys.map((key) => (typeof key === 'number' ? key : null))) : sharedValue(memberKeys);
      entryKeys.push(parent ?? memberKeys[0] ?? null);
    },
    signal,
  );
  const entryOrder = await sortInSteps(
    Array.from({ length: entries }, (_, entry) => entry),
    (a, b) => compare(entryKeys[a] ?? null, entryKeys[b] ?? null),
    signal,
  );
  const sorted = new Uint32Array(order.length);
  const sortedEnds = new Uint32Array(entries);
  const sortedKinds = new Uint8Array(entries);
  let filled = 0;
  await eachInSteps(
    entries,
    (rank) => {
      const entry = entryOrder[rank] ?? 0;
      const { first, end } = entrySpan(grouping, entry);
      sorted.set(order.subarray(first, end), filled);
      filled += end - first;
      sortedEnds[rank] = filled;
      sortedKinds[rank] = kinds[entry] ?? PartKind.None;
    },
    signal,
  );
  const ids = await packInOrder(kept, sorted, signal);
  return { ids, groups: await viewGroups(sortedEnds, sortedKinds, open, signal), open };
}
