import type { ClassificationSource, GeometryIssue, QuantitySource } from '../../shared/api';

/**
 * An NL-SfB code the importer derived from what the model says besides its lookups: a classification reference of
 * another system through a table (`model`), the name of the element's presentation layer, or its IFC class. Refinement
 * takes the first one that the code list knows, after the lookups (see server/refine/README.md).
 */
export interface ClassificationHint {
  source: Exclude<ClassificationSource, 'none'>;
  code: string;
}

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
  /** In the order refinement tries them; empty when the source says nothing more than its lookups (spreadsheets). */
  classificationHints: ClassificationHint[];
  /**
   * What the source's material properties say the element is made of (Revit's "Materials and Finishes", ArchiCAD's
   * surface), besides `materialName`: refinement's keyword table reads them when the names match nothing.
   */
  materialHints: string[];
  /** Where the volume or weight came from: the file, or the element's geometry; null when there is neither. */
  quantitySource: Exclude<QuantitySource, 'none'> | null;
  /** Why the geometry gave no volume, when it was read for one. */
  geometryIssue: GeometryIssue | null;
  /**
   * The material or product the source names by id (a sheet's Material/Product id column), which maps the element as
   * an element's own `materialId` does (decisions §9): ignored when it names nothing the building's account can read.
   * IFC models name none.
   */
  materialId?: string | null;
}

/** `model` when the source gives the element a volume or a weight (the mass needs one of them), else null. */
export function quantitySourceOf(volume: number | null, weight: number | null): 'model' | null {
  return (volume ?? 0) > 0 || (weight ?? 0) > 0 ? 'model' : null;
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
