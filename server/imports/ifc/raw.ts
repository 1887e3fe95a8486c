/**
 * Raw STEP lines as web-ifc hands them over (`GetRawLinesData`): positional arguments, no schema objects. Reading raw
 * is cheaper than `GetLine` (no class construction), and the positions we read are the same in IFC2X3, IFC4 and IFC4X3
 * for every entity this importer looks at. One trap: a `*` (a derived attribute, as in IfcSIUnit's Dimensions) is left
 * out of the arguments rather than kept as null, so the arguments after it move one place forward.
 */
import { type IfcAPI, WebIfc } from './web-ifc';

const { EMPTY, ENUM, INTEGER, LABEL, REAL, REF, STRING } = WebIfc;

/** One argument of a raw line: a value, a list, or `$` (null). */
export type RawArgument = RawValue | RawArgument[] | null | undefined;

/** A single raw value: `type` is web-ifc's token kind (STRING, LABEL for typed values, ENUM, REAL, REF, INTEGER …). */
export interface RawValue {
  type: number;
  value?: unknown;
  /** For typed values (`IFCLENGTHMEASURE(1.)`): the type's code. */
  typecode?: number;
}

/** One line: its express id, its entity type code, its arguments. */
export interface RawLine {
  ID: number;
  type: number;
  arguments: RawArgument[];
}

function isValue(argument: RawArgument): argument is RawValue {
  return argument !== null && argument !== undefined && !Array.isArray(argument);
}

/** The express id an argument references, or null. */
export function refOf(argument: RawArgument): number | null {
  return isValue(argument) && argument.type === REF && typeof argument.value === 'number' ? argument.value : null;
}

/** The express ids of a list argument (a single reference counts as a list of one). */
export function refsOf(argument: RawArgument): number[] {
  if (Array.isArray(argument)) {
    const ids: number[] = [];
    for (const item of argument) {
      const id = refOf(item);
      if (id !== null) ids.push(id);
    }
    return ids;
  }
  const id = refOf(argument);
  return id === null ? [] : [id];
}

/** A string, label, enumeration or typed text value; null for anything else or an empty string. */
export function textOf(argument: RawArgument): string | null {
  if (!isValue(argument)) return null;
  if (argument.type === STRING || argument.type === ENUM || argument.type === LABEL) {
    const value = argument.value;
    if (typeof value === 'string') return value === '' ? null : value;
    if (typeof value === 'number' && argument.type === LABEL) return String(value);
  }
  return null;
}

/** A real or integer value, plain or typed (`IFCLENGTHMEASURE(1.5)`); null for anything else. */
export function numberOf(argument: RawArgument): number | null {
  if (!isValue(argument)) return null;
  if (argument.type !== REAL && argument.type !== INTEGER && argument.type !== LABEL) return null;
  const value = argument.value;
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : null;
}

/** Whether an argument is `$`, `*` or missing. */
export function isEmpty(argument: RawArgument): boolean {
  return argument === null || argument === undefined || (isValue(argument) && argument.type === EMPTY);
}

/**
 * Where the extraction reads raw lines from: web-ifc's model (LineReader) or the file itself (StepLineReader,
 * step-reader.ts). `prefetch` reads a set of ids in bulk into a short-lived cache that `line` serves from first;
 * `clearPrefetched` drops it (the caller does so per batch of elements, so memory stays bounded).
 */
export interface LineSource {
  /** The line with this express id, or null when the file has none (a dangling reference). */
  line(id: number): RawLine | null;
  /** Reads these lines in bulk for the next `line` calls. */
  prefetch(ids: Iterable<number>): void;
  /** Calls `visit` with each of these lines, in this order, without caching them; dangling ids are skipped. */
  each(ids: readonly number[], visit: (line: RawLine) => void): void;
  clearPrefetched(): void;
  /** Express ids of every line of this entity type (and its subtypes when `inherited`), ascending. */
  idsOfType(type: number, inherited?: boolean): number[];
  /** The entity name of a type code, as the schema spells it (`IfcWall`). */
  typeName(type: number): string;
}

/** Lines read ahead in one call: `GetRawLinesData` over many ids costs less per line than one call each. */
const PREFETCH_SLICE = 2_000;

/** Reads raw lines of one model open in web-ifc. */
export class LineReader implements LineSource {
  private readonly prefetched = new Map<number, RawLine | null>();
  private readonly typeNames = new Map<number, string>();

  constructor(
    readonly api: IfcAPI,
    readonly modelId: number,
  ) {}

  /** The line with this express id, or null when the file has none (a dangling reference). */
  line(id: number): RawLine | null {
    const cached = this.prefetched.get(id);
    if (cached !== undefined) return cached;
    const [line] = this.api.GetRawLinesData(this.modelId, [id]) as unknown[];
    return asLine(line);
  }

  /** Reads these lines in bulk for the next `line` calls. */
  prefetch(ids: Iterable<number>): void {
    const wanted: number[] = [];
    for (const id of ids) if (!this.prefetched.has(id)) wanted.push(id);
    for (let first = 0; first < wanted.length; first += PREFETCH_SLICE) {
      const slice = wanted.slice(first, first + PREFETCH_SLICE);
      const lines = this.api.GetRawLinesData(this.modelId, slice) as unknown[];
      slice.forEach((id, index) => this.prefetched.set(id, asLine(lines[index])));
    }
  }

  /** Calls `visit` with each of these lines in bulk reads, without caching them; dangling ids are skipped. */
  each(ids: readonly number[], visit: (line: RawLine) => void): void {
    for (let first = 0; first < ids.length; first += PREFETCH_SLICE) {
      const lines = this.api.GetRawLinesData(this.modelId, ids.slice(first, first + PREFETCH_SLICE)) as unknown[];
      for (const value of lines) {
        const line = asLine(value);
        if (line !== null) visit(line);
      }
    }
  }

  clearPrefetched(): void {
    this.prefetched.clear();
  }

  /** Express ids of every line of this entity type (and its subtypes when `inherited`), ascending (file order). */
  idsOfType(type: number, inherited = false): number[] {
    const vector = this.api.GetLineIDsWithType(this.modelId, type, inherited);
    const ids = new Array<number>(vector.size());
    for (let index = 0; index < ids.length; index++) ids[index] = vector.get(index);
    return ids.sort((a, b) => a - b);
  }

  /** The entity name of a type code, as the schema spells it (`IfcWall`). */
  typeName(type: number): string {
    let name = this.typeNames.get(type);
    if (name === undefined) {
      name = this.api.GetNameFromTypeCode(type);
      this.typeNames.set(type, name);
    }
    return name;
  }
}

function asLine(value: unknown): RawLine | null {
  if (typeof value !== 'object' || value === null) return null;
  const line = value as Partial<RawLine>;
  return typeof line.type === 'number' && typeof line.ID === 'number' && Array.isArray(line.arguments) ? (line as RawLine) : null;
}
