import type { ClassificationSource, GeometryIssue, ImportPartsFindings, QuantitySource } from '../../shared/api';

/**
 * An NL-SfB code the importer derived from what the model says besides its lookups: a classification reference of
 * another system through a table (`model`), the name of the element's presentation layer, or its IFC class. Refinement
 * takes the first one that the code list knows, after the lookups (see server/refine/README.md).
 */
export interface ClassificationHint {
  source: Exclude<ClassificationSource, 'none'>;
  code: string;
}

/** What a part of a split element is one of: a layer of a layer set, a constituent, a material of a material list. */
export const PART_KINDS = ['layer', 'constituent', 'list'] as const;
/** What a part of a split element is one of. */
export type PartKind = (typeof PART_KINDS)[number];

/**
 * An element made of one part of a model's element whose material is a layer set, constituent set or material list
 * (server/imports/README.md, "Materials"): its id is the element's GlobalId with `-L<n>` (a layer) or `-C<n>`.
 */
export interface ElementPart {
  /** The GlobalId of the element it is a part of. */
  of: string;
  kind: PartKind;
  /** Its share of the element's volume was assumed (a material list, a constituent without a fraction). */
  shareAssumed: boolean;
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
  /** What it is a part of, when the importer split a layered or composite element; null otherwise (spreadsheets). */
  part: ElementPart | null;
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

/**
 * A file past a limit of what an import may use (memory, bytes inflated from a workbook, disk, time): it ends in Error
 * with the limit named, at once, since retrying cannot help.
 */
export class ImportTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportTooLargeError';
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
  /** What splitting layered and composite elements did (IFC); absent where an importer splits nothing (spreadsheets). */
  parts?: ImportPartsFindings;
}

/** Nothing split. */
export const NO_PARTS: Readonly<ImportPartsFindings> = {
  elementsSplit: 0,
  partsMade: 0,
  elementsWithAssumedShares: 0,
  layersLeftOut: 0,
  partsWithoutMaterial: 0,
  elementsWithFractionsNormalised: 0,
};
