/**
 * The rows of a catalogue list, and what tells apart rows that read the same: the platform's list has several
 * materials of one name ("Plywood" twice, "Pine wood" three times), which would otherwise look like one row repeated.
 */
import type { LocalizedText } from '../../../shared/api';
import { LANGUAGES } from './catalogue-form';
import { fold } from './catalogue-search';

/** One row of the list. */
export interface CatalogueListItem {
  id: string;
  /** The name in the user's language, else English, else any. */
  name: string;
  names: LocalizedText | undefined;
  /** The material family or the product type, as shown. */
  detail: string;
  supplier: string;
  changed: boolean;
  local: boolean;
}

/** What one row has that the others of its name lack: its family or type, supplier, name in another language or id. */
export type Distinction = { kind: 'detail' | 'supplier' | 'id'; text: string } | { kind: 'name'; language: string; text: string };

/** Characters of an id that tell it apart in practice; the whole id when those do not. */
const SHORT_ID = 8;

function distinct(texts: readonly string[]): boolean {
  return texts.every((text) => text.trim() !== '') && new Set(texts.map(fold)).size === texts.length;
}

/** For a group of rows of the same name: the first thing that differs between every one of them. */
function distinctionsOfGroup(group: readonly CatalogueListItem[], language: string): Distinction[] {
  const details = group.map((item) => item.detail);
  if (distinct(details)) return details.map((text) => ({ kind: 'detail', text }));
  const suppliers = group.map((item) => item.supplier);
  if (distinct(suppliers)) return suppliers.map((text) => ({ kind: 'supplier', text }));
  for (const other of LANGUAGES.filter((each) => each !== language)) {
    const names = group.map((item) => item.names?.[other] ?? '');
    if (distinct(names)) return names.map((text) => ({ kind: 'name', language: other, text }));
  }
  const short = group.map((item) => item.id.slice(0, SHORT_ID));
  const ids = distinct(short) ? short : group.map((item) => item.id);
  return ids.map((text) => ({ kind: 'id', text }));
}

/** Each row whose name another row shares, with what tells it apart; rows of a name of their own are left out. */
export function distinctionsOf(items: readonly CatalogueListItem[], language: string): Map<string, Distinction> {
  const groups = new Map<string, CatalogueListItem[]>();
  for (const item of items) {
    const key = fold(item.name.trim());
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  const distinctions = new Map<string, Distinction>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    distinctionsOfGroup(group, language).forEach((distinction, index) => {
      const item = group[index];
      if (item !== undefined) distinctions.set(item.id, distinction);
    });
  }
  return distinctions;
}
