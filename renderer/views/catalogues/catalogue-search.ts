/**
 * The catalogue lists' search: an item matches when every word typed is found in one of its names (any language),
 * its supplier, material family, product code or id. Accents and case are ignored, so "beton" finds "Béton".
 */
import type { MaterialRow, ProductRow } from '../../db/schema';
import { LANGUAGES } from './catalogue-form';

/** Text folded for comparison: lower case, accents removed. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

/** Everything of an item the search looks in, folded. */
export function searchTextOf(row: MaterialRow | ProductRow): string {
  const parts: Array<string | null | undefined> = [row.id, row.supplier];
  for (const language of LANGUAGES) parts.push(row.name[language]);
  if ('elementFamily' in row) parts.push(row.elementFamily);
  if ('productCode' in row) parts.push(row.productCode);
  return fold(parts.filter((part): part is string => typeof part === 'string' && part !== '').join('\n'));
}

/** The words of a query, folded; none for an empty one. */
export function queryWords(query: string): string[] {
  return fold(query)
    .split(/\s+/)
    .filter((word) => word !== '');
}

/** Whether a folded search text holds every word. */
export function matchesWords(text: string, words: readonly string[]): boolean {
  return words.every((word) => text.includes(word));
}
