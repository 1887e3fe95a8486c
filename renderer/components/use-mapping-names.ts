/**
 * What an element is mapped to, in words: the name of the material or product from the cache in the user's language
 * (or, when it has none in it, the language of the name shown, for a mark), else (an item the cache does not hold) its
 * kind. Only the items asked about are read, live, so a renamed item or one
 * that arrives with a sync shows its name at once.
 */
import { useI18n } from 'vue-i18n';
import { ElementType } from '../../shared/api/enums';
import type { LocalizedText } from '../../shared/api/schemas';
import type { CacheDb } from '../db/cache-db';
import type { CatalogueKind } from '../stores/catalogues';
import { displayName, fallbackLanguage } from '../views/catalogues/catalogue-form';
import { useCacheQuery } from './use-cache-query';

/** A mapping as the words need it: the item's id and, when known, its element type. */
export interface MappingRef {
  id: string;
  type?: number;
}

/** A catalogue item as the words of a mapping need it. */
export interface CatalogueName {
  kind: CatalogueKind;
  name: LocalizedText;
}

/** The catalogue items of the cache with the ids `ids` (all of them when none are named), by id. */
export async function catalogueNamesOf(db: CacheDb, ids?: readonly string[]): Promise<Map<string, CatalogueName>> {
  const [materials, products] =
    ids === undefined ? await Promise.all([db.materials.toArray(), db.products.toArray()]) : await Promise.all([db.materials.bulkGet([...ids]), db.products.bulkGet([...ids])]);
  const found = new Map<string, CatalogueName>();
  for (const row of materials) if (row !== undefined) found.set(row.id, { kind: 'materials', name: row.name });
  for (const row of products) if (row !== undefined) found.set(row.id, { kind: 'products', name: row.name });
  return found;
}

/** The words of a mapping, given the item the cache holds for it (if any); call from a component's setup. */
export function useMappingWords() {
  const { t, locale } = useI18n();

  /** The kind of item a mapping names, in words; null when neither the cache nor the mapping says. */
  function kindText(mapping: MappingRef, item: CatalogueName | undefined): string | null {
    if (item !== undefined) return item.kind === 'materials' ? t('grid.mappedMaterial') : t('grid.mappedProduct');
    if (mapping.type === undefined) return null;
    return mapping.type === ElementType.Material ? t('grid.mappedMaterial') : t('grid.mappedProduct');
  }

  /** What a mapping names: the item's name, else its kind, else its id; "Not mapped" for none. */
  function mappingText(mapping: MappingRef | null, item: CatalogueName | undefined): string {
    if (mapping === null) return t('grid.unmapped');
    const name = displayName(item?.name, locale.value);
    return name !== '' ? name : (kindText(mapping, item) ?? mapping.id);
  }

  /** The language of the name `mappingText` shows when it is not the user's (the item has none in it); null otherwise. */
  function mappingLanguage(mapping: MappingRef | null, item: CatalogueName | undefined): string | null {
    return mapping === null ? null : fallbackLanguage(item?.name, locale.value);
  }

  return { kindText, mappingText, mappingLanguage };
}

/** The words of the mappings `ids` names; call from a component's setup. */
export function useMappingNames(ids: () => readonly string[]) {
  const words = useMappingWords();
  const names = useCacheQuery(
    () => [...new Set(ids())].sort().join('\n'),
    (db, joined) => catalogueNamesOf(db, joined === '' ? [] : joined.split('\n')),
    new Map<string, CatalogueName>(),
  );
  const itemOf = (mapping: MappingRef | null): CatalogueName | undefined => (mapping === null ? undefined : names.value.value.get(mapping.id));

  return {
    kindText: (mapping: MappingRef): string | null => words.kindText(mapping, itemOf(mapping)),
    mappingText: (mapping: MappingRef | null): string => words.mappingText(mapping, itemOf(mapping)),
    mappingLanguage: (mapping: MappingRef | null): string | null => words.mappingLanguage(mapping, itemOf(mapping)),
  };
}
