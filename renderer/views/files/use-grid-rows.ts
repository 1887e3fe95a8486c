/**
 * The elements grid's rows, made anew from each view of the file, with the split elements the user opened or closed
 * kept so across views of the same file (a new file starts from the view's own choice).
 */
import { shallowRef, watch } from 'vue';
import type { ElementView } from './element-groups';
import { GridRows } from './grid-rows';

export interface GridRowsSource {
  fileId: string;
  view: ElementView;
}

export function useGridRows(source: () => GridRowsSource) {
  /** The split elements the user opened (true) or closed, by GlobalId: a new view of the file keeps them so. */
  const chosen = new Map<string, boolean>();
  const rows = shallowRef(GridRows.of(source().view, chosen));
  watch(
    () => source().fileId,
    () => chosen.clear(),
  );
  watch(
    () => source().view,
    (view) => {
      rows.value = GridRows.of(view, chosen);
    },
  );

  /** Opens or closes the split element of the row at `index`; any other row stays as it is. */
  function toggle(index: number, open: boolean): void {
    const row = rows.value.at(index);
    if (row?.kind !== 'parent') return;
    chosen.set(row.id, open);
    rows.value = rows.value.toggled(index, open);
  }

  return { rows, toggle };
}
