/**
 * One STEP entity's arguments, parsed into the `RawLine` shape web-ifc's `GetRawLinesData` gives (raw.ts), token for
 * token as web-ifc's tokenizer and its GetArgs read them:
 * - `$` is null; `*` (and any character that starts no token, such as a lone `-`) is left out, so the arguments after
 *   it move one place forward; `/* … *\/` comments are skipped;
 * - `#12` is REF 12; `'…'` STRING, decoded (step-string.ts); `.X.` ENUM "X" (but `.T.` true, `.F.` false and
 *   `.U.` undefined); a number is REAL with its text as the
 *   value when it holds `.` or `E`, else INTEGER with its value (a `-` right before the first digit belongs to it);
 * - `NAME(…)` is a typed value: LABEL with the type's code and, as its value, the bare value inside (not wrapped in
 *   `{type, value}`), null when empty, an array of bare values when there are several;
 * - `(…)` is a list (of wrapped values), empty lists included; an entity without arguments has none (null).
 */
import type { RawArgument, RawLine } from './raw';
import { decodeStepString } from './step-string';
import { WebIfc } from './web-ifc';

const { ENUM, INTEGER, LABEL, REAL, REF, STRING } = WebIfc;

/** A line the reader cannot make sense of; the reader names the line it came from. */
export class StepSyntaxError extends Error {}

/** The CRC-32 (IEEE, as zlib's) table. */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let value = byte;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    table[byte] = value;
  }
  return table;
})();

/**
 * web-ifc's code of the type or entity name in bytes [from, to): the CRC-32 of the name in upper case, as its schema
 * tables are built. Computed on the bytes: no string is made for the millions of names a large file holds.
 */
export function typeCodeOfBytes(bytes: Uint8Array, from: number, to: number): number {
  let crc = -1;
  for (let index = from; index < to; index++) {
    let byte = bytes[index] as number;
    if (byte >= 0x61 && byte <= 0x7a) byte -= 0x20;
    crc = (crc >>> 8) ^ (CRC_TABLE[(crc ^ byte) & 0xff] as number);
  }
  return (crc ^ -1) >>> 0;
}

/** web-ifc's code of a type or entity name. */
export function typeCodeOf(name: string): number {
  return typeCodeOfBytes(Buffer.from(name, 'latin1'), 0, name.length);
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x27;
const BACKSLASH = 0x5c;

function isLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

function isNumberPart(byte: number): boolean {
  // digits . e E - +
  return isDigit(byte) || byte === 0x2e || byte === 0x65 || byte === 0x45 || byte === 0x2d || byte === 0x2b;
}

/**
 * The position right after the closing quote of the string whose opening quote is at `start`. A quote preceded by
 * `\S\` is a character, not the end (ISO 10303-21's `\S\'`), as web-ifc reads it.
 */
export function stringEnd(bytes: Uint8Array, start: number, end: number): number {
  let index = start + 1;
  while (index < end) {
    if (bytes[index] === QUOTE) {
      if (index - start >= 4 && bytes[index - 3] === BACKSLASH && (bytes[index - 2] === 0x53 || bytes[index - 2] === 0x73) && bytes[index - 1] === BACKSLASH) {
        index++;
        continue;
      }
      if (bytes[index + 1] === QUOTE && index + 1 < end) {
        index += 2;
        continue;
      }
      return index + 1;
    }
    index++;
  }
  return -1;
}

/** Reads one entity's arguments; a class rather than closures, as it runs for every line of the file. */
class ArgumentParser {
  position: number;

  constructor(
    private readonly bytes: Buffer,
    start: number,
    private readonly end: number,
  ) {
    this.position = start + 1;
  }

  /**
   * Reads values until `)` or `;`; `bare` for the inside of a typed value, `list` for a `(…)` list. Bare values are no
   * RawArgument of their own: `unknown` until the line is whole.
   */
  read(bare: boolean, list: boolean): unknown {
    const { bytes, end } = this;
    const values: unknown[] = [];
    while (this.position < end) {
      const byte = bytes[this.position] as number;
      if (byte === SPACE || byte === LF || byte === CR || byte === TAB) {
        this.position++;
        continue;
      }
      if (byte === 0x29 /* ) */ || byte === 0x3b /* ; */) {
        this.position++;
        break;
      }
      if (byte === 0x24 /* $ */) {
        values.push(null);
        this.position++;
      } else if (byte === 0x28 /* ( */) {
        this.position++;
        values.push(this.read(false, true));
      } else if (byte === 0x2a /* * */) {
        if (bytes[this.position - 1] === 0x2f /* / */) {
          const close = findCommentEnd(bytes, this.position + 1, end);
          if (close < 0) throw new StepSyntaxError('a comment (/*) never ends');
          this.position = close;
        } else this.position++;
      } else if (byte === QUOTE) {
        const after = stringEnd(bytes, this.position, end);
        if (after < 0) throw new StepSyntaxError('a string never ends');
        const value = decodeStepString(bytes, this.position + 1, after - 1);
        values.push(bare ? value : { type: STRING, value });
        this.position = after;
      } else if (byte === 0x23 /* # */) {
        let position = this.position + 1;
        let id = 0;
        while (position < end && isDigit(bytes[position] as number)) id = id * 10 + (bytes[position++] as number) - 0x30;
        this.position = position;
        values.push(bare ? id : { type: REF, value: id });
      } else if (isDigit(byte)) {
        let position = this.position;
        const first = bytes[position - 1] === 0x2d ? position - 1 : position;
        let fractional = false;
        while (position < end && isNumberPart(bytes[position] as number)) {
          const part = bytes[position] as number;
          if (part === 0x2e || part === 0x45) fractional = true;
          position++;
        }
        this.position = position;
        const number = bytes.toString('latin1', first, position);
        if (fractional) values.push(bare ? number : { type: REAL, value: number });
        else {
          const value = Number.parseInt(number, 10);
          values.push(bare ? value : { type: INTEGER, value });
        }
      } else if (byte === 0x2e /* . */) {
        const close = bytes.indexOf(0x2e, this.position + 1);
        if (close < 0 || close >= end) throw new StepSyntaxError('an enumeration (.X.) never ends');
        const value = enumerationValue(bytes.toString('latin1', this.position + 1, close));
        values.push(bare ? value : { type: ENUM, value });
        this.position = close + 1;
      } else if (isLetter(byte)) {
        const first = this.position;
        let position = first;
        while (position < end) {
          const part = bytes[position] as number;
          if (!(isLetter(part) || isDigit(part) || part === 0x5f)) break;
          position++;
        }
        this.position = position;
        const typecode = typeCodeOfBytes(bytes, first, position);
        this.skipToken();
        values.push({ type: LABEL, typecode, value: this.read(true, false) });
      } else this.position++;
    }
    if (values.length === 0 && !list) return null;
    if (values.length === 1 && bare) return values[0];
    return values;
  }

  /** Steps over the one token after a type's name (its `(`), as web-ifc does whatever it is. */
  private skipToken(): void {
    const { bytes, end } = this;
    while (this.position < end) {
      const byte = bytes[this.position] as number;
      if (byte !== SPACE && byte !== LF && byte !== CR && byte !== TAB) break;
      this.position++;
    }
    this.position++;
  }
}

/** Parses the arguments of one entity: `bytes[start]` is its opening `(`, `end` lies past its closing `;`. */
export function parseStepArguments(bytes: Buffer, start: number, end: number): RawArgument[] | null {
  const values = new ArgumentParser(bytes, start, end).read(false, false);
  return Array.isArray(values) ? (values as RawArgument[]) : null;
}

/** web-ifc turns the logical enumeration values into booleans: .T. true, .F. false, .U. undefined. */
function enumerationValue(value: string): string | boolean | undefined {
  if (value === 'T') return true;
  if (value === 'F') return false;
  return value === 'U' ? undefined : value;
}

function findCommentEnd(bytes: Uint8Array, from: number, end: number): number {
  for (let index = from + 1; index < end; index++) if (bytes[index] === 0x2f && bytes[index - 1] === 0x2a) return index + 1;
  return -1;
}

/** The raw line of an entity, or null when it has no arguments (web-ifc gives no line then either). */
export function parseStepLine(id: number, type: number, bytes: Buffer, start: number, end: number): RawLine | null {
  const values = parseStepArguments(bytes, start, end);
  return values === null ? null : { ID: id, type, arguments: values };
}
