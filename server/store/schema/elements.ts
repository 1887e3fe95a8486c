/**
 * The rows of a building file's elements: the elements as imported and refined, those an unfinished import staged, and
 * what a user did that a new version of the source must keep (deleted elements, edited ones the model no longer has).
 */
import type { Generated } from 'kysely';
import type { ClassificationSource, MappingSource } from '../../../shared/api';
import type { ImportedElement, PartKind } from '../../imports/imported-element';
import type { Flag } from './flag';

/** The importer's element as both element tables hold it: of its file, with its lookups as JSON text. */
type StoredImportedElement = Omit<ImportedElement, 'phaseLookup' | 'classificationLookup' | 'classificationHints' | 'materialHints' | 'part'> & {
  buildingFileId: string;
  phaseLookup: string;
  classificationLookup: string;
} & StoredElementPart;

/** `ImportedElement.part` in three columns, all null for an element that is no part of a split one. */
export interface StoredElementPart {
  /** The GlobalId of the element it is a part of. */
  partOf: string | null;
  partKind: PartKind | null;
  /** 1 when its share of the element was assumed. */
  partShareAssumed: Flag | null;
}

/** What refinement derives for an element (decisions §9): its mapping, phase, brand layer and classification. */
export interface RefinedElementColumns {
  mappingType: number | null;
  mappingId: string | null;
  phaseMatchId: string | null;
  phaseMatchName: string | null;
  brandLayerMatchId: string | null;
  brandLayerMatchName: string | null;
  classificationMatchId: string | null;
  classificationMatchName: string | null;
  classificationMatchCode: string | null;
  /** What refinement classified the element by; null when unclassified. */
  classificationSource: Exclude<ClassificationSource, 'none'> | null;
  /** What refinement mapped the element by; null when unmapped. */
  mappingSource: Exclude<MappingSource, 'none'> | null;
}

/** An element of a building file; `id` is the element's own mark, unique within its file. */
export interface ElementsTable extends StoredImportedElement, RefinedElementColumns {
  materialId: string | null;
  /** 1 when the element holds something a user set (`userFields`, or the element itself): a new version looks at it. */
  userEdited: Generated<Flag>;
  /**
   * The fields a user set through the API (`UserFields` of services/user-fields.ts as JSON), each with the model's value
   * when they set it; null when none. A new version of the source keeps them (decisions §3).
   */
  userFields: string | null;
  /** 1 when a user created the element through the API: a new version of the source that lacks it keeps it. */
  userCreated: Generated<Flag>;
  /** The importer's classification hints (`ClassificationHint[]` as JSON). */
  classificationHints: Generated<string>;
  /** The importer's material hints (`string[]` as JSON). */
  materialHints: Generated<string>;
}

/**
 * An element read by an import that has not finished yet; swapped into `elements` when the import completes. The
 * importer's element with its lookups and hints as JSON text, refined as it was read.
 */
export type StagedElementsTable = StoredImportedElement &
  RefinedElementColumns & {
    classificationHints: string;
    materialHints: string;
    /** The catalogue item the source named by id (a sheet's Material/Product id); the swap copies it into `elements`. */
    materialId: string | null;
  };

/** A model element a user deleted: it stays deleted on each new version of the source (decisions §3). */
export interface DeletedElementsTable {
  buildingFileId: string;
  id: string;
}

/** An element a user had edited that the last new version of its file's source no longer has (decisions §3). */
export interface RemovedEditedElementsTable {
  buildingFileId: string;
  id: string;
  name: string | null;
}
