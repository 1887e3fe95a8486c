/**
 * What a catalogue item's page reads: the item and its lists from the cache (with how many of its changes are not sent
 * or were refused), the catalogue index its children are checked against, and its details, fetched from the server as
 * the page opens. An item created here gets the server's id with a sync: the page follows it there.
 */
import Dexie from 'dexie';
import { computed, watch, type Ref } from 'vue';
import { useRouter } from 'vue-router';
import type { MaterialFinancialValue, MaterialMatch, ProductChild } from '../../../shared/api/schemas';
import { useCacheQuery } from '../../components/use-cache-query';
import { useReadyWhenLoaded } from '../../components/use-ready-when-loaded';
import type { MaterialRow, ProductRow } from '../../db/schema';
import { ROUTE_NAMES } from '../../router';
import { useCataloguesStore, type CatalogueKind } from '../../stores/catalogues';
import { useSyncStore } from '../../stores/sync';
import { useCatalogueIndex } from './use-catalogue-index';

/** Which item the page shows: `itemId` "new" is one not created yet. */
export interface ItemAddress {
  kind: Readonly<Ref<CatalogueKind>>;
  itemId: Readonly<Ref<string>>;
  isNew: Readonly<Ref<boolean>>;
}

/** An item's lists and outbox entries as the cache holds them. */
export interface CachedLists {
  matches: MaterialMatch[] | null;
  values: MaterialFinancialValue[] | null;
  children: ProductChild[] | null;
  /** When the details were last read from the server; null: never. */
  fetchedAt: string | null;
  pending: number;
  parked: number;
}

export function useCachedItem({ kind, itemId, isNew }: ItemAddress) {
  const router = useRouter();
  const catalogues = useCataloguesStore();
  const sync = useSyncStore();

  const row = useCacheQuery(
    () => ({ kind: kind.value, id: itemId.value }),
    async (db, source): Promise<MaterialRow | ProductRow | undefined> =>
      source.id === 'new' ? undefined : source.kind === 'materials' ? db.materials.get(source.id) : db.products.get(source.id),
    undefined,
  );

  const lists = useCacheQuery(
    () => ({ kind: kind.value, id: itemId.value }),
    async (db, source): Promise<CachedLists> => {
      const materials = source.kind === 'materials';
      const [matches, values, children] = await Promise.all([
        materials ? db.materialMatches.get(source.id) : db.productMatches.get(source.id),
        materials ? db.materialFinancialValues.get(source.id) : db.productFinancialValues.get(source.id),
        materials ? undefined : db.productChildren.get(source.id),
      ]);
      const aggregate = `${materials ? 'material' : 'product'}:${source.id}`;
      const entries = await db.outbox.where('[aggregate+seq]').between([aggregate, Dexie.minKey], [aggregate, Dexie.maxKey], true, true).toArray();
      return {
        matches: matches?.items ?? null,
        values: values?.items ?? null,
        children: children?.items ?? null,
        fetchedAt: matches?.fetchedAt ?? null,
        pending: entries.filter((entry) => entry.state === 'pending').length,
        parked: entries.filter((entry) => entry.state === 'parked').length,
      };
    },
    { matches: null, values: null, children: null, fetchedAt: null, pending: 0, parked: 0 },
  );

  const index = useCatalogueIndex();
  useReadyWhenLoaded(row.loaded);

  const editable = computed(() => isNew.value || catalogues.isEditable(kind.value, itemId.value));
  const readonly = computed(() => !editable.value);
  const details = computed(() => (isNew.value ? undefined : catalogues.detailsOf(kind.value, itemId.value)));

  function loadDetails(force = false): void {
    if (!isNew.value) void catalogues.loadDetails(kind.value, itemId.value, force);
  }
  // The connection's cache may open after the page: the details are asked for once it is there.
  watch([kind, itemId, () => sync.db], () => loadDetails(), { immediate: true });

  watch(
    () => [row.loaded.value, row.value.value, catalogues.movedIds.get(itemId.value)] as const,
    ([loaded, current, moved]) => {
      if (loaded && current === undefined && moved !== undefined) void router.replace({ name: ROUTE_NAMES.catalogueItem, params: { kind: kind.value, itemId: moved } });
    },
  );

  return { row, lists, index, readonly, details, loadDetails };
}
