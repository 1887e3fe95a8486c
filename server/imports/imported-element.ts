/**
 * One element as an importer (IFC or spreadsheet) reads it from a source file, before refinement. Quantities are SI:
 * metres, square metres, cubic metres, kilograms. Lookups are the raw values refinement matches phases and
 * classifications with.
 */
export interface ImportedElement {
  /** The element's identifier within its file: the IFC GlobalId, or the sheet's Id/Mark column. */
  id: string;
  name: string | null;
  materialName: string | null;
  typeName: string | null;
  /** The IFC class (e.g. IfcWall), or what a sheet says. */
  elementClass: string | null;
  volume: number | null;
  area: number | null;
  height: number | null;
  width: number | null;
  length: number | null;
  weight: number | null;
  phaseLookup: string[];
  classificationLookup: string[];
  floor: string | null;
}

/** A source file that is not an importable model or sheet at all (→ UnknownImportFile, 99), with a reason to show. */
export class UnknownImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownImportFileError';
  }
}

/** What an importer hands over while it reads: batches of elements in file order, and its progress. */
export interface ImportSink {
  /** Receives the next batch; the importer waits for it, so a slow database slows the reader (backpressure). */
  elements(batch: ImportedElement[]): Promise<void>;
  /** Elements read so far and the total once known (0 while unknown). */
  progress(processed: number, total: number): void;
}

/** How an import ended: elements delivered and the problems that were skipped, each naming where (row, element). */
export interface ImportOutcome {
  imported: number;
  rejected: string[];
}
