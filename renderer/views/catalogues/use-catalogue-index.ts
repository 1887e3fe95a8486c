/**
 * Every cached material and product by id, with the child ids of each product whose children the cache holds: what
 * the children editor names and offers its items by, and how it tells that a product would end up containing itself.
 */
import type { ProductType } from '../../../shared/api/enums';
import type { LocalizedText } from '../../../shared/api/schemas';
import { useCacheQuery, type CacheQuery } from '../../components/use-cache-query';
import type { CatalogueKind } from '../../stores/catalogues';
import type { ChildContext } from './catalogue-list-forms';

/** A cached item as the index holds it. */
export interface IndexEntry {
  id: string;
  kind: CatalogueKind;
  name: LocalizedText;
  supplier: string | null;
  /** A product's type. */
  type: ProductType | null;
}

/** The cached catalogue items and products' children. */
export interface CatalogueIndex {
  entries: ReadonlyMap<string, IndexEntry>;
  children: ReadonlyMap<string, readonly string[]>;
}

/** An empty index, until the cache answered. */
export const EMPTY_INDEX: CatalogueIndex = { entries: new Map(), children: new Map() };

/** The index of the active connection's cache, live. */
export function useCatalogueIndex(): CacheQuery<CatalogueIndex> {
  return useCacheQuery(
    () => null,
    async (db) => {
      const [materials, products, children] = await Promise.all([db.materials.toArray(), db.products.toArray(), db.productChildren.toArray()]);
      const entries = new Map<string, IndexEntry>();
      for (const row of materials) entries.set(row.id, { id: row.id, kind: 'materials', name: row.name, supplier: row.supplier, type: null });
      for (const row of products) entries.set(row.id, { id: row.id, kind: 'products', name: row.name, supplier: row.supplier, type: row.type });
      return { entries, children: new Map(children.map((row) => [row.ownerId, row.items.map((item) => item.childId)])) };
    },
    EMPTY_INDEX,
  );
}

/** What the child checks of a product need, from the index. */
export function childContextOf(index: CatalogueIndex, productId: string): ChildContext {
  return {
    productId,
    isKnown: (id) => index.entries.has(id),
    isProduct: (id) => index.entries.get(id)?.kind === 'products',
    childrenOf: (id) => index.children.get(id) ?? [],
  };
}
