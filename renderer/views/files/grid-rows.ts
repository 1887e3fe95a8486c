/**
 * The rows of the elements grid over a view: an element of its own is a row; a split element is a parent row, followed
 * by a row per part while it is open. Open is the view's default (a filtered view shows the parts that matched) unless
 * the user opened or closed that element. Where an entry's rows end follows from the view (one row per entry, or its
 * rows counted with every split element open, `ViewGroups.openRowEnds`) and from the few entries the user changed,
 * held apart in order with the rows each adds or takes away: a row is found by a binary search, and neither a new view
 * nor a toggle makes or fills anything per element (an array of a million entries is a long task on its own).
 */
import { entrySpan, parentAt, parentHash, type ElementView } from './element-groups';
import { PartKind } from './element-parts';

/** A row of the grid: an element (`parent` when it is a part shown under its parent row), or a split element's parent row. */
export type GridRow =
  | { kind: 'element'; index: number; id: string; position: number; parent: { id: string; row: number } | null }
  | { kind: 'parent'; index: number; id: string; partKind: PartKind; first: number; end: number; open: boolean };

/** The first index of `sorted` whose value is greater than `value` (its length when none is). */
function firstAbove(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? 0) > value) high = middle;
    else low = middle + 1;
  }
  return low;
}

export class GridRows {
  private constructor(
    readonly view: ElementView,
    /** The entries whose split element shows otherwise than the view's default, in order. */
    private readonly changed: readonly number[],
    /** `added[k]`: the rows the changes up to `changed[k]` add (less than 0 where they take rows away). */
    private readonly added: readonly number[],
    readonly length: number,
  ) {}

  /** The rows of `view`, its split elements open or closed as the user chose (by GlobalId), else as the view's default. */
  static of(view: ElementView, chosen: ReadonlyMap<string, boolean>): GridRows {
    const { groups, ids } = view;
    if (groups === null) return new GridRows(view, [], [], ids.length);
    const entries = groups.ends.length;
    const plain = new GridRows(view, [], [], groups.openRowEnds?.[entries - 1] ?? entries);
    if (chosen.size === 0) return plain;
    // The user's choices are found by the hash of their GlobalId: no string is made per split element.
    const byHash = new Map<number, [string, boolean][]>();
    for (const [parent, open] of chosen) {
      if (open === view.open) continue;
      const hash = parentHash(parent, 0);
      byHash.set(hash, [...(byHash.get(hash) ?? []), [parent, open]]);
    }
    const changed: number[] = [];
    const added: number[] = [];
    let total = 0;
    const { text } = ids;
    for (let entry = 0; entry < entries && byHash.size > 0; entry += 1) {
      if (groups.kinds[entry] === PartKind.None) continue;
      const { first, end } = entrySpan(groups, entry);
      const start = ids.startOf(first);
      const hash = parentHash(text, start);
      const candidates = byHash.get(hash);
      const found = candidates?.findIndex(([parent]) => text.startsWith(parent, start)) ?? -1;
      if (candidates === undefined || found < 0) continue;
      // A split element's parts are one entry: its choice is found once.
      if (candidates.length === 1) byHash.delete(hash);
      else candidates.splice(found, 1);
      total += view.open ? first - end : end - first;
      changed.push(entry);
      added.push(total);
    }
    return new GridRows(view, changed, added, plain.length + total);
  }

  /** These rows with the split element of parent row `index` open or closed (the same rows for any other row). */
  toggled(index: number, open: boolean): GridRows {
    const row = this.at(index);
    const { groups } = this.view;
    if (row?.kind !== 'parent' || row.open === open || groups === null) return this;
    const entry = this.entryOf(index);
    const at = firstAbove(this.changed, entry - 1);
    const changed = [...this.changed];
    // Toggled back, an entry shows as the view's default again.
    if (changed[at] === entry) changed.splice(at, 1);
    else changed.splice(at, 0, entry);
    const added: number[] = [];
    let total = 0;
    for (const each of changed) {
      const { first, end } = entrySpan(groups, each);
      total += this.view.open ? first - end : end - first;
      added.push(total);
    }
    return new GridRows(this.view, changed, added, this.length + (open ? row.end - row.first : row.first - row.end));
  }

  /** Where the rows of entry `entry` end. */
  private rowEnd(entry: number): number {
    const base = this.view.groups?.openRowEnds?.[entry] ?? entry + 1;
    const through = firstAbove(this.changed, entry);
    return base + (through === 0 ? 0 : (this.added[through - 1] ?? 0));
  }

  /** The entry whose rows hold row `index`. */
  private entryOf(index: number): number {
    let low = 0;
    let high = (this.view.groups?.ends.length ?? 1) - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.rowEnd(middle) > index) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** Row `index`, or undefined outside the rows. */
  at(index: number): GridRow | undefined {
    const { ids, groups } = this.view;
    if (index < 0 || index >= this.length) return undefined;
    if (groups === null) return { kind: 'element', index, id: ids.at(index) ?? '', position: index, parent: null };
    const entry = this.entryOf(index);
    const start = entry === 0 ? 0 : this.rowEnd(entry - 1);
    const { first, end } = entrySpan(groups, entry);
    const partKind = (groups.kinds[entry] ?? PartKind.None) as PartKind;
    if (partKind === PartKind.None) return { kind: 'element', index, id: ids.at(first) ?? '', position: first, parent: null };
    const parent = parentAt(ids, first);
    if (index === start) return { kind: 'parent', index, id: parent, partKind, first, end, open: this.rowEnd(entry) - start > 1 };
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
