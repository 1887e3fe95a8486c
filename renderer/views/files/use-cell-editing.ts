/**
 * Editing a cell of the elements grid in place: Enter saves and edits the cell below, as in a spreadsheet; Escape
 * cancels; Tab saves and moves on; a refused value keeps the editor open with the reason. The mapping and the
 * classification open a picker instead of an editor. A split element's parent row is not edited: its values are its
 * parts', which are.
 */
import { nextTick, ref, watch, type Ref } from 'vue';
import { useI18n } from 'vue-i18n';
import type { ElementRow } from '../../db/schema';
import { editableNumber } from '../../components/editable-number';
import { useElementsStore } from '../../stores/elements';
import { parseCellInput, type CellInput } from './cell-input';
import type { ElementColumn } from './element-columns';
import type { GridRows } from './grid-rows';
import type { ActiveCell } from './use-grid-navigation';

/** What editing needs of the grid. */
export interface CellEditingContext {
  fileId: () => string;
  rows: () => GridRows;
  columns: () => readonly ElementColumn[];
  rowOf: (id: string | undefined) => ElementRow | undefined;
  active: Ref<ActiveCell>;
  moveTo: (index: number, column: number) => void;
  /** The grid, which takes the focus back when an editor or a picker closes. */
  viewport: Ref<HTMLElement | null>;
}

export function useCellEditing(grid: CellEditingContext) {
  const { t } = useI18n();
  const elements = useElementsStore();
  const editing = ref<{ id: string; column: ElementColumn; draft: string } | null>(null);
  const editError = ref<string | null>(null);
  /** The cell whose picker is open. */
  const picking = ref<{ id: string; column: ElementColumn['key'] } | null>(null);
  let editInput: HTMLInputElement | null = null;

  function setEditInput(element: unknown): void {
    editInput = element instanceof HTMLInputElement ? element : null;
  }

  function draftOf(column: ElementColumn, row: ElementRow): string {
    if (column.kind === 'quantity') return editableNumber(column.number(row));
    if (column.edits === 'phaseLookup') return row.phaseLookup?.[0] ?? '';
    return column.text(row);
  }

  function closePicker(): void {
    picking.value = null;
    grid.viewport.value?.focus();
  }

  async function startEdit(index: number, columnIndex: number): Promise<void> {
    const column = grid.columns()[columnIndex];
    const target = grid.rows().at(index);
    const row = target?.kind === 'element' ? grid.rowOf(target.id) : undefined;
    if (column === undefined || row === undefined) return;
    if (column.picker !== null) {
      grid.active.value = { index, column: columnIndex };
      picking.value = { id: row.id, column: column.key };
      return;
    }
    if (column.edits === null) return;
    grid.active.value = { index, column: columnIndex };
    editing.value = { id: row.id, column, draft: draftOf(column, row) };
    editError.value = null;
    await nextTick();
    editInput?.focus();
    editInput?.select();
  }

  function errorText(input: Extract<CellInput, { ok: false }>): string {
    return input.error === 'negative' ? t('element.negative') : t('element.notFinite');
  }

  /** Saves the cell being edited; answers whether it could (a refused value keeps the editor open). */
  async function commitEdit(): Promise<boolean> {
    const current = editing.value;
    if (current === null || current.column.edits === null) return true;
    const parsed = parseCellInput(current.column.kind, current.draft);
    if (!parsed.ok) {
      editError.value = errorText(parsed);
      return false;
    }
    editing.value = null;
    editError.value = null;
    const row = grid.rowOf(current.id);
    const before = row === undefined ? undefined : parseCellInput(current.column.kind, draftOf(current.column, row));
    grid.viewport.value?.focus();
    if (before?.ok === true && before.value === parsed.value) return true;
    await elements.edit(grid.fileId(), [current.id], { [current.column.edits]: parsed.value });
    return true;
  }

  function cancelEdit(): void {
    editing.value = null;
    editError.value = null;
    grid.viewport.value?.focus();
  }

  async function onEditorKey(event: KeyboardEvent): Promise<void> {
    // The editor's keys are its own, and must stop before the first await: the grid's Enter would reopen this cell.
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      cancelEdit();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const { index, column } = grid.active.value;
      if (!(await commitEdit())) return;
      // A parent row below is not edited: the active cell moves onto it.
      if (grid.rows().at(index + 1)?.kind === 'element') await startEdit(index + 1, column);
      else grid.moveTo(index + 1, column);
    } else if (event.key === 'Tab') {
      event.preventDefault();
      if (await commitEdit()) grid.moveTo(grid.active.value.index, grid.active.value.column + (event.shiftKey ? -1 : 1));
    }
  }

  watch(
    () => grid.rows().view.ids,
    (ids) => {
      if (editing.value !== null && !ids.includes(editing.value.id)) editing.value = null;
      if (picking.value !== null && !ids.includes(picking.value.id)) picking.value = null;
    },
  );

  return { editing, editError, picking, setEditInput, startEdit, commitEdit, onEditorKey, closePicker };
}
