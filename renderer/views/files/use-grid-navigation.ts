/**
 * The elements grid's active cell, keyboard and selection (listed to the user by `GridKeys.vue`): arrows move the
 * active cell and Shift+Up/Down extends the selection from it; Enter or F2 edits the cell, and on the id opens the
 * element's form; Space selects the row, Ctrl+A selects the whole view, Escape clears the selection; a click on a
 * checkbox selects, with Shift a range; a double click edits a cell. A split element's parent row stands for its
 * parts (selecting it selects them); Enter or F2 on it, or a click on its toggle, opens or closes it, and on its id
 * Right opens and Left closes it, as Left on a part's id goes to its parent row.
 */
import { ref, watch, type Ref } from 'vue';
import type { ElementColumn } from './element-columns';
import type { GridRows } from './grid-rows';
import { ROW_HEIGHT } from './use-virtual-rows';

/** The cell the keyboard acts on: a row's place in the view and a column's. */
export interface ActiveCell {
  index: number;
  column: number;
}

/** What navigation needs of the grid, and what it asks the grid to do. */
export interface GridNavigationContext {
  rows: () => GridRows;
  columns: () => readonly ElementColumn[];
  selected: () => ReadonlySet<string>;
  viewport: Ref<HTMLElement | null>;
  /** The viewport's height, pixels (Page Up/Down move by it). */
  height: Ref<number>;
  /** An editor or a picker is open: the keys are its own. */
  busy: () => boolean;
  startEdit: (index: number, column: number) => Promise<void>;
  open: (index: number) => void;
  /** Opens or closes the split element of a parent row. */
  toggle: (index: number, open: boolean) => void;
  select: (ids: string[], selected: boolean) => void;
  selectAll: (selected: boolean) => void;
}

const MODIFIER_KEYS: ReadonlySet<string> = new Set(['Shift', 'Control', 'Alt', 'Meta']);

/** Where a click in the body landed: the row's index, the cell's column, and what was clicked (`select`, `open`, `toggle`). */
function targetOf(event: MouseEvent): { index: number; column: number | undefined; action: string | undefined } | undefined {
  if (!(event.target instanceof Element)) return undefined;
  const row = event.target.closest<HTMLElement>('[data-index]');
  if (row === null) return undefined;
  const cell = event.target.closest<HTMLElement>('[data-column]');
  const action = event.target.closest<HTMLElement>('[data-action]')?.dataset['action'];
  return { index: Number(row.dataset['index']), column: cell === null ? undefined : Number(cell.dataset['column']), action };
}

export function useGridNavigation(grid: GridNavigationContext) {
  const active = ref<ActiveCell>({ index: 0, column: 0 });
  /** Where a range selection starts: the row last clicked, or the active row when Shift+Up/Down began. */
  let anchor: number | null = null;

  function scrollIntoView(index: number): void {
    const element = grid.viewport.value;
    if (element === null) return;
    const top = index * ROW_HEIGHT;
    const header = ROW_HEIGHT;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight - header) element.scrollTop = top + 2 * ROW_HEIGHT - element.clientHeight;
  }

  function moveTo(index: number, column: number): void {
    const clampedIndex = Math.max(0, Math.min(grid.rows().length - 1, index));
    const clampedColumn = Math.max(0, Math.min(grid.columns().length - 1, column));
    active.value = { index: clampedIndex, column: clampedColumn };
    scrollIntoView(clampedIndex);
  }

  /** Moves the active cell up or down and selects the rows from where the extension began to it, as a spreadsheet does. */
  function extendTo(index: number): void {
    const { index: previous, column } = active.value;
    const from = anchor ?? previous;
    moveTo(index, column);
    anchor = from;
    const range = (to: number): string[] => grid.rows().idsBetween(from, to);
    const extended = range(active.value.index);
    const inRange = new Set(extended);
    const leftBehind = range(previous).filter((id) => !inRange.has(id));
    if (leftBehind.length > 0) grid.select(leftBehind, false);
    grid.select(extended, true);
  }

  /** Does what a key asks; answers whether the key was one of the grid's. */
  function act(event: KeyboardEvent): boolean {
    const { index, column } = active.value;
    const page = Math.floor(grid.height.value / ROW_HEIGHT) - 1;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(index + 1, column);
        return true;
      case 'ArrowUp':
        moveTo(index - 1, column);
        return true;
      case 'ArrowRight': {
        const row = grid.rows().at(index);
        if (column === 0 && row?.kind === 'parent' && !row.open) grid.toggle(index, true);
        else moveTo(index, column + 1);
        return true;
      }
      case 'ArrowLeft': {
        const row = grid.rows().at(index);
        if (column === 0 && row?.kind === 'parent' && row.open) grid.toggle(index, false);
        else if (column === 0 && row?.kind === 'element' && row.parent !== null) moveTo(row.parent.row, 0);
        else moveTo(index, column - 1);
        return true;
      }
      case 'PageDown':
        moveTo(index + page, column);
        return true;
      case 'PageUp':
        moveTo(index - page, column);
        return true;
      case 'Home':
        moveTo(event.ctrlKey ? 0 : index, event.ctrlKey ? column : 0);
        return true;
      case 'End':
        moveTo(event.ctrlKey ? grid.rows().length - 1 : index, event.ctrlKey ? column : grid.columns().length - 1);
        return true;
      case 'Enter':
      case 'F2': {
        const row = grid.rows().at(index);
        if (row?.kind === 'parent') grid.toggle(index, !row.open);
        else if (grid.columns()[column]?.key === 'id') grid.open(index);
        else void grid.startEdit(index, column);
        return true;
      }
      case 'Escape':
        grid.selectAll(false);
        return true;
      case ' ': {
        const ids = grid.rows().idsBetween(index, index);
        if (ids.length > 0) grid.select(ids, !allSelected(ids));
        return true;
      }
      case 'a':
        if (!(event.ctrlKey || event.metaKey)) return false;
        grid.selectAll(true);
        return true;
      default:
        return false;
    }
  }

  function onKey(event: KeyboardEvent): void {
    if (grid.busy()) return;
    if (event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      extendTo(active.value.index + (event.key === 'ArrowDown' ? 1 : -1));
      event.preventDefault();
      return;
    }
    // Pressing a modifier alone is no move: Shift held for a Shift+click keeps the row the range starts from.
    if (MODIFIER_KEYS.has(event.key)) return;
    // A move without Shift ends the extension: the next one starts from the cell moved to.
    anchor = null;
    if (act(event)) event.preventDefault();
  }

  /** Whether every one of `ids` is selected: a parent row is selected when all its parts are. */
  function allSelected(ids: readonly string[]): boolean {
    const selected = grid.selected();
    return ids.every((id) => selected.has(id));
  }

  function onSelect(index: number, event: MouseEvent): void {
    const rows = grid.rows();
    const ids = rows.idsBetween(index, index);
    if (ids.length === 0) return;
    const selected = !allSelected(ids);
    grid.select(event.shiftKey && anchor !== null ? rows.idsBetween(anchor, index) : ids, selected);
    anchor = index;
  }

  // One listener for the whole body, not one per cell: rows are rendered anew as the user scrolls.
  function onBodyClick(event: MouseEvent): void {
    const target = targetOf(event);
    if (target === undefined) return;
    if (target.action === 'select') {
      onSelect(target.index, event);
      return;
    }
    if (target.action === 'open') {
      grid.open(target.index);
      return;
    }
    if (target.action === 'toggle') {
      const row = grid.rows().at(target.index);
      if (row?.kind === 'parent') grid.toggle(target.index, !row.open);
    }
    if (target.column !== undefined) active.value = { index: target.index, column: target.column };
  }

  function onBodyDoubleClick(event: MouseEvent): void {
    const target = targetOf(event);
    if (target?.column !== undefined && target.action === undefined) void grid.startEdit(target.index, target.column);
  }

  watch(grid.rows, (rows) => {
    anchor = null;
    active.value = {
      index: Math.min(active.value.index, Math.max(0, rows.length - 1)),
      column: Math.min(active.value.column, Math.max(0, grid.columns().length - 1)),
    };
  });

  return { active, moveTo, onKey, onBodyClick, onBodyDoubleClick };
}
