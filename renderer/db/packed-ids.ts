/**
 * A long list of element ids held as one string and the offsets where each id ends. A million ids as separate strings
 * are a million objects that every full garbage collection visits and moves: with a large file open that pause alone
 * is longer than a frame. Packed, they are two objects the collector does not look into, and an id is made only when
 * it is asked for (the few rows a screen shows).
 */

/** What screens read of a list of ids; a plain array is one too. */
export interface IdList {
  readonly length: number;
  at(index: number): string | undefined;
  slice(start?: number, end?: number): string[];
  includes(id: string): boolean;
  [Symbol.iterator](): Iterator<string>;
}

/** Ids joined per chunk while a list is built: joining in chunks keeps each pending array small. */
const CHUNK = 4_096;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashOf(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
  return hash >>> 0;
}

export class PackedIds implements IdList {
  readonly length: number;
  /** A lookup table by hash, built on the first lookup in a list that is not in key order. */
  private table: Int32Array | null = null;

  constructor(
    /** The ids, joined. */
    readonly text: string,
    /** `ends[k]`: where id `k` ends in `text` (it starts where the one before ends). */
    readonly ends: Uint32Array,
    /** Whether the ids are in key order (each greater than the one before), so a lookup is a binary search. */
    readonly sorted: boolean,
  ) {
    this.length = ends.length;
  }

  static readonly EMPTY = new PackedIds('', new Uint32Array(0), true);

  /** Where id `index` starts in `text`. */
  startOf(index: number): number {
    return index === 0 ? 0 : (this.ends[index - 1] ?? 0);
  }

  /** Id `index`, which must be in range. */
  private idAt(index: number): string {
    return this.text.slice(this.startOf(index), this.ends[index]);
  }

  at(index: number): string | undefined {
    const position = index < 0 ? this.length + index : index;
    if (position < 0 || position >= this.length) return undefined;
    return this.idAt(position);
  }

  slice(start = 0, end = this.length): string[] {
    const from = start < 0 ? Math.max(0, this.length + start) : Math.min(start, this.length);
    const to = end < 0 ? Math.max(0, this.length + end) : Math.min(end, this.length);
    const ids: string[] = [];
    for (let index = from; index < to; index += 1) ids.push(this.idAt(index));
    return ids;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let index = 0; index < this.length; index += 1) yield this.idAt(index);
  }

  /** Whether the id at `index` is `id`, without making it. */
  private holdsAt(index: number, id: string): boolean {
    const start = this.startOf(index);
    return (this.ends[index] ?? 0) - start === id.length && this.text.startsWith(id, start);
  }

  /** The position of `id`, or -1. */
  indexOf(id: string): number {
    return this.sorted ? this.search(id) : this.lookUp(id);
  }

  includes(id: string): boolean {
    return this.indexOf(id) >= 0;
  }

  private search(id: string): number {
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.idAt(middle);
      if (found === id) return middle;
      if (found < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  private lookUp(id: string): number {
    const table = this.table ?? this.buildTable();
    const mask = table.length - 1;
    for (let slot = hashOf(id, 0, id.length) & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot] ?? 0;
      if (entry === 0) return -1;
      if (this.holdsAt(entry - 1, id)) return entry - 1;
    }
  }

  /** Open addressing at most half full; a slot holds position + 1 (0 is empty). */
  private buildTable(): Int32Array {
    let size = 2;
    while (size < this.length * 2) size *= 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let index = 0; index < this.length; index += 1) {
      let slot = hashOf(this.text, this.startOf(index), this.ends[index] ?? 0) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = index + 1;
    }
    this.table = table;
    return table;
  }

  /** The same ids, whichever way each list was built. */
  equals(other: PackedIds): boolean {
    if (other === this) return true;
    if (other.length !== this.length || other.text !== this.text) return false;
    for (let index = 0; index < this.length; index += 1) if (other.ends[index] !== this.ends[index]) return false;
    return true;
  }
}

/** Builds a `PackedIds` an id (or a run of another list's ids) at a time. */
export class PackedIdsBuilder {
  private readonly pieces: string[] = [];
  private pending: string[] = [];
  private ends = new Uint32Array(1_024);
  private count = 0;
  private textLength = 0;
  private sorted = true;
  private last: string | undefined;

  get length(): number {
    return this.count;
  }

  private room(more: number): void {
    if (this.count + more <= this.ends.length) return;
    let size = this.ends.length * 2;
    while (size < this.count + more) size *= 2;
    const grown = new Uint32Array(size);
    grown.set(this.ends.subarray(0, this.count));
    this.ends = grown;
  }

  private follows(first: string): void {
    if (this.last !== undefined && first <= this.last) this.sorted = false;
  }

  add(id: string): void {
    this.room(1);
    this.follows(id);
    this.last = id;
    this.pending.push(id);
    this.textLength += id.length;
    this.ends[this.count] = this.textLength;
    this.count += 1;
    if (this.pending.length >= CHUNK) this.flush();
  }

  /** Adds the ids of `source` from `from` up to `to` as one piece of text, without making each id. */
  addRun(source: PackedIds, from: number, to: number): void {
    if (to <= from) return;
    this.flush();
    this.room(to - from);
    this.follows(source.at(from) ?? '');
    this.sorted &&= source.sorted;
    this.last = source.at(to - 1);
    const start = source.startOf(from);
    const offset = this.textLength - start;
    for (let index = from; index < to; index += 1) this.ends[this.count + index - from] = (source.ends[index] ?? 0) + offset;
    const text = source.text.slice(start, source.ends[to - 1]);
    this.pieces.push(text);
    this.count += to - from;
    this.textLength += text.length;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.pieces.push(this.pending.join(''));
    this.pending = [];
  }

  build(): PackedIds {
    this.flush();
    return new PackedIds(this.pieces.join(''), this.ends.slice(0, this.count), this.sorted);
  }
}
