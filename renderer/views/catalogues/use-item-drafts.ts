/**
 * What the user edits on a catalogue item's page: its form, its matches, financial values and children as drafts,
 * what of them changed against the cache, and which tab shows. The cache's values fill the drafts while the user has
 * not changed them; what the user typed is never overwritten.
 */
import { computed, ref, toRaw, watch } from 'vue';
import type { ProductType } from '../../../shared/api/enums';
import type { CacheQuery } from '../../components/use-cache-query';
import { sameValue } from '../../db/field-paths';
import type { MaterialRow, ProductRow } from '../../db/schema';
import { emptyItemForm, itemChangesOf, itemFormOf, type ItemForm } from './catalogue-form';
import {
  childDraftsOf,
  childrenOf,
  financialValuesOf,
  matchDraftsOf,
  matchesOf,
  valueDraftsOf,
  type ChildDraft,
  type MatchDraft,
  type ValueDraft,
} from './catalogue-list-forms';
import type { CachedLists, ItemAddress } from './use-cached-item';

/** The tabs of an item's page. */
export type ItemTab = 'general' | 'circular' | 'financial' | 'matches' | 'children';

/** What the drafts are filled from. */
export interface DraftSource extends ItemAddress {
  row: CacheQuery<MaterialRow | ProductRow | undefined>;
  lists: CacheQuery<CachedLists>;
}

function clone<T>(value: T): T {
  return structuredClone(toRaw(value));
}

export function useItemDrafts({ kind, itemId, isNew, row, lists }: DraftSource) {
  const before = ref<ItemForm>(emptyItemForm(kind.value));
  const form = ref<ItemForm>(emptyItemForm(kind.value));
  const matches = ref<MatchDraft[]>([]);
  const values = ref<ValueDraft[]>([]);
  const children = ref<ChildDraft[]>([]);
  const tab = ref<ItemTab>('general');

  const changes = computed(() => {
    const made = itemChangesOf(kind.value, before.value, form.value);
    if (isNew.value && kind.value === 'products' && form.value.choice !== null) made.type = form.value.choice as ProductType;
    return made;
  });
  const itemDirty = computed(() => Object.keys(changes.value).length > 0);
  const matchesDirty = computed(() => !sameValue(matchesOf(matches.value), lists.value.value.matches ?? []));
  const valuesDirty = computed(() => !sameValue(financialValuesOf(values.value), lists.value.value.values ?? []));
  const childrenDirty = computed(() => kind.value === 'products' && !sameValue(childrenOf(children.value), lists.value.value.children ?? []));
  const dirty = computed(() => itemDirty.value || matchesDirty.value || valuesDirty.value || childrenDirty.value);

  // A query answers for one item at a time (`loaded` is false while it reads another), so an answer is always this item's.
  const owner = computed(() => `${kind.value}:${itemId.value}`);
  // A new item's form is its empty form from the start: what the user types before the cache has answered stays.
  let formOwner = isNew.value ? owner.value : '';
  let listsOwner = '';
  let shownLists: CachedLists | undefined;

  watch(
    () => [row.value.value, row.loaded.value, owner.value] as const,
    ([current, loaded, key]) => {
      if (!loaded || (formOwner === key && itemDirty.value)) return;
      if (formOwner !== key) tab.value = 'general';
      const next = current === undefined ? emptyItemForm(kind.value) : itemFormOf(kind.value, current);
      before.value = next;
      form.value = clone(next);
      formOwner = key;
    },
    { immediate: true },
  );

  watch(
    () => [lists.value.value, lists.loaded.value, owner.value] as const,
    ([cached, loaded, key]) => {
      if (!loaded) return;
      const fresh = listsOwner !== key || shownLists === undefined;
      if (fresh || sameValue(matchesOf(matches.value), shownLists?.matches ?? [])) matches.value = matchDraftsOf(cached.matches ?? []);
      if (fresh || sameValue(financialValuesOf(values.value), shownLists?.values ?? [])) values.value = valueDraftsOf(cached.values ?? []);
      if (fresh || sameValue(childrenOf(children.value), shownLists?.children ?? [])) children.value = childDraftsOf(cached.children ?? []);
      shownLists = cached;
      listsOwner = key;
    },
    { immediate: true },
  );

  /** The form as the user left it is what the item now holds: it counts as unchanged. */
  function markSaved(): void {
    before.value = clone(form.value);
  }

  function discard(): void {
    form.value = clone(before.value);
    matches.value = matchDraftsOf(lists.value.value.matches ?? []);
    values.value = valueDraftsOf(lists.value.value.values ?? []);
    children.value = childDraftsOf(lists.value.value.children ?? []);
  }

  return { form, matches, values, children, tab, changes, itemDirty, matchesDirty, valuesDirty, childrenDirty, dirty, markSaved, discard };
}

/** An item's drafts, as `useItemDrafts` answers them. */
export type ItemDrafts = ReturnType<typeof useItemDrafts>;
