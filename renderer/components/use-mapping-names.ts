/**
 * What an element is mapped to, in words: the name of the material or product from the cache in the user's language
 * (or, when it has none in it, the language of the name shown, for a mark), else (an item the cache does not hold) its
 * kind. Only the items asked about are read, live, so a renamed item or one
 * that arrives with a sync shows its name at once.
 */
import { useI18n } from 'vue-i18n';
import { ElementType } from '../../shared/api/enums';
import type { LocalizedText } from '../../shared/api/schemas';
import type { CatalogueKind } from '../stores/catalogues';
import { displayName, fallbackLanguage } from '../views/catalogues/catalogue-form';
import { useCacheQuery } from './use-cache-query';

/** A mapping as the words need it: the item's id and, when known, its element type. */
export interface MappingRef {
  id: string;
  type?: number;
}

/** The words of the mappings `ids` names; call from a component's setup. */
export function useMappingNames(ids: () => readonly string[]) {
  const { t, locale } = useI18n();
  const names = useCacheQuery(
    () => [...new Set(ids())].sort().join('\n'),
    async (db, joined) => {
      const list = joined === '' ? [] : joined.split('\n');
      const [materials, products] = await Promise.all([db.materials.bulkGet(list), db.products.bulkGet(list)]);
      const found = new Map<string, { kind: CatalogueKind; name: LocalizedText }>();
      for (const row of materials) if (row !== undefined) found.set(row.id, { kind: 'materials', name: row.name });
      for (const row of products) if (row !== undefined) found.set(row.id, { kind: 'products', name: row.name });
      return found;
    },
    new Map<string, { kind: CatalogueKind; name: LocalizedText }>(),
  );

  /** The kind of item a mapping names, in words; null when neither the cache nor the mapping says. */
  function kindText(mapping: MappingRef): string | null {
    const kind = names.value.value.get(mapping.id)?.kind;
    if (kind !== undefined) return kind === 'materials' ? t('grid.mappedMaterial') : t('grid.mappedProduct');
    if (mapping.type === undefined) return null;
    return mapping.type === ElementType.Material ? t('grid.mappedMaterial') : t('grid.mappedProduct');
  }

  /** What a mapping names: the item's name, else its kind, else its id; "Not mapped" for none. */
  function mappingText(mapping: MappingRef | null): string {
    if (mapping === null) return t('grid.unmapped');
    const name = displayName(names.value.value.get(mapping.id)?.name, locale.value);
    return name !== '' ? name : (kindText(mapping) ?? mapping.id);
  }

  /** The language of the name `mappingText` shows when it is not the user's (the item has none in it); null otherwise. */
  function mappingLanguage(mapping: MappingRef | null): string | null {
    if (mapping === null) return null;
    return fallbackLanguage(names.value.value.get(mapping.id)?.name, locale.value);
  }

  return { mappingText, kindText, mappingLanguage };
}
