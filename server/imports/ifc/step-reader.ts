/**
 * Raw lines read from the IFC file itself, without web-ifc: step-index.ts finds every entity in one pass, step-line.ts
 * parses a line's arguments when it is asked for, into the same RawLine web-ifc gives. Lines are read from disk in
 * blocks, a few of them kept (file-blocks.ts), so memory follows the index, not the file. Type names and inheritance
 * come from web-ifc's own schema tables (its JavaScript part: no wasm is loaded).
 */
import { openSync } from 'node:fs';
import { UnknownImportFileError } from '../imported-element';
import { FileBlocks } from './file-blocks';
import type { LineSource, RawLine } from './raw';
import { indexStepFile, type StepIndex } from './step-index';
import { parseStepLine, StepSyntaxError, typeCodeOf } from './step-line';
import { WebIfc } from './web-ifc';

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
  private readonly blocks: FileBlocks;

  private constructor(
    private readonly index: StepIndex,
    filePath: string,
    schema: string,
  ) {
    const number = schemaNumber(schema);
    if (number < 0) throw new UnknownImportFileError(`The schema ${schema} is not supported: IFC2X3, IFC4 and IFC4X3 are.`);
    this.subtypes = (WebIfc.InheritanceDef as Record<number, Record<number, number[] | undefined>>)[number] ?? {};
    this.blocks = new FileBlocks(openSync(filePath, 'r'));
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
    this.blocks.close();
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
    const { ids } = this.index;
    const found: number[] = [];
    for (const wantedType of wanted) for (const position of this.index.positionsOfType(wantedType)) found.push(ids[position] as number);
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
    const { bytes, offset } = this.blocks.at(start, length);
    try {
      return parseStepLine(id, index.types[position] as number, bytes, offset, offset + length);
    } catch (error) {
      if (error instanceof StepSyntaxError) throw new UnknownImportFileError(`Line ${index.lines[position]} (#${id}) cannot be read: ${error.message}.`);
      throw error;
    }
  }
}
