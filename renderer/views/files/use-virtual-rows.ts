/**
 * The elements grid's rows: any number of them (grid-rows.ts), with only the visible rows (and a margin) rendered,
 * their elements read by id from the cache in aligned blocks as the user scrolls (a live query, so edits and pulls
 * show at once; a parent row reads its parts), and the elements read last remembered so that scrolling back shows
 * them before the cache answers.
 */
import { computed, onBeforeUnmount, onMounted, ref, watch } from 'vue';
import { elementsByIds } from '../../db/reads';
import type { ElementRow } from '../../db/schema';
import { useCacheQuery } from '../../components/use-cache-query';
import type { GridRow, GridRows } from './grid-rows';

/** Height of a row and of the header, pixels. */
export const ROW_HEIGHT = 32;
/** Rows rendered beyond the visible ones, so a scroll shows rows already read. */
const OVERSCAN = 12;
/** Rows remembered beyond the rendered ones, so scrolling back shows them before the cache answers. */
const REMEMBERED = 2_000;
/** Rows per read of the cache. */
const READ_BLOCK = 50;

/** What the grid shows: rows of a file's elements. */
export interface GridSource {
  fileId: string;
  rows: GridRows;
}

/**
 * A rendered row: its place in the rows, its element once the cache has answered (`row`), or for a parent row its
 * parts' once the cache has answered for all of them (`parts`).
 */
export interface VisibleRow {
  id: string;
  index: number;
  grid: GridRow;
  row: ElementRow | undefined;
  parts: ElementRow[] | undefined;
}

export function useVirtualRows(source: () => GridSource) {
  const viewport = ref<HTMLElement | null>(null);
  const scrollTop = ref(0);
  const height = ref(480);
  let frame = 0;
  let resizeObserver: ResizeObserver | undefined;

  function onScroll(): void {
    if (frame !== 0) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      scrollTop.value = viewport.value?.scrollTop ?? 0;
    });
  }

  onMounted(() => {
    if (viewport.value === null) return;
    height.value = viewport.value.clientHeight || 480;
    resizeObserver = new ResizeObserver(() => {
      height.value = viewport.value?.clientHeight || height.value;
    });
    resizeObserver.observe(viewport.value);
  });
  onBeforeUnmount(() => {
    resizeObserver?.disconnect();
    if (frame !== 0) cancelAnimationFrame(frame);
  });

  const count = computed(() => source().rows.length);
  const first = computed(() => Math.max(0, Math.floor(scrollTop.value / ROW_HEIGHT) - OVERSCAN));
  const last = computed(() => Math.min(count.value, Math.ceil((scrollTop.value + height.value) / ROW_HEIGHT) + OVERSCAN));

  // Rows are read in aligned blocks around the visible ones, so the query changes only when the view crosses a block
  // boundary, not on every scrolled pixel.
  const blockStart = computed(() => Math.floor(first.value / READ_BLOCK) * READ_BLOCK);
  const blockEnd = computed(() => Math.min(count.value, (Math.floor(last.value / READ_BLOCK) + 1) * READ_BLOCK));
  const read = useCacheQuery(
    () => {
      const { fileId, rows } = source();
      return { fileId, ids: blockEnd.value > blockStart.value ? rows.idsBetween(blockStart.value, blockEnd.value - 1) : [] };
    },
    (db, { fileId, ids }) => elementsByIds(db, fileId, ids),
    [] as (ElementRow | undefined)[],
  );
  // Rows by id from the latest answers: while the cache answers for a new block, the rows it already knows show. A
  // plain Map (a version number tells the render it changed): copying it per answer would cost more than the answer.
  const remembered = new Map<string, ElementRow>();
  const rememberedVersion = ref(0);
  watch(read.value, (answer) => {
    for (const row of answer) {
      if (row === undefined) continue;
      remembered.delete(row.id);
      remembered.set(row.id, row);
    }
    // The oldest first: a Map iterates in insertion order, and each answer re-inserts what it read.
    for (const id of remembered.keys()) {
      if (remembered.size <= REMEMBERED) break;
      remembered.delete(id);
    }
    rememberedVersion.value += 1;
  });
  watch(
    () => source().fileId,
    () => {
      remembered.clear();
      rememberedVersion.value += 1;
    },
  );

  /** The row of an id, when the cache has answered for it. */
  function rowOf(id: string | undefined): ElementRow | undefined {
    return id === undefined ? undefined : remembered.get(id);
  }

  /** The parts of a parent row, once every one of them was read. */
  function partsOf(row: Extract<GridRow, { kind: 'parent' }>, rows: GridRows): ElementRow[] | undefined {
    const parts: ElementRow[] = [];
    for (const id of rows.view.ids.slice(row.first, row.end)) {
      const part = remembered.get(id);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return parts;
  }

  /** The rendered rows; slot `k` is always the k-th rendered row, so scrolling updates rows instead of replacing them. */
  const visible = computed(() => {
    void rememberedVersion.value;
    const { rows } = source();
    const shown: VisibleRow[] = [];
    for (let index = first.value; index < last.value; index += 1) {
      const grid = rows.at(index);
      if (grid === undefined) continue;
      if (grid.kind === 'parent') shown.push({ id: grid.id, index, grid, row: undefined, parts: partsOf(grid, rows) });
      else shown.push({ id: grid.id, index, grid, row: remembered.get(grid.id), parts: undefined });
    }
    return shown;
  });

  return { viewport, height, visible, rowOf, onScroll };
}
