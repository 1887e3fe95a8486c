/**
 * The rows of the elements grid over a view: an element of its own is a row; a split element is a parent row, followed
 * by a row per part while it is open. Open is the view's default (a filtered view shows the parts that matched) unless
 * the user opened or closed that element. Rows are found by a binary search in the rows' ends per entry (a typed
 * array), so nothing is made per element: a view's rows are counted once (the user's choices found by the hash of
 * their GlobalId in the packed ids, without making a string per split element), and a toggle shifts the ends after it.
 */
import { entrySpan, parentAt, parentHash, type ElementView } from './element-groups';
import { PartKind } from './element-parts';

/** A row of the grid: an element (`parent` when it is a part shown under its parent row), or a split element's parent row. */
export type GridRow =
  | { kind: 'element'; index: number; id: string; position: number; parent: { id: string; row: number } | null }
  | { kind: 'parent'; index: number; id: string; partKind: PartKind; first: number; end: number; open: boolean };

/** Whether split elements show open: per GlobalId the user's choice, else the view's default. */
function openness(view: ElementView, chosen: ReadonlyMap<string, boolean>): (first: number) => boolean {
  if (chosen.size === 0) return () => view.open;
  const byHash = new Map<number, [string, boolean][]>();
  for (const [parent, open] of chosen) {
    const hash = parentHash(parent, 0);
    byHash.set(hash, [...(byHash.get(hash) ?? []), [parent, open]]);
  }
  const { text } = view.ids;
  return (first) => {
    const start = view.ids.startOf(first);
    const candidates = byHash.get(parentHash(text, start));
    return candidates?.find(([parent]) => text.startsWith(parent, start))?.[1] ?? view.open;
  };
}

export class GridRows {
  private constructor(
    readonly view: ElementView,
    /** Per entry, where its rows end; null when each entry is one row (the view holds no part). */
    private readonly rowEnds: Uint32Array | null,
    readonly length: number,
  ) {}

  /** The rows of `view`, its split elements open or closed as the user chose (by GlobalId), else as the view's default. */
  static of(view: ElementView, chosen: ReadonlyMap<string, boolean>): GridRows {
    const { groups, ids } = view;
    if (groups === null) return new GridRows(view, null, ids.length);
    const isOpen = openness(view, chosen);
    const { ends, kinds } = groups;
    const rowEnds = new Uint32Array(ends.length);
    let rows = 0;
    let first = 0;
    for (let entry = 0; entry < rowEnds.length; entry += 1) {
      const end = ends[entry] ?? first;
      rows += 1;
      if (kinds[entry] !== PartKind.None && isOpen(first)) rows += end - first;
      rowEnds[entry] = rows;
      first = end;
    }
    return new GridRows(view, rowEnds, rows);
  }

  /** These rows with the split element of parent row `index` open or closed (the same rows for any other row). */
  toggled(index: number, open: boolean): GridRows {
    const row = this.at(index);
    if (row?.kind !== 'parent' || row.open === open || this.rowEnds === null) return this;
    const change = open ? row.end - row.first : row.first - row.end;
    const rowEnds = this.rowEnds.slice();
    for (let entry = this.entryOf(index, rowEnds); entry < rowEnds.length; entry += 1) rowEnds[entry] = (rowEnds[entry] ?? 0) + change;
    return new GridRows(this.view, rowEnds, this.length + change);
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

  /** Row `index`, or undefined outside the rows. */
  at(index: number): GridRow | undefined {
    const { ids, groups } = this.view;
    if (index < 0 || index >= this.length) return undefined;
    if (this.rowEnds === null || groups === null) return { kind: 'element', index, id: ids.at(index) ?? '', position: index, parent: null };
    const entry = this.entryOf(index, this.rowEnds);
    const start = entry === 0 ? 0 : (this.rowEnds[entry - 1] ?? 0);
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
