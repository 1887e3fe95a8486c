/**
 * The import report of a building file (an extension of this server): what counts in the circularity index and what was
 * assumed to get there. Each breakdown covers every element of the file once, so its groups add up to `elementCount`.
 */
import { Type, type Static } from 'typebox';
import { BuildingFileStatusesSchema } from '../enums';
import { Double, Fraction, Int32, Nullable, StringChoice, Uuid } from '../schema-kit';

/** Where an element's mapping came from: its own materialId, a match rule, the keyword table, or nowhere. */
export const MAPPING_SOURCES = ['model', 'rule', 'keyword', 'none'] as const;
/** Where an element's mapping came from. */
export type MappingSource = (typeof MAPPING_SOURCES)[number];

/** Where an element's volume or weight came from: the source file, its geometry, or nowhere. */
export const QUANTITY_SOURCES = ['model', 'geometry', 'none'] as const;
/** Where an element's volume or weight came from. */
export type QuantitySource = (typeof QUANTITY_SOURCES)[number];

/** Why an element's geometry gave no volume: its mesh is not closed, it has none, or it could not be computed. */
export const GEOMETRY_ISSUES = ['open', 'empty', 'failed'] as const;
/** Why an element's geometry gave no volume. */
export type GeometryIssue = (typeof GEOMETRY_ISSUES)[number];

/**
 * Where an element's classification came from: a classification reference of the model (NL-SfB, or another system
 * through a table) or the element's own lookup, the name of its presentation layer, its IFC class, or nowhere.
 */
export const CLASSIFICATION_SOURCES = ['model', 'layer', 'inferred', 'none'] as const;
/** Where an element's classification came from. */
export type ClassificationSource = (typeof CLASSIFICATION_SOURCES)[number];

/**
 * Why an element does not count in the circularity index, in the order they are checked (the first that applies,
 * shared/counting.ts): no mapping; neither a weight nor the quantity its mapping is measured by; no mass (a material
 * without a specific weight, a product whose composition weighs nothing); no building layer; no circular data; and
 * last, an element that would count in a file that does not (inactive, or not Mapped).
 */
export const NOT_COUNTED_REASONS = ['no-material', 'no-quantity', 'no-mass', 'no-building-layer', 'no-circular-data', 'file-not-counted'] as const;
/** Why an element does not count in the circularity index. */
export type NotCountedReason = (typeof NOT_COUNTED_REASONS)[number];

/** A group of elements: how many, their volume and its share of the file's volume. */
function share(description: string) {
  return Type.Object(
    {
      elements: Int32({ minimum: 0 }),
      volume: Double({ minimum: 0, description: 'm³; elements without a volume add nothing.' }),
      volumeShare: Fraction({ description: "The group's volume over the file's; 0 when the file has no volume." }),
    },
    { additionalProperties: false, description },
  );
}

function breakdown<const Keys extends readonly string[]>(keys: Keys, description: string) {
  return Type.Object(Object.fromEntries(keys.map((key) => [key, share(`Elements whose source is '${key}'.`)])) as Record<Keys[number], ReturnType<typeof share>>, {
    additionalProperties: false,
    description,
  });
}

/** A group of the elements that are not mapped, by material name, else by IFC class and type name. */
export const UnmappedMaterialGroup = Type.Object(
  {
    materialName: Nullable(Type.String({ description: 'The material name the elements carry; null: none (or only blanks).' })),
    elementClass: Nullable(Type.String({ description: 'Without a material name: the IFC class of the elements; else null.' })),
    typeName: Nullable(Type.String({ description: 'Without a material name: the type name of the elements; else null.' })),
    elements: Int32({ minimum: 0 }),
    volume: Double({ minimum: 0 }),
  },
  { additionalProperties: false },
);
/** A group of the elements that are not mapped. */
export type UnmappedMaterialGroup = Static<typeof UnmappedMaterialGroup>;

/** A group of the elements without a building layer, by IFC class. */
export const UnlayeredClassGroup = Type.Object(
  {
    elementClass: Nullable(Type.String({ description: 'The IFC class (e.g. IfcWall); null: none.' })),
    elements: Int32({ minimum: 0 }),
    volume: Double({ minimum: 0 }),
  },
  { additionalProperties: false },
);
/** A group of the elements without a building layer. */
export type UnlayeredClassGroup = Static<typeof UnlayeredClassGroup>;

/** What a mapped element is mapped to: `type` an ElementType (10 material, 20–50 a product of that type). */
const MappedItem = Type.Object({ type: Int32(), id: Uuid() }, { additionalProperties: false });

/**
 * The elements of a reason that one fix handles together: unmapped ones by material name (else IFC class and type
 * name), those without a quantity by IFC class and type name, those without a mass or circular data by what they are
 * mapped to, those without a building layer by IFC class; the fields a reason does not group by are null.
 */
export const NotCountedSubgroup = Type.Object(
  {
    materialName: Nullable(Type.String()),
    elementClass: Nullable(Type.String()),
    typeName: Nullable(Type.String()),
    mapping: Nullable(MappedItem),
    elements: Int32({ minimum: 1 }),
    volume: Double({ minimum: 0 }),
  },
  { additionalProperties: false },
);
/** The elements of a reason that one fix handles together. */
export type NotCountedSubgroup = Static<typeof NotCountedSubgroup>;

/** A group of the elements that do not count in the circularity index, by the first reason that applies. */
export const NotCountedGroup = Type.Object(
  {
    reason: StringChoice(NOT_COUNTED_REASONS),
    elements: Int32({ minimum: 1 }),
    volume: Double({ minimum: 0 }),
    withoutVolume: Int32({ minimum: 0, description: 'Elements of the group that have no volume.' }),
    description: Type.String({ description: 'The reason in words.' }),
    groups: Type.Array(NotCountedSubgroup, {
      description: 'The elements by what fixes them together, the largest volume first (then the most elements), at most 100: the rest is in smaller subgroups left out.',
    }),
  },
  { additionalProperties: false },
);
/** A group of the elements that do not count. */
export type NotCountedGroup = Static<typeof NotCountedGroup>;

/**
 * What the last import of an IFC model did to elements of a layered or composite material (server/imports/README.md,
 * "Materials"): each element of two or more layers with a thickness, constituents or listed materials became one
 * element per part. Counts over the file's last import; all 0 for a spreadsheet and for a file imported before parts.
 */
export const ImportPartsFindings = Type.Object(
  {
    elementsSplit: Int32({ minimum: 0, description: 'Elements of the model replaced by their parts.' }),
    partsMade: Int32({ minimum: 0, description: 'The elements those became: one per layer, constituent or listed material.' }),
    elementsWithAssumedShares: Int32({
      minimum: 0,
      description: 'Split elements whose parts share the volume by an assumption: a material list, constituents without fractions (equal shares).',
    }),
    layersLeftOut: Int32({ minimum: 0, description: 'Layers left out of a set of two or more for their thickness: 0, below 0, or none.' }),
    partsWithoutMaterial: Int32({ minimum: 0, description: 'Parts that name no material (a layer without one, such as an air gap).' }),
    elementsWithFractionsNormalised: Int32({
      minimum: 0,
      description: 'Split elements whose constituent fractions did not add up to 1: each was divided by their sum.',
    }),
  },
  {
    additionalProperties: false,
    description:
      'Elements the last import split into one element per layer, constituent or listed material (absent from servers that do not split them).',
  },
);
/** What an import did to elements of a layered or composite material. */
export type ImportPartsFindings = Static<typeof ImportPartsFindings>;

/** The import report of a building file. */
export const BuildingFileImportReport = Type.Object(
  {
    buildingFileId: Uuid(),
    status: BuildingFileStatusesSchema,
    isActive: Type.Boolean(),
    elementCount: Int32({ minimum: 0 }),
    volume: Double({ minimum: 0, description: 'The volume of all elements, m³.' }),
    counted: Type.Object(
      {
        elements: Int32({ minimum: 0 }),
        elementShare: Fraction({ description: "The counted elements over the file's elements; 0 when the file has none." }),
        volume: Double({ minimum: 0, description: 'm³; elements without a volume add nothing.' }),
        volumeShare: Fraction({
          description: "The counted elements' volume over the file's: elements that do not count for want of a volume add nothing to either, so read it with the element share.",
        }),
      },
      {
        additionalProperties: false,
        description: 'Elements that count in the circularity index (mapped, with a mass, a building layer and circular data, in an active Mapped source file).',
      },
    ),
    material: breakdown(MAPPING_SOURCES, 'Mapping: by the element\'s own materialId (model), a match rule, the keyword table, or none.'),
    quantities: breakdown(QUANTITY_SOURCES, 'Volume or weight: from the source file (model), computed from the geometry, or none.'),
    geometryIssues: Type.Object(
      Object.fromEntries(GEOMETRY_ISSUES.map((issue) => [issue, Int32({ minimum: 0 })])) as Record<GeometryIssue, ReturnType<typeof Int32>>,
      { additionalProperties: false, description: 'Elements whose geometry was read for a volume and gave none: an open mesh, no mesh, or a failure.' },
    ),
    classification: breakdown(
      CLASSIFICATION_SOURCES,
      'Building layer: from a classification of the model or the element (model), a presentation layer name, inferred from the IFC class, or none.',
    ),
    unmappedMaterials: Type.Array(UnmappedMaterialGroup, { description: 'Unmapped elements by material name, the largest volume first.' }),
    unlayeredClasses: Type.Array(UnlayeredClassGroup, { description: 'Elements without a building layer by IFC class, the largest volume first.' }),
    notCounted: Type.Array(NotCountedGroup, { description: 'Elements that do not count, by the first reason that applies.' }),
    rejected: Type.Object(
      {
        count: Int32({ minimum: 0 }),
        rows: Type.Array(Type.String(), { description: 'The reason of each row left out, the first 1000.' }),
      },
      { additionalProperties: false, description: 'Rows of the source file the last import left out: no id, a duplicate id, a quantity that is no number.' },
    ),
    summary: Type.String({ description: 'The report in one line, as the status message gives it.' }),
    parts: Type.Optional(ImportPartsFindings),
  },
  { additionalProperties: false },
);
/** The import report of a building file. */
export type BuildingFileImportReport = Static<typeof BuildingFileImportReport>;
