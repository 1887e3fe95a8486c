/**
 * The elements grid's active cell, keyboard and selection (listed to the user by `GridKeys.vue`): arrows move the
 * active cell and Shift+Up/Down extends the selection from it; Enter or F2 edits the cell, and on the id opens the
 * element's form; Space selects the row, Ctrl+A selects the whole view, Escape clears the selection; a click on a
 * checkbox selects, with Shift a range; a double click edits a cell.
 */
import { ref, watch, type Ref } from 'vue';
import type { IdList } from '../../db/packed-ids';
import type { ElementColumn } from './element-columns';
import { ROW_HEIGHT } from './use-virtual-rows';

/** The cell the keyboard acts on: a row's place in the view and a column's. */
export interface ActiveCell {
  index: number;
  column: number;
}

/** What navigation needs of the grid, and what it asks the grid to do. */
export interface GridNavigationContext {
  ids: () => IdList;
  columns: () => readonly ElementColumn[];
  selected: () => ReadonlySet<string>;
  viewport: Ref<HTMLElement | null>;
  /** The viewport's height, pixels (Page Up/Down move by it). */
  height: Ref<number>;
  /** An editor or a picker is open: the keys are its own. */
  busy: () => boolean;
  startEdit: (index: number, column: number) => Promise<void>;
  open: (index: number) => void;
  select: (ids: string[], selected: boolean) => void;
  selectAll: (selected: boolean) => void;
}

const MODIFIER_KEYS: ReadonlySet<string> = new Set(['Shift', 'Control', 'Alt', 'Meta']);

/** Where a click in the body landed: the row's index, the cell's column, and what was clicked (`select`, `open`). */
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
    const clampedIndex = Math.max(0, Math.min(grid.ids().length - 1, index));
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
    const range = (to: number): string[] => grid.ids().slice(Math.min(from, to), Math.max(from, to) + 1);
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
      case 'ArrowRight':
        moveTo(index, column + 1);
        return true;
      case 'ArrowLeft':
        moveTo(index, column - 1);
        return true;
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
        moveTo(event.ctrlKey ? grid.ids().length - 1 : index, event.ctrlKey ? column : grid.columns().length - 1);
        return true;
      case 'Enter':
      case 'F2':
        if (grid.columns()[column]?.key === 'id') grid.open(index);
        else void grid.startEdit(index, column);
        return true;
      case 'Escape':
        grid.selectAll(false);
        return true;
      case ' ': {
        const id = grid.ids().at(index);
        if (id !== undefined) grid.select([id], !grid.selected().has(id));
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

  function onSelect(index: number, event: MouseEvent): void {
    const ids = grid.ids();
    const id = ids.at(index);
    if (id === undefined) return;
    const selected = !grid.selected().has(id);
    if (event.shiftKey && anchor !== null) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      grid.select(ids.slice(from, to + 1), selected);
    } else {
      grid.select([id], selected);
    }
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
    if (target.column !== undefined) active.value = { index: target.index, column: target.column };
  }

  function onBodyDoubleClick(event: MouseEvent): void {
    const target = targetOf(event);
    if (target?.column !== undefined && target.action === undefined) void grid.startEdit(target.index, target.column);
  }

  watch(grid.ids, (ids) => {
    anchor = null;
    active.value = {
      index: Math.min(active.value.index, Math.max(0, ids.length - 1)),
      column: Math.min(active.value.column, Math.max(0, grid.columns().length - 1)),
    };
  });

  return { active, moveTo, onKey, onBodyClick, onBodyDoubleClick };
}
