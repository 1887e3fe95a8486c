/**
 * A split element's parts kept together in a view of a file's elements: the view's ids are in its order with each
 * split element's parts one after another (in the set's order, layers by n), and the view says where each entry ends,
 * an entry being an element of its own or the parts of one split element (a lone part too: its id says it is one).
 * Everything is held in typed arrays and found in the packed text of the ids, in steps: a view of a million elements
 * makes no object per element and no long task.
 */
import { eachInSteps } from '../../each-in-steps';
import { nextTask } from '../../next-task';
import { PackedIdsBuilder, type PackedIds } from '../../db/packed-ids';
import { GLOBAL_ID_LENGTH, PartKind, partKindIn, partNumberIn } from './element-parts';

/** The entries of a view that holds parts. */
export interface ViewGroups {
  /** Per entry, where its ids end. */
  ends: Uint32Array;
  /** Per entry, the kind of its parts (None: an element of its own). */
  kinds: Uint8Array;
  /**
   * In a view that shows its split elements open, per entry where its rows end, each split element with a row per
   * part; null in one that shows them closed (an entry is then one row).
   */
  openRowEnds: Uint32Array | null;
}

/** Which elements a view shows, in which order, and how they are grouped. */
export interface ElementView {
  /** The elements' ids in the view's order, a split element's parts one after another. */
  ids: PackedIds;
  /** Its entries; null when it holds no part (each element is an entry of its own). */
  groups: ViewGroups | null;
  /** Whether a split element shows its parts unless the user closed it: a filtered view shows the parts that matched. */
  open: boolean;
}

/** Ids packed per task once a view's order is known: a few milliseconds each. */
const PACK_STEP = 20_000;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The hash of the GlobalId a part id starting at `start` of `text` starts with. */
export function parentHash(text: string, start: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < start + GLOBAL_ID_LENGTH; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
  return hash >>> 0;
}

/** Whether the ids starting at `a` and `b` of `text` start with the same GlobalId. */
function sameParent(text: string, a: number, b: number): boolean {
  for (let offset = 0; offset < GLOBAL_ID_LENGTH; offset += 1) if (text.charCodeAt(a + offset) !== text.charCodeAt(b + offset)) return false;
  return true;
}

/** The parent (GlobalId) of the part at `position` of `ids`. */
export function parentAt(ids: PackedIds, position: number): string {
  const start = ids.startOf(position);
  return ids.text.slice(start, start + GLOBAL_ID_LENGTH);
}

/** A grouping of a list's positions: the positions in the grouped order, and its entries (as in `ViewGroups`). */
export interface Grouping {
  ends: Uint32Array;
  kinds: Uint8Array;
  order: Uint32Array;
  /** Whether `order` is the list's own (0, 1, 2 …). */
  identity: boolean;
}

/**
 * The grouping of `ids`: each split element's parts together where its first part is, in the set's order (layers
 * before constituents, each by n), everything else as it was. Null when `ids` holds no part, or `signal` aborted.
 */
export async function groupParts(ids: PackedIds, signal?: AbortSignal): Promise<Grouping | null> {
  const { text, ends, length } = ids;
  const startOf = (position: number): number => (position === 0 ? 0 : (ends[position - 1] ?? 0));
  const kindOf = new Uint8Array(length);
  let parts = 0;
  const found = await eachInSteps(
    length,
    (position) => {
      const kind = partKindIn(text, startOf(position), ends[position] ?? 0);
      kindOf[position] = kind;
      if (kind !== PartKind.None) parts += 1;
    },
    signal,
  );
  if (!found || parts === 0) return null;

  // The entry of each position: parts of one parent share the entry of the first, found in a hash table of the
  // parents seen (open addressing, a slot holds the position of a parent's first part + 1).
  let size = 2;
  while (size < parts * 2) size *= 2;
  const table = new Int32Array(size);
  const mask = size - 1;
  const entryOf = new Uint32Array(length);
  const entryKinds = new Uint8Array(length);
  let entries = 0;
  const assigned = await eachInSteps(
    length,
    (position) => {
      const kind = kindOf[position] ?? PartKind.None;
      if (kind !== PartKind.None) {
        const start = startOf(position);
        let slot = parentHash(text, start) & mask;
        for (let held = table[slot] ?? 0; held !== 0; slot = (slot + 1) & mask, held = table[slot] ?? 0) {
          if (sameParent(text, startOf(held - 1), start)) {
            entryOf[position] = entryOf[held - 1] ?? 0;
            return;
          }
        }
        table[slot] = position + 1;
      }
      entryOf[position] = entries;
      entryKinds[entries] = kind;
      entries += 1;
    },
    signal,
  );
  if (!assigned) return null;

  // A counting sort by entry: stable, so each entry's positions keep their order and entries the order of their first.
  const groupEnds = new Uint32Array(entries);
  const counted = await eachInSteps(
    length,
    (position) => {
      const entry = entryOf[position] ?? 0;
      groupEnds[entry] = (groupEnds[entry] ?? 0) + 1;
    },
    signal,
  );
  if (!counted) return null;
  const next = new Uint32Array(entries);
  const summed = await eachInSteps(
    entries,
    (entry) => {
      next[entry] = entry === 0 ? 0 : (groupEnds[entry - 1] ?? 0);
      groupEnds[entry] = (next[entry] ?? 0) + (groupEnds[entry] ?? 0);
    },
    signal,
  );
  if (!summed) return null;
  const order = new Uint32Array(length);
  let identity = true;
  const placed = await eachInSteps(
    length,
    (position) => {
      const entry = entryOf[position] ?? 0;
      const at = next[entry] ?? 0;
      order[at] = position;
      next[entry] = at + 1;
      if (at !== position) identity = false;
    },
    signal,
  );
  if (!placed) return null;
  const ordered = await eachInSteps(
    entries,
    (entry) => {
      if (entryKinds[entry] === PartKind.None) return;
      const from = entry === 0 ? 0 : (groupEnds[entry - 1] ?? 0);
      if (orderParts(ids, order, from, groupEnds[entry] ?? 0)) identity = false;
    },
    signal,
  );
  if (!ordered) return null;
  return { order, identity, ends: groupEnds, kinds: entryKinds.slice(0, entries) };
}

/** The rank of a part in its set: layers before constituents, each by n. */
function partRank(ids: PackedIds, position: number): number {
  const start = ids.startOf(position);
  const end = ids.ends[position] ?? 0;
  const kind = partKindIn(ids.text, start, end);
  return kind * 2 ** 32 + partNumberIn(ids.text, start, end);
}

/** Orders the parts `order[from, to)` of one element by their rank; answers whether any moved. */
function orderParts(ids: PackedIds, order: Uint32Array, from: number, to: number): boolean {
  let sorted = true;
  for (let index = from + 1; index < to && sorted; index += 1) sorted = partRank(ids, order[index - 1] ?? 0) < partRank(ids, order[index] ?? 0);
  if (sorted) return false;
  const members = Array.from(order.subarray(from, to));
  members.sort((a, b) => partRank(ids, a) - partRank(ids, b));
  order.set(members, from);
  return true;
}

/**
 * The ids of `source` at the positions `order` lists, packed a step at a time (a run of consecutive positions is
 * copied as one piece). Answers what it has when `signal` aborts.
 */
export async function packInOrder(source: PackedIds, order: ArrayLike<number>, signal?: AbortSignal): Promise<PackedIds> {
  const ids = new PackedIdsBuilder();
  let done = 0;
  let index = 0;
  while (index < order.length && signal?.aborted !== true) {
    const from = order[index] ?? 0;
    let to = from + 1;
    index += 1;
    while (index < order.length && order[index] === to && to - from < PACK_STEP) {
      to += 1;
      index += 1;
    }
    if (to - from === 1) ids.add(source.at(from) ?? '');
    else ids.addRun(source, from, to);
    done += to - from;
    if (done >= PACK_STEP && index < order.length) {
      done = 0;
      await nextTask();
    }
  }
  return ids.build();
}

/** A view's entries, counting their rows in steps when it shows its split elements open. */
export async function viewGroups(ends: Uint32Array, kinds: Uint8Array, open: boolean, signal?: AbortSignal): Promise<ViewGroups> {
  if (!open) return { ends, kinds, openRowEnds: null };
  const openRowEnds = new Uint32Array(ends.length);
  let rows = 0;
  await eachInSteps(
    ends.length,
    (entry) => {
      const first = entry === 0 ? 0 : (ends[entry - 1] ?? 0);
      rows += kinds[entry] === PartKind.None ? 1 : 1 + (ends[entry] ?? first) - first;
      openRowEnds[entry] = rows;
    },
    signal,
  );
  return { ends, kinds, openRowEnds };
}

/** A view of `ids` as they are, each split element's parts brought together. */
export async function groupedView(ids: PackedIds, open: boolean, signal?: AbortSignal): Promise<ElementView> {
  const grouping = await groupParts(ids, signal);
  if (grouping === null) return { ids, groups: null, open };
  const { order, identity, ends, kinds } = grouping;
  const grouped = identity ? ids : await packInOrder(ids, order, signal);
  return { ids: grouped, groups: await viewGroups(ends, kinds, open, signal), open };
}

/** The positions of a view's entry `entry`: from its first id up to the next entry's. */
export function entrySpan(groups: { ends: Uint32Array }, entry: number): { first: number; end: number } {
  return { first: entry === 0 ? 0 : (groups.ends[entry - 1] ?? 0), end: groups.ends[entry] ?? 0 };
}

/** Whether two views show the same rows: the same ids, entries and default. */
export function sameView(a: ElementView, b: ElementView): boolean {
  if (a === b) return true;
  if (a.open !== b.open || !a.ids.equals(b.ids) || (a.groups === null) !== (b.groups === null)) return false;
  if (a.groups === null || b.groups === null) return true;
  return sameArray(a.groups.ends, b.groups.ends) && sameArray(a.groups.kinds, b.groups.kinds);
}

function sameArray(a: Uint32Array | Uint8Array, b: Uint32Array | Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
