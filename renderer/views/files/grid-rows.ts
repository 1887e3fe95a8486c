/**
 * The rows of the elements grid over a view: an element of its own is a row; a split element is a parent row, followed
 * by a row per part while it is open. Open is the view's default (a filtered view shows the parts that matched) unless
 * the user opened or closed that element. Rows are found by a binary search in the rows' ends per entry (a typed
 * array, made once per view and per toggle), so nothing is made per element.
 */
import { entrySpan, parentAt, type ElementView } from './element-groups';
import { PartKind } from './element-parts';

/** A row of the grid: an element (`parent` when it is a part shown under its parent row), or a split element's parent row. */
export type GridRow =
  | { kind: 'element'; index: number; id: string; position: number; parent: { id: string; row: number } | null }
  | { kind: 'parent'; index: number; id: string; partKind: PartKind; first: number; end: number; open: boolean };

export class GridRows {
  readonly length: number;
  /** Per entry, where its rows end; null when each entry is one row (the view holds no part). */
  private readonly rowEnds: Uint32Array | null;

  constructor(
    readonly view: ElementView,
    /** What the user chose for split elements: open (true) or closed, by GlobalId. */
    chosen: ReadonlyMap<string, boolean>,
  ) {
    const { groups, ids } = view;
    if (groups === null) {
      this.rowEnds = null;
      this.length = ids.length;
      return;
    }
    const rowEnds = new Uint32Array(groups.ends.length);
    let rows = 0;
    for (let entry = 0; entry < rowEnds.length; entry += 1) {
      rows += 1;
      if (groups.kinds[entry] !== PartKind.None) {
        const { first, end } = entrySpan(groups, entry);
        const open = chosen.size === 0 ? view.open : (chosen.get(parentAt(ids, first)) ?? view.open);
        if (open) rows += end - first;
      }
      rowEnds[entry] = rows;
    }
    this.rowEnds = rowEnds;
    this.length = rows;
  }

  /** The entry whose rows hold row `index`. */
  private entryOf(index: number, rowEnds: Uint32Array): number {
    let low = 0;
    let high = rowEnds.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((rowEnds[middle] ?? 0) > index) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private rowStart(entry: number, rowEnds: Uint32Array): number {
    return entry === 0 ? 0 : (rowEnds[entry - 1] ?? 0);
  }

  /** Row `index`, or undefined outside the rows. */
  at(index: number): GridRow | undefined {
    const { ids, groups } = this.view;
    if (index < 0 || index >= this.length) return undefined;
    if (this.rowEnds === null || groups === null) return { kind: 'element', index, id: ids.at(index) ?? '', position: index, parent: null };
    const entry = this.entryOf(index, this.rowEnds);
    const start = this.rowStart(entry, this.rowEnds);
    const { first, end } = entrySpan(groups, entry);
    const partKind = (groups.kinds[entry] ?? PartKind.None) as PartKind;
    if (partKind === PartKind.None) return { kind: 'element', index, id: ids.at(first) ?? '', position: first, parent: null };
    const parent = parentAt(ids, first);
    if (index === start) return { kind: 'parent', index, id: parent, partKind, first, end, open: (this.rowEnds[entry] ?? 0) - start > 1 };
    const position = first + index - start - 1;
    return { kind: 'element', index, id: ids.at(position) ?? '', position, parent: { id: parent, row: start } };
  }

  /** The positions in the view's ids that rows `from` to `to` (both included) stand for: a parent row for its parts. */
  private positions(from: number, to: number): { first: number; end: number } {
    const start = this.at(Math.max(0, Math.min(from, to)));
    const last = this.at(Math.min(this.length - 1, Math.max(from, to)));
    if (start === undefined || last === undefined) return { first: 0, end: 0 };
    return {
      first: start.kind === 'parent' ? start.first : start.position,
      end: last.kind === 'parent' ? last.end : last.position + 1,
    };
  }

  /** The ids of the elements rows `from` to `to` (both included, either way round) stand for. */
  idsBetween(from: number, to: number): string[] {
    const { first, end } = this.positions(from, to);
    return this.view.ids.slice(first, end);
  }
}
