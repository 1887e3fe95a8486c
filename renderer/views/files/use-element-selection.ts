/**
 * The elements selected on the file page, a split element's parts (the parent rows are the grid's, not elements).
 * Selected elements the view no longer shows stay selected only while they exist.
 */
import { computed, shallowRef, watch } from 'vue';
import type { IdList } from '../../db/packed-ids';

/** `shown`: the ids of the elements the view shows. */
export function useElementSelection(shown: () => IdList) {
  const selected = shallowRef<Set<string>>(new Set());

  function select(changed: string[], on: boolean): void {
    const next = new Set(selected.value);
    for (const id of changed) {
      if (on) next.add(id);
      else next.delete(id);
    }
    selected.value = next;
  }

  function selectAll(on: boolean): void {
    selected.value = on ? new Set(shown()) : new Set();
  }

  watch(shown, (ids) => {
    if (selected.value.size === 0) return;
    const inView = new Set(ids);
    selected.value = new Set([...selected.value].filter((id) => inView.has(id)));
  });

  const selectedIds = computed(() => [...selected.value]);

  return { selected, selectedIds, select, selectAll };
}
