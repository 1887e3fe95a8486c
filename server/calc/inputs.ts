/**
 * What the figure functions of `server/calc` read: plain data the process job fills from its database (element rows,
 * the materials and products their mappings reach, the building). Nothing here does I/O. Field names are the wire and
 * column names, so a row or a parsed JSON block can be passed as it is; every optional field may be absent or null.
 */
import type {
  MaterialCircularInformation,
  MaterialFinancialInformation,
  ProductChildCircularInformation,
  ProductCircularInformation,
} from '../../shared/api';
import { BuildingLevel, type BuildingLevelName } from '../../shared/api/enums';

/** What an element is mapped to: `type` an ElementType (10 material, 20–50 product kinds), `id` the catalogue item. */
export interface CalcMapping {
  type: number;
  id: string;
}

/**
 * One element of an active Mapped source file (the caller chooses which files count, decisions §3 and §6). Quantities
 * are SI: m³, m², m, kg.
 */
export interface CalcElement {
  id: string;
  volume?: number | null;
  area?: number | null;
  length?: number | null;
  weight?: number | null;
  /** Pieces, for an element mapped to a QuantityProduct; absent or null: one piece (an element is one real-world thing). */
  count?: number | null;
  /** The material name read from the source file (validation: "material specified"). */
  materialName?: string | null;
  /** The material the client named directly on create (validation: "material specified"). */
  materialId?: string | null;
  /** The matched classification (`classificationMatch.id`); null when unclassified. */
  classificationId?: string | null;
  /** The matched brand layer (`brandLayerMatch.id`, a BuildingLevel id); null or the Unknown id when unknown. */
  brandLayerId?: string | null;
  mapping?: CalcMapping | null;
}

/** A dated price of a material (a MaterialFinancialValue row). */
export interface CalcFinancialValue {
  value: number;
  /** ISO 8601; null sorts before every dated value. */
  valueDate?: string | null;
  /** A PriceUnit: 0 mt, 1 kg, 2 m3, 3 lb, 4 troy ounce, 5 index. */
  unit: number;
  /** Currency code; absent or null means EUR. */
  currency?: string | null;
}

/** The financial properties of a material that the figures use. */
export type CalcMaterialFinancial = Partial<
  Pick<MaterialFinancialInformation, 'transportCosts' | 'handlingFeedstockEuroKg' | 'handlingFeedstockPercentage'>
>;

/** A material of the catalogue. */
export interface CalcMaterial {
  id: string;
  /** Material family (stone, metal, wood, …); null → `unknown`. */
  elementFamily?: string | null;
  /** kg/m³. */
  specificWeight?: number | null;
  /** Years. */
  lifeTime?: number | null;
  circular?: Partial<MaterialCircularInformation> | null;
  financial?: CalcMaterialFinancial | null;
  financialValues?: readonly CalcFinancialValue[] | null;
}

/** A dimension of a product (`dimensionType` an ElementDimensionType). */
export interface CalcProductDimension {
  dimensionValue: number;
  dimensionType: number;
}

/**
 * A child relation of a product. `value` is per functional unit of the parent (one m³, piece, m² or m by the parent's
 * ProductType, or per its default dimension, see mass.ts): kilograms for a material child, functional units of the
 * child for a product child.
 */
export interface CalcProductChild {
  childId: string;
  value?: number | null;
  circular?: Partial<ProductChildCircularInformation> | null;
}

/** A product of the catalogue. */
export interface CalcProduct {
  id: string;
  /** A ProductType: 20 volume, 30 quantity, 40 area, 50 length. */
  type: number;
  circular?: Partial<ProductCircularInformation> | null;
  defaultDimensions?: readonly CalcProductDimension[] | null;
  children?: readonly CalcProductChild[] | null;
}

/** The materials and products the elements' mappings (and the products' children) can reach, by id. */
export interface CalcCatalogue {
  materials: ReadonlyMap<string, CalcMaterial>;
  products: ReadonlyMap<string, CalcProduct>;
}

/** The building fields the figures use (a buildings row is assignable as it is). Years and m². */
export interface CalcBuilding {
  grossSurfaceArea?: number | null;
  expectedLifespan?: number | null;
  expectedLifespanStructure?: number | null;
  expectedLifespanSkin?: number | null;
  expectedLifespanServices?: number | null;
  expectedLifespanSpacePlan?: number | null;
  expectedLifespanStuff?: number | null;
}

/** A catalogue from lists; ids are matched case-insensitively. */
export function createCatalogue(materials: Iterable<CalcMaterial> = [], products: Iterable<CalcProduct> = []): CalcCatalogue {
  return {
    materials: new Map([...materials].map((material) => [material.id.toLowerCase(), material])),
    products: new Map([...products].map((product) => [product.id.toLowerCase(), product])),
  };
}

/** The material with this id, if the catalogue has it. */
export function findMaterial(catalogue: CalcCatalogue, id: string): CalcMaterial | undefined {
  return catalogue.materials.get(id) ?? catalogue.materials.get(id.toLowerCase());
}

/** The product with this id, if the catalogue has it. */
export function findProduct(catalogue: CalcCatalogue, id: string): CalcProduct | undefined {
  return catalogue.products.get(id) ?? catalogue.products.get(id.toLowerCase());
}

// --- numbers ----------------------------------------------------------------------------------------------------------

/** The smallest normal double: below it a product of a quantity and a figure underflows to 0. */
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/**
 * `value` when it is a finite number > 0, else null (a quantity, lifespan or weight that is "present"). Subnormal
 * values count as absent: no real quantity is that small, and weighted sums of them underflow to 0.
 */
export function positive(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= SMALLEST_NORMAL ? value : null;
}

/** `value` when it is a finite number, else null. */
export function finite(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** `value` clamped to 0..1; missing or not finite → 0. */
export function fraction(value: number | null | undefined): number {
  const number = finite(value);
  if (number === null || number <= 0) return 0;
  return number >= 1 ? 1 : number;
}

// --- building levels ---------------------------------------------------------------------------------------------------

/** A brand layer with an industry-average lifespan: every building level but Unknown. */
export type KnownLayer = Exclude<BuildingLevelName, 'Unknown'>;

/** The six known layers, in the order of BuildingLevel. */
export const KNOWN_LAYERS: readonly KnownLayer[] = ['Site', 'Structure', 'Skin', 'Services', 'SpacePlan', 'Stuff'];

/** All seven building levels, in the order `ncwValuePerBuildingLevel` lists them. */
export const BUILDING_LEVELS: readonly BuildingLevelName[] = [...KNOWN_LAYERS, 'Unknown'];

/** L_av: the industry-average functional lifespan of each layer in years (decisions §6, after Brand). */
export const INDUSTRY_AVERAGE_LIFESPAN: Readonly<Record<KnownLayer, number>> = {
  Site: 500,
  Structure: 100,
  Skin: 20,
  Services: 15,
  SpacePlan: 10,
  Stuff: 5,
};

const LEVEL_BY_ID: ReadonlyMap<string, BuildingLevelName> = new Map(
  BUILDING_LEVELS.map((name) => [BuildingLevel[name].id, name] as const),
);

/** The building level of a `brandLayerMatch.id`: Unknown for null, the Unknown id and ids that are no level. */
export function layerOf(brandLayerId: string | null | undefined): BuildingLevelName {
  if (brandLayerId === null || brandLayerId === undefined) return 'Unknown';
  return LEVEL_BY_ID.get(brandLayerId) ?? LEVEL_BY_ID.get(brandLayerId.toLowerCase()) ?? 'Unknown';
}

/** Whether a level is one of the six known layers. */
export function isKnownLayer(level: BuildingLevelName): level is KnownLayer {
  return level !== 'Unknown';
}

/**
 * The building's own expected lifespan of a layer (`expectedLifespan<Layer>`), when it is > 0. Site has no such field;
 * Unknown takes the whole building's `expectedLifespan`.
 */
export function buildingLayerLifespan(building: CalcBuilding, level: BuildingLevelName): number | null {
  switch (level) {
    case 'Site':
      return null;
    case 'Structure':
      return positive(building.expectedLifespanStructure);
    case 'Skin':
      return positive(building.expectedLifespanSkin);
    case 'Services':
      return positive(building.expectedLifespanServices);
    case 'SpacePlan':
      return positive(building.expectedLifespanSpacePlan);
    case 'Stuff':
      return positive(building.expectedLifespanStuff);
    case 'Unknown':
      return positive(building.expectedLifespan);
  }
}
