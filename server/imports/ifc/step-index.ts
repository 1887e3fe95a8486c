/**
 * One pass over a STEP file, read from disk in chunks, that records every entity instance `#id=NAME(…);`: its id, its
 * type code (typeCodeOf), where its arguments start (the `(`) and end (past the `;`), and its line number, in typed
 * arrays (24 bytes an entity; the file itself is not kept). Strings and comments are stepped over, so a `;` inside
 * either ends nothing. Statements that are no entity instance (the header, `DATA;`, `ENDSEC;`) are skipped.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { UnknownImportFileError } from '../imported-element';
import { stringEnd, typeCodeOfBytes } from './step-line';

const CHUNK_BYTES = 8 * 1024 * 1024;
const QUOTE = 0x27;
const SEMICOLON = 0x3b;
const SLASH = 0x2f;
const STAR = 0x2a;
const LF = 0x0a;
const COMMENT_OPEN = Buffer.from('/*');
const COMMENT_CLOSE = Buffer.from('*/');

/** The entities of a file, in file order. */
export class StepIndex {
  /** Positions in file order, sorted by id: null when the ids already ascend in file order (the usual case). */
  private readonly byId: Uint32Array | null;

  constructor(
    readonly count: number,
    readonly ids: Uint32Array,
    readonly types: Uint32Array,
    readonly starts: Float64Array,
    readonly lengths: Uint32Array,
    readonly lines: Uint32Array,
  ) {
    let ascending = true;
    for (let index = 1; index < count && ascending; index++) ascending = (ids[index - 1] as number) < (ids[index] as number);
    if (ascending) this.byId = null;
    else {
      const order = new Uint32Array(count);
      for (let index = 0; index < count; index++) order[index] = index;
      this.byId = order.sort((a, b) => (ids[a] as number) - (ids[b] as number));
    }
  }

  /** Positions grouped by type (each group in file order), and where each type's group lies in it: built on first use. */
  private byType: { positions: Uint32Array; groups: Map<number, { from: number; to: number }> } | null = null;

  /** Positions of the entities of this type, in file order. */
  positionsOfType(type: number): Uint32Array {
    this.byType ??= this.groupByType();
    const group = this.byType.groups.get(type);
    return group === undefined ? new Uint32Array(0) : this.byType.positions.subarray(group.from, group.to);
  }

  /** A counting sort by type: one pass counts, one places; no comparison sort over millions of positions. */
  private groupByType(): { positions: Uint32Array; groups: Map<number, { from: number; to: number }> } {
    const { count, types } = this;
    const groups = new Map<number, { from: number; to: number }>();
    for (let position = 0; position < count; position++) {
      const type = types[position] as number;
      const group = groups.get(type);
      if (group === undefined) groups.set(type, { from: 0, to: 1 });
      else group.to++;
    }
    let next = 0;
    for (const group of groups.values()) {
      const size = group.to;
      group.from = next;
      group.to = next;
      next += size;
    }
    const positions = new Uint32Array(count);
    for (let position = 0; position < count; position++) {
      const group = groups.get(types[position] as number) as { from: number; to: number };
      positions[group.to++] = position;
    }
    return { positions, groups };
  }

  /** The position of the entity with this id, or -1. */
  positionOf(id: number): number {
    const { ids, byId } = this;
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const position = byId === null ? middle : (byId[middle] as number);
      const found = ids[position] as number;
      if (found === id) return position;
      if (found < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** Growable columns of the index while scanning. */
class IndexBuilder {
  count = 0;
  ids = new Uint32Array(1024);
  types = new Uint32Array(1024);
  starts = new Float64Array(1024);
  lengths = new Uint32Array(1024);
  lines = new Uint32Array(1024);

  add(id: number, type: number, start: number, length: number, line: number): void {
    if (this.count === this.ids.length) this.grow();
    const index = this.count++;
    this.ids[index] = id;
    this.types[index] = type;
    this.starts[index] = start;
    this.lengths[index] = length;
    this.lines[index] = line;
  }

  private grow(): void {
    const size = this.ids.length * 2;
    const grown = <T extends Uint32Array | Float64Array>(array: T, make: (size: number) => T): T => {
      const copy = make(size);
      copy.set(array);
      return copy;
    };
    this.ids = grown(this.ids, (n) => new Uint32Array(n));
    this.types = grown(this.types, (n) => new Uint32Array(n));
    this.starts = grown(this.starts, (n) => new Float64Array(n));
    this.lengths = grown(this.lengths, (n) => new Uint32Array(n));
    this.lines = grown(this.lines, (n) => new Uint32Array(n));
  }

  finish(): StepIndex {
    const { count } = this;
    return new StepIndex(count, this.ids.slice(0, count), this.types.slice(0, count), this.starts.slice(0, count), this.lengths.slice(0, count), this.lines.slice(0, count));
  }
}

/**
 * Finds the ends of statements in one chunk with the runtime's native byte search (the next `;`, `'` and `/*`), not a
 * loop over every byte: the scan runs at the speed of reading the file. The next quote and comment are remembered, so
 * a chunk without either is searched once, not once per statement.
 */
class StatementFinder {
  private nextQuote = -1;
  private nextComment = -1;

  constructor(
    private readonly bytes: Buffer,
    private readonly end: number,
  ) {}

  private quoteFrom(index: number): number {
    if (this.nextQuote !== Infinity && this.nextQuote < index) {
      const found = this.bytes.indexOf(QUOTE, index);
      this.nextQuote = found < 0 || found >= this.end ? Infinity : found;
    }
    return this.nextQuote;
  }

  private commentFrom(index: number): number {
    if (this.nextComment !== Infinity && this.nextComment < index) {
      const found = this.bytes.indexOf(COMMENT_OPEN, index);
      this.nextComment = found < 0 || found >= this.end ? Infinity : found;
    }
    return this.nextComment;
  }

  /** Where the statement at `from` ends (past its `;`), -1 when it runs past the chunk. */
  statementEnd(from: number): number {
    const { bytes, end } = this;
    let index = from;
    for (;;) {
      const semicolon = bytes.indexOf(SEMICOLON, index);
      if (semicolon < 0 || semicolon >= end) return -1;
      const quote = this.quoteFrom(index);
      const comment = this.commentFrom(index);
      if (quote < semicolon && quote < comment) {
        const after = stringEnd(bytes, quote, end);
        if (after < 0) return -1;
        index = after;
      } else if (comment < semicolon) {
        index = this.commentEnd(comment);
        if (index < 0) return -1;
      } else return semicolon + 1;
    }
  }

  /** Past the `*\/` closing the comment opened at `open`, -1 when it runs past the chunk. */
  commentEnd(open: number): number {
    const close = this.bytes.indexOf(COMMENT_CLOSE, open + 2);
    return close < 0 || close + 2 > this.end ? -1 : close + 2;
  }

  /** Newlines in [from, to). */
  newlines(from: number, to: number): number {
    let count = 0;
    for (let index = this.bytes.indexOf(LF, from); index >= 0 && index < to; index = this.bytes.indexOf(LF, index + 1)) count++;
    return count;
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === LF || byte === 0x0d || byte === 0x09;
}

/** An entity's head as `entityHead` read it: one object, filled again for every statement of the scan. */
interface EntityHead {
  id: number;
  type: number;
  /** Where its `(` is. */
  open: number;
}

/**
 * Parses `#id = NAME (` at `from` into `head`; false when the statement is no entity instance or a complex one.
 * Throws for a `#` statement that is malformed.
 */
function entityHead(bytes: Buffer, from: number, end: number, line: number, head: EntityHead): boolean {
  if (bytes[from] !== 0x23 /* # */) return false;
  let index = from + 1;
  let id = 0;
  const digitsStart = index;
  while (index < end && (bytes[index] as number) >= 0x30 && (bytes[index] as number) <= 0x39) id = id * 10 + (bytes[index++] as number) - 0x30;
  if (index === digitsStart) throw new UnknownImportFileError(`Line ${line}: an entity without an id (# not followed by digits).`);
  while (index < end && isSpace(bytes[index] as number)) index++;
  if (bytes[index] !== 0x3d /* = */) throw new UnknownImportFileError(`Line ${line}: #${id} is not followed by '='.`);
  index++;
  while (index < end && isSpace(bytes[index] as number)) index++;
  const nameStart = index;
  while (index < end) {
    const byte = bytes[index] as number;
    if (!((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x5f)) break;
    index++;
  }
  const nameEnd = index;
  while (index < end && isSpace(bytes[index] as number)) index++;
  // A complex entity instance (`#3=(IFCNAMEDUNIT(*,.LENGTHUNIT.)IFCSIUNIT(…));`) is left out: no element is one, and
  // the extraction understands none (web-ifc hands it over as its first part, which no reader here takes either); a
  // reference to it reads as a dangling one rather than refusing the whole model.
  if (nameEnd === nameStart && bytes[index] === 0x28 /* ( */) return false;
  if (nameEnd === nameStart || bytes[index] !== 0x28 /* ( */) throw new UnknownImportFileError(`Line ${line}: #${id} has no entity name followed by '('.`);
  head.id = id;
  head.type = typeCodeOfBytes(bytes, nameStart, nameEnd);
  head.open = index;
  return true;
}

/** Scans the file at `filePath` into a StepIndex; throws UnknownImportFileError naming the line of a malformed entity. */
export function indexStepFile(filePath: string): StepIndex {
  const builder = new IndexBuilder();
  const head: EntityHead = { id: 0, type: 0, open: 0 };
  const descriptor = openSync(filePath, 'r');
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    /** Bytes of `buffer` in use, and the file offset of buffer[0]. */
    let filled = 0;
    let bufferOffset = 0;
    let line = 1;
    let atEnd = false;
    for (;;) {
      if (!atEnd) {
        if (filled === buffer.length) {
          const larger = Buffer.allocUnsafe(buffer.length * 2);
          buffer.copy(larger, 0, 0, filled);
          buffer = larger;
        }
        const read = readSync(descriptor, buffer, filled, buffer.length - filled, bufferOffset + filled);
        if (read === 0) atEnd = true;
        filled += read;
      }
      const finder = new StatementFinder(buffer, filled);
      let index = 0;
      for (;;) {
        while (index < filled && isSpace(buffer[index] as number)) {
          if (buffer[index] === LF) line++;
          index++;
        }
        if (index >= filled) break;
        const after = buffer[index] === SLASH && buffer[index + 1] === STAR ? finder.commentEnd(index) : finder.statementEnd(index);
        if (after < 0) break;
        if (entityHead(buffer, index, after, line, head)) builder.add(head.id, head.type, bufferOffset + head.open, after - head.open, line);
        line += finder.newlines(index, after);
        index = after;
      }
      if (atEnd) {
        // Exporters may pad the end with NULs (step-file.ts allows it).
        if (buffer.subarray(index, filled).some((byte) => byte !== 0 && !isSpace(byte))) {
          throw new UnknownImportFileError(`Line ${line}: the last statement never ends (no ';').`);
        }
        break;
      }
      // Keep the unfinished statement: it is read again with the next chunk behind it.
      buffer.copy(buffer, 0, index, filled);
      filled -= index;
      bufferOffset += index;
    }
  } finally {
    closeSync(descriptor);
  }
  return builder.finish();
}
