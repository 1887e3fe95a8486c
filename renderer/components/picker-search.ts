/**
 * The searches of the pickers, pure: which catalogue items (cached materials and products) and which NL-SfB codes a
 * query finds, best first, at most `PICKER_LIMIT` of them (the rest is counted: typing more narrows the list). Accents
 * and case are ignored, and every word typed must be found.
 */
import type { NlSfbCodeEntry } from '../../shared/nl-sfb';
import type { MaterialRow, ProductRow } from '../db/schema';
import type { CatalogueKind } from '../stores/catalogues';
import { displayName } from '../views/catalogues/catalogue-form';
import { fold, matchesWords, queryWords, searchTextOf } from '../views/catalogues/catalogue-search';

/** The most options a picker lists at once. */
export const PICKER_LIMIT = 50;

/** An item of a picker's list. */
export interface PickerOption {
  key: string;
  label: string;
  detail: string;
  /** `data-*` attributes of the option, for tests and for what the page does with it. */
  attrs: Record<string, string>;
}

/** What a query found: the options shown and how many more matched. */
export interface PickerFound<T> {
  shown: T[];
  more: number;
}

/** A searchable entry: its folded search text and the folded text that ranks it first when the query starts it. */
interface Searchable<T> {
  value: T;
  text: string;
  head: string;
}

function search<T>(entries: readonly Searchable<T>[], query: string): PickerFound<T> {
  const words = queryWords(query);
  const start = fold(query.trim());
  const first: T[] = [];
  const rest: T[] = [];
  for (const entry of entries) {
    if (!matchesWords(entry.text, words)) continue;
    (start !== '' && entry.head.startsWith(start) ? first : rest).push(entry.value);
  }
  const found = [...first, ...rest];
  return { shown: found.slice(0, PICKER_LIMIT), more: Math.max(0, found.length - PICKER_LIMIT) };
}

/** A catalogue item as the catalogue picker lists it. */
export interface CatalogueChoice {
  id: string;
  kind: CatalogueKind;
  /** The name in the user's language (else another). */
  name: string;
  /** A material's family, a product's supplier. */
  detail: string;
}

/** The catalogue picker's searchable items, by name in `language`. */
export interface CatalogueSearch {
  find(query: string): PickerFound<CatalogueChoice>;
}

/** The search over cached materials and products: by their names in any language, family, supplier, code or id. */
export function catalogueSearch(materials: readonly MaterialRow[], products: readonly ProductRow[], language: string): CatalogueSearch {
  const entries: Searchable<CatalogueChoice>[] = [];
  for (const row of materials) {
    const name = displayName(row.name, language) || row.id;
    entries.push({ value: { id: row.id, kind: 'materials', name, detail: row.elementFamily ?? '' }, text: searchTextOf(row), head: fold(name) });
  }
  for (const row of products) {
    const name = displayName(row.name, language) || row.id;
    entries.push({ value: { id: row.id, kind: 'products', name, detail: row.supplier ?? '' }, text: searchTextOf(row), head: fold(name) });
  }
  entries.sort((a, b) => a.value.name.localeCompare(b.value.name, language));
  return { find: (query) => search(entries, query) };
}

const NL_SFB_ENTRIES = new WeakMap<readonly NlSfbCodeEntry[], Searchable<NlSfbCodeEntry>[]>();

/** The NL-SfB codes a query finds, by code or by words of their description; codes the query starts come first. */
export function classificationSearch(codes: readonly NlSfbCodeEntry[], query: string): PickerFound<NlSfbCodeEntry> {
  let entries = NL_SFB_ENTRIES.get(codes);
  if (entries === undefined) {
    entries = codes.map((entry) => ({ value: entry, text: fold(`${entry.code} ${entry.name}`), head: fold(entry.code) }));
    NL_SFB_ENTRIES.set(codes, entries);
  }
  return search(entries, query);
}
