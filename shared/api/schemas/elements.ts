/** Building file element schemas (spec §2.8, decisions §9 and §12). */
import { Type, type Static } from 'typebox';
import { ElementTypeSchema } from '../enums';
import { Double, Maybe, Nullable, Uuid } from '../schema-kit';

/** What an element is mapped to. */
export const Mapping = Type.Object(
  {
    type: ElementTypeSchema,
    id: Uuid({ description: 'The material or product id.' }),
  },
  { additionalProperties: false },
);
/** What an element is mapped to. */
export type Mapping = Static<typeof Mapping>;

/** The building process phase an element matched (a Phase). */
export const PhaseMatch = Type.Object(
  {
    name: Type.String(),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** The phase an element matched. */
export type PhaseMatch = Static<typeof PhaseMatch>;

/** The brand layer (building level) an element matched (a BuildingLevel). */
export const BrandLayerMatch = Type.Object(
  {
    name: Type.String(),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** The brand layer an element matched. */
export type BrandLayerMatch = Static<typeof BrandLayerMatch>;

/** The classification code an element matched. */
export const ClassificationMatch = Type.Object(
  {
    name: Type.String(),
    code: Type.String({ description: 'E.g. NL-SfB `21.24`.' }),
    id: Uuid(),
  },
  { additionalProperties: false },
);
/** The classification an element matched. */
export type ClassificationMatch = Static<typeof ClassificationMatch>;

/** An element as answered; what is not known (yet) is null. */
export const BuildingFileElementResponse = Type.Object(
  {
    id: Type.String({ description: 'The element identifier (e.g. an IFC GlobalId or a mark), not a uuid.' }),
    name: Nullable(Type.String()),
    buildingFileId: Uuid(),
    materialName: Nullable(Type.String()),
    typeName: Nullable(Type.String()),
    elementClass: Nullable(Type.String({ description: 'IFC class, e.g. IfcWall.' })),
    volume: Nullable(Double()),
    area: Nullable(Double()),
    height: Nullable(Double()),
    width: Nullable(Double()),
    length: Nullable(Double()),
    weight: Nullable(Double()),
    mapping: Nullable(Mapping),
    phaseMatch: Nullable(PhaseMatch),
    brandLayerMatch: Nullable(BrandLayerMatch),
    classificationMatch: Nullable(ClassificationMatch),
    phaseLookup: Nullable(Type.Array(Type.String(), { description: 'Values used to match a phase.' })),
    classificationLookup: Nullable(Type.Array(Type.String(), { description: 'Values used to match a classification.' })),
    floor: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
/** An element as answered. */
export type BuildingFileElementResponse = Static<typeof BuildingFileElementResponse>;

/** The element identifier a request must carry: the element's key within its file. */
function elementId() {
  return Type.String({ minLength: 1, description: 'The mark: the element identifier within its file.' });
}

/** The quantities and descriptions both element request versions share. */
function elementQuantities() {
  return {
    volume: Maybe(Double()),
    area: Maybe(Double()),
    height: Maybe(Double()),
    width: Maybe(Double()),
    length: Maybe(Double()),
    weight: Maybe(Double()),
  };
}

/** An element to create or replace (only while its file is Importing, decisions §3). Only `id` is required. */
export const BuildingFileElementRequest = Type.Object({
  id: elementId(),
  name: Maybe(Type.String()),
  materialName: Maybe(Type.String()),
  materialId: Maybe(Uuid({ description: 'A material to map to directly, skipping the name matching.' })),
  typeName: Maybe(Type.String()),
  elementClass: Maybe(Type.String({ description: 'IFC class, e.g. IfcWall.' })),
  ...elementQuantities(),
  phaseLookup: Maybe(Type.String({ description: 'A single value to match a phase with.' })),
  classificationLookup: Maybe(Type.String({ description: 'A single NL-SfB code to match a classification with.' })),
  floor: Maybe(Type.String()),
});
/** An element to create or replace. */
export type BuildingFileElementRequest = Static<typeof BuildingFileElementRequest>;

/**
 * An element to create or replace through v2.1: `phase` and `classification` instead of `name`, `materialId`,
 * `phaseLookup` and `classificationLookup`; v2.3 reads them back as `phaseLookup` / `classificationLookup` (decisions §12).
 */
export const BuildingFileElementRequestV21 = Type.Object({
  id: elementId(),
  materialName: Maybe(Type.String()),
  typeName: Maybe(Type.String()),
  elementClass: Maybe(Type.String({ description: 'IFC class, e.g. IfcWall.' })),
  ...elementQuantities(),
  phase: Maybe(Type.String({ description: 'A single value to match a phase with.' })),
  classification: Maybe(Type.String({ description: 'A single NL-SfB code to match a classification with.' })),
  floor: Maybe(Type.String()),
});
/** An element to create or replace through v2.1. */
export type BuildingFileElementRequestV21 = Static<typeof BuildingFileElementRequestV21>;
