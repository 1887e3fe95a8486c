/**
 * The searches of the pickers, pure: which catalogue items (cached materials and products) and which NL-SfB codes a
 * query finds, best first, at most `PICKER_LIMIT` of them (the rest is counted: typing more narrows the list). Accents
 * and case are ignored, and every word typed must be found. A catalogue item is also found by its material family in
 * any of the app's languages, and by a building part it is commonly used for ("door" finds wood, steel and
 * aluminium, `picker-synonyms.ts`): those come after the items that hold the words themselves. An NL-SfB code is found
 * by the same part words, its classes first ("door" finds the openings filled with doors before "doorgangen").
 */
import type { NlSfbCodeEntry } from '../../shared/nl-sfb';
import type { MaterialRow, ProductRow } from '../db/schema';
import { MESSAGES, SUPPORTED_LOCALES } from '../i18n';
import type { CatalogueKind } from '../stores/catalogues';
import { displayName, fallbackLanguage, LANGUAGES } from '../views/catalogues/catalogue-form';
import { fold, matchesWords, queryWords, searchTextOf } from '../views/catalogues/catalogue-search';
import { KNOWN_FAMILIES } from '../views/buildings/dashboard-figures';
import { synonymClassesOf, synonymTermsOf } from './picker-synonyms';

/** The most options a picker lists at once. */
export const PICKER_LIMIT = 50;

/** An item of a picker's list. */
export interface PickerOption {
  key: string;
  label: string;
  /** The language of the label when it is not the user's (a catalogue item without a name in it), for a mark. */
  language?: string | null;
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

/** Whether a folded text has a word that starts with `start`. */
function startsAWord(text: string, start: string): boolean {
  let from = text.indexOf(start);
  while (from !== -1) {
    if (from === 0 || !/[\p{L}\p{N}]/u.test(text.charAt(from - 1))) return true;
    from = text.indexOf(start, from + 1);
  }
  return false;
}

/**
 * What a query word stands for beyond its letters when it names a building part (`picker-synonyms.ts`): a test of an
 * entry, or null when the word names no part.
 */
type Synonyms<T> = (word: string) => ((entry: Searchable<T>) => boolean) | null;

/** Where entries found through a synonym stand: after those that hold the words, or before them. */
type SynonymRank = 'after' | 'before';

/**
 * The entries a query finds: those whose text holds every word, the ones whose head the query starts first; and, with
 * `synonyms`, those where each word is held or stands for the entry and one at least stands for it, ranked by `rank`.
 */
function search<T>(entries: readonly Searchable<T>[], query: string, synonyms?: Synonyms<T>, rank: SynonymRank = 'after'): PickerFound<T> {
  const words = queryWords(query);
  const start = fold(query.trim());
  const meanings = words.map((word) => ({ word, means: synonyms?.(word) ?? null }));
  const anyMeaning = meanings.some(({ means }) => means !== null);
  const bySynonym = (entry: Searchable<T>): boolean =>
    anyMeaning &&
    meanings.every(({ word, means }) => entry.text.includes(word) || (means?.(entry) ?? false)) &&
    meanings.some(({ means }) => means?.(entry) ?? false);
  const first: T[] = [];
  const meant: T[] = [];
  const rest: T[] = [];
  const meantLast: T[] = [];
  for (const entry of entries) {
    const held = matchesWords(entry.text, words);
    if (held && start !== '' && entry.head.startsWith(start)) first.push(entry.value);
    else if (rank === 'before' && bySynonym(entry)) meant.push(entry.value);
    else if (held) rest.push(entry.value);
    else if (rank === 'after' && bySynonym(entry)) meantLast.push(entry.value);
  }
  const found = [...first, ...meant, ...rest, ...meantLast];
  return { shown: found.slice(0, PICKER_LIMIT), more: Math.max(0, found.length - PICKER_LIMIT) };
}

/** A word's materials, found by the word starts of their names and families (`picker-synonyms.ts`). */
function materialSynonyms<T>(word: string): ((entry: Searchable<T>) => boolean) | null {
  const terms = synonymTermsOf(word);
  return terms.length === 0 ? null : (entry) => terms.some((term) => startsAWord(entry.text, term));
}

/** A catalogue item as the catalogue picker lists it. */
export interface CatalogueChoice {
  id: string;
  kind: CatalogueKind;
  /** The name in the user's language (else another). */
  name: string;
  /** The language of `name` when it is not the user's; null when it is (or the item has no name). */
  language: string | null;
  /** A material's family, a product's supplier. */
  detail: string;
  /** Its names in other languages that differ from the one it is listed by (`Naaldhout - grenen`, `nl`). */
  otherNames: { language: string; name: string }[];
}

/** The catalogue item a picker hands out: its id, kind, the name it was listed by and that name's language when not the user's. */
export type PickedItem = Pick<CatalogueChoice, 'id' | 'kind' | 'name' | 'language'>;

/** A picked item's name for a message: with its language's code beside it when it is not the user's, as the mark shows it. */
export function pickedName(item: PickedItem): string {
  return item.language === null ? item.name : `${item.name} (${item.language.toUpperCase()})`;
}

/** The catalogue picker's searchable items, by name in `language`. */
export interface CatalogueSearch {
  find(query: string): PickerFound<CatalogueChoice>;
}

/** A known material family's words in every language of the app, folded; nothing for another family. */
function familyWords(family: string | null | undefined): string {
  const known = KNOWN_FAMILIES.find((name) => name === family?.toLowerCase());
  return known === undefined ? '' : fold(SUPPORTED_LOCALES.map((locale) => MESSAGES[locale].buildings.financial.family[known]).join('\n'));
}

/** An item's names in the other languages that differ from the name it is listed by. */
function otherNamesOf(row: MaterialRow | ProductRow, name: string): { language: string; name: string }[] {
  const seen = new Set([fold(name)]);
  const others: { language: string; name: string }[] = [];
  for (const language of LANGUAGES) {
    const other = row.name[language]?.trim() ?? '';
    if (other === '' || seen.has(fold(other))) continue;
    seen.add(fold(other));
    others.push({ language, name: other });
  }
  return others;
}

/**
 * The search over cached materials and products: by their names in any language, family (in any language of the app),
 * supplier, code or id, and by the building parts they are used for.
 */
export function catalogueSearch(materials: readonly MaterialRow[], products: readonly ProductRow[], language: string): CatalogueSearch {
  const rows = [...materials.map((row) => ({ row, kind: 'materials' as const })), ...products.map((row) => ({ row, kind: 'products' as const }))];
  const entries: Searchable<CatalogueChoice>[] = rows.map(({ row, kind }) => {
    const name = displayName(row.name, language) || row.id;
    const family = 'elementFamily' in row ? row.elementFamily : null;
    return {
      value: { id: row.id, kind, name, language: fallbackLanguage(row.name, language), detail: (kind === 'materials' ? family : row.supplier) ?? '', otherNames: otherNamesOf(row, name) },
      text: `${searchTextOf(row)}\n${familyWords(family)}`,
      head: fold(name),
    };
  });
  entries.sort((a, b) => a.value.name.localeCompare(b.value.name, language));
  return { find: (query) => search(entries, query, materialSynonyms) };
}

const NL_SFB_ENTRIES = new WeakMap<readonly NlSfbCodeEntry[], Searchable<NlSfbCodeEntry>[]>();

/** A word's NL-SfB classes: the building part it names (`picker-synonyms.ts`). */
function classSynonyms(word: string): ((entry: Searchable<NlSfbCodeEntry>) => boolean) | null {
  const inClasses = synonymClassesOf(word);
  return inClasses === null ? null : (entry) => inClasses(entry.value.code);
}

/**
 * The NL-SfB codes a query finds, by code, by words of their (Dutch) description, or by a building part in any
 * language of the app ("door", "Tür", "porte" find 31.3 and 32.3, the openings filled with doors): codes the query
 * starts come first, then the part's classes, then descriptions that hold the words.
 */
export function classificationSearch(codes: readonly NlSfbCodeEntry[], query: string): PickerFound<NlSfbCodeEntry> {
  let entries = NL_SFB_ENTRIES.get(codes);
  if (entries === undefined) {
    entries = codes.map((entry) => ({ value: entry, text: fold(`${entry.code} ${entry.name}`), head: fold(entry.code) }));
    NL_SFB_ENTRIES.set(codes, entries);
  }
  return search(entries, query, classSynonyms, 'before');
}
