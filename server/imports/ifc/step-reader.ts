/**
 * Raw lines read from the IFC file itself, without web-ifc: step-index.ts finds every entity in one pass, step-line.ts
 * parses a line's arguments when it is asked for, into the same RawLine web-ifc gives. Lines are read from disk in
 * blocks (one block is kept: the extraction reads a batch's lines in file order), so memory follows the index, not
 * the file. Type names and inheritance come from web-ifc's own schema tables (its JavaScript part: no wasm is loaded).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { UnknownImportFileError } from '../imported-element';
import type { LineSource, RawLine } from './raw';
import { indexStepFile, type StepIndex } from './step-index';
import { parseStepLine, StepSyntaxError, typeCodeOf } from './step-line';
import { WebIfc } from './web-ifc';

const BLOCK_BYTES = 1024 * 1024;
/** What web-ifc's GetNameFromTypeCode answers for a code it does not know. */
const UNKNOWN_TYPE_NAME = '<web-ifc-type-unknown>';

/** Entity and type names of every schema web-ifc knows, by code. */
let namesByCode: Map<number, string> | undefined;

function typeNames(): Map<number, string> {
  if (namesByCode === undefined) {
    namesByCode = new Map();
    for (const schema of [WebIfc.IFC2X3, WebIfc.IFC4, WebIfc.IFC4X3]) {
      for (const name of Object.keys(schema)) namesByCode.set(typeCodeOf(name), name);
    }
  }
  return namesByCode;
}

/** web-ifc's number of a schema (the index of its SchemaNames, InheritanceDef …), or -1. */
function schemaNumber(schema: string): number {
  return WebIfc.SchemaNames.findIndex((names) => names !== undefined && names.includes(schema));
}

export class StepLineReader implements LineSource {
  private readonly prefetched = new Map<number, RawLine | null>();
  private readonly subtypes: Record<number, number[] | undefined>;
  private blockBuffer = Buffer.allocUnsafe(BLOCK_BYTES);
  private block = Buffer.alloc(0);
  private blockOffset = 0;
  private descriptor: number | null;

  private constructor(
    private readonly index: StepIndex,
    filePath: string,
    schema: string,
  ) {
    const number = schemaNumber(schema);
    if (number < 0) throw new UnknownImportFileError(`The schema ${schema} is not supported: IFC2X3, IFC4 and IFC4X3 are.`);
    this.subtypes = (WebIfc.InheritanceDef as Record<number, Record<number, number[] | undefined>>)[number] ?? {};
    this.descriptor = openSync(filePath, 'r');
  }

  /** Indexes the file (schema: its FILE_SCHEMA, as step-file.ts reads it). */
  static open(filePath: string, schema: string): StepLineReader {
    return new StepLineReader(indexStepFile(filePath), filePath, schema);
  }

  /** Entities in the file. */
  get size(): number {
    return this.index.count;
  }

  close(): void {
    if (this.descriptor !== null) closeSync(this.descriptor);
    this.descriptor = null;
    this.block = Buffer.alloc(0);
  }

  line(id: number): RawLine | null {
    const cached = this.prefetched.get(id);
    if (cached !== undefined) return cached;
    return this.read(this.index.positionOf(id));
  }

  prefetch(ids: Iterable<number>): void {
    const positions: number[] = [];
    for (const id of ids) {
      if (this.prefetched.has(id)) continue;
      const position = this.index.positionOf(id);
      if (position < 0) this.prefetched.set(id, null);
      else positions.push(position);
    }
    // In file order: the block read for one line holds the next ones.
    positions.sort((a, b) => a - b);
    for (const position of positions) this.prefetched.set(this.index.ids[position] as number, this.read(position));
  }

  each(ids: readonly number[], visit: (line: RawLine) => void): void {
    for (const id of ids) {
      const line = this.read(this.index.positionOf(id));
      if (line !== null) visit(line);
    }
  }

  clearPrefetched(): void {
    this.prefetched.clear();
  }

  idsOfType(type: number, inherited = false): number[] {
    const wanted = new Set([type, ...(inherited ? (this.subtypes[type] ?? []) : [])]);
    const { count, types, ids } = this.index;
    const found: number[] = [];
    for (let position = 0; position < count; position++) if (wanted.has(types[position] as number)) found.push(ids[position] as number);
    return found.sort((a, b) => a - b);
  }

  typeName(type: number): string {
    return typeNames().get(type) ?? UNKNOWN_TYPE_NAME;
  }

  /** The line at this position of the index, parsed; null for none. */
  private read(position: number): RawLine | null {
    if (position < 0) return null;
    const { index } = this;
    const start = index.starts[position] as number;
    const length = index.lengths[position] as number;
    const id = index.ids[position] as number;
    const bytes = this.bytesAt(start, length);
    try {
      return parseStepLine(id, index.types[position] as number, bytes, 0, length);
    } catch (error) {
      if (error instanceof StepSyntaxError) throw new UnknownImportFileError(`Line ${index.lines[position]} (#${id}) cannot be read: ${error.message}.`);
      throw error;
    }
  }

  /** The file's bytes [start, start + length), from the block in memory or a new block read from there. */
  private bytesAt(start: number, length: number): Buffer {
    if (start < this.blockOffset || start + length > this.blockOffset + this.block.length) {
      if (this.descriptor === null) throw new Error('The STEP reader is closed.');
      // One buffer, reused: a line's bytes are parsed (and its strings copied out) before the next block is read.
      if (this.blockBuffer.length < length) this.blockBuffer = Buffer.allocUnsafe(length);
      const read = readSync(this.descriptor, this.blockBuffer, 0, this.blockBuffer.length, start);
      this.block = this.blockBuffer.subarray(0, read);
      this.blockOffset = start;
      if (read < length) throw new UnknownImportFileError('The file changed while it was read.');
    }
    return this.block.subarray(start - this.blockOffset, start - this.blockOffset + length);
  }
}
