/**
 * What of the elements grid's view is selected: all, some or none of its elements (the header's checkbox), and per row
 * whether it is (a parent row when all its parts are) or, for a parent row, whether some but not all of its parts are.
 */
import { computed } from 'vue';
import type { ElementView } from './element-groups';
import type { GridRow } from './grid-rows';

export interface ViewSelection {
  view: ElementView;
  selected: ReadonlySet<string>;
}

export function useViewSelection(source: () => ViewSelection) {
  /** How many of the view's ids are selected, found by going through the smaller of the two. */
  const selectedInView = computed(() => {
    const { selected, view } = source();
    const { ids } = view;
    let count = 0;
    if (selected.size < ids.length) {
      for (const id of selected) if (ids.includes(id)) count += 1;
    } else {
      for (const id of ids) if (selected.has(id)) count += 1;
    }
    return count;
  });
  const allSelected = computed(() => source().view.ids.length > 0 && selectedInView.value === source().view.ids.length);
  const someSelected = computed(() => selectedInView.value > 0 && !allSelected.value);

  /** Whether a row is selected: an element when it is, a parent row when all its parts are. */
  function isSelected(item: { grid: GridRow }): boolean {
    const { selected, view } = source();
    if (item.grid.kind === 'element') return selected.has(item.grid.id);
    const ids = view.ids.slice(item.grid.first, item.grid.end);
    return ids.every((id) => selected.has(id));
  }

  /** Whether some but not all of a parent row's parts are selected. */
  function isPartlySelected(parent: Extract<GridRow, { kind: 'parent' }>): boolean {
    const { selected, view } = source();
    const ids = view.ids.slice(parent.first, parent.end);
    const count = ids.filter((id) => selected.has(id)).length;
    return count > 0 && count < ids.length;
  }

  return { allSelected, someSelected, isSelected, isPartlySelected };
}
