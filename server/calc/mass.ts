/**
 * The mass of an element and the material parts it expands into (decisions §6 "Mass"): `weight` if > 0, else
 * volume × specificWeight for a material; a product is expanded through its children, scaled by the element's volume,
 * count, area or length as its ProductType says. Each part carries the circular figures that apply to it (the
 * product's reuse shares and the child relations' overrides resolved), so circularity.ts and financial.ts only sum.
 * The rules decisions.md leaves open are in README.md ("Mass and product expansion").
 */
import { ElementType, ProductType } from '../../shared/api/enums';
import {
  findMaterial,
  findProduct,
  fraction,
  positive,
  type CalcCatalogue,
  type CalcElement,
  type CalcMaterial,
  type CalcProduct,
} from './inputs';
import { composition, rawOfMaterial, unknownPart, type UnitPart } from './product-composition';

/** Where a part's data comes from: a material, a product without (usable) children, or nothing known. */
export type ContributionSource = 'material' | 'product' | 'unknown';

/**
 * The circular figures of a part as the CI formula reads them (decisions §6), as shares of the part's mass:
 * F_R + F_RR + F_U ≤ 1 and C_R + C_U ≤ 1. Efficiencies stay as given: 0 or null means the default 0.75.
 */
export interface CircularFractions {
  /** F_R. */
  recycledFeedstock: number;
  /** F_RR. */
  rapidRenewablesFeedstock: number;
  /** F_U: reused products and components. */
  reusedFeedstock: number;
  /** C_R. */
  recycledEndOfLife: number;
  /** C_U. */
  reusedEndOfLife: number;
  /** E_F. */
  efficiencyFeedstock: number | null;
  /** E_C. */
  efficiencyEndOfLife: number | null;
}

/** One material part of an element: its mass and what is known about it. */
export interface MaterialContribution {
  source: ContributionSource;
  /** The material (source `material`), else null. */
  materialId: string | null;
  material: CalcMaterial | null;
  /** The innermost product holding the part (or the product itself when it has no children); null for a plain material. */
  productId: string | null;
  /** kg; 0 when it cannot be known. */
  mass: number;
  circular: CircularFractions;
  /** L in years: the innermost product's functionalLifetime, else the material's lifeTime; null → the layer's lifespan. */
  lifetime: number | null;
}

/** What an element expands into. */
export interface ElementExpansion {
  /** kg: the sum of the parts (0 when unknown). */
  mass: number;
  /** The parts, merged where everything but the mass is equal. */
  contributions: MaterialContribution[];
  /**
   * The mapping resolves completely: the catalogue has the item, and a product's children (all levels) exist and
   * form no cycle. An unmapped element never has a known material.
   */
  knownMaterial: boolean;
}

// --- elements ---------------------------------------------------------------------------------------------------------

/** The circular figures of a part as shares of its mass, bounded so the CI formula stays within its range. */
function fractionsOf(part: UnitPart): CircularFractions {
  const keptFeedstock = fraction(part.keptFeedstock);
  const keptEndOfLife = fraction(part.keptEndOfLife);
  const recycledFeedstock = fraction(part.raw.recycledFeedstock);
  const rapidRenewablesFeedstock = Math.min(fraction(part.raw.rapidRenewablesFeedstock), 1 - recycledFeedstock);
  return {
    recycledFeedstock: recycledFeedstock * keptFeedstock,
    rapidRenewablesFeedstock: rapidRenewablesFeedstock * keptFeedstock,
    reusedFeedstock: 1 - keptFeedstock,
    recycledEndOfLife: fraction(part.raw.recycledEndOfLife) * keptEndOfLife,
    reusedEndOfLife: 1 - keptEndOfLife,
    efficiencyFeedstock: part.raw.efficiencyFeedstock,
    efficiencyEndOfLife: part.raw.efficiencyEndOfLife,
  };
}

function contributionOf(part: UnitPart, mass: number): MaterialContribution {
  return {
    source: part.source,
    materialId: part.material?.id ?? null,
    material: part.material,
    productId: part.productId,
    mass,
    circular: fractionsOf(part),
    lifetime: part.productLifetime ?? part.materialLifetime,
  };
}

function expansion(contributions: MaterialContribution[], knownMaterial: boolean): ElementExpansion {
  return { mass: contributions.reduce((sum, part) => sum + part.mass, 0), contributions, knownMaterial };
}

/** Mass that is known without the catalogue (the element's own weight) but belongs to nothing known. */
function unknownExpansion(weight: number | null, productId: string | null = null): ElementExpansion {
  return expansion(weight === null ? [] : [contributionOf(unknownPart(productId), weight)], false);
}

/** How many functional units of a product an element holds, by the product's type; null when that quantity is missing. */
export function productQuantity(element: CalcElement, productType: number): number | null {
  switch (productType) {
    case ProductType.VolumeProduct:
      return positive(element.volume);
    case ProductType.AreaProduct:
      return positive(element.area);
    case ProductType.LengthProduct:
      return positive(element.length);
    case ProductType.QuantityProduct:
      return element.count === null || element.count === undefined ? 1 : positive(element.count);
    default:
      return null;
  }
}

function expandProduct(element: CalcElement, product: CalcProduct, catalogue: CalcCatalogue, weight: number | null): ElementExpansion {
  const { parts, unresolved } = composition(product, catalogue, []);
  const knownMaterial = !unresolved;
  if (weight !== null) {
    // The weighed mass wins; the composition only says how it divides.
    const perUnit = parts.reduce((sum, part) => sum + (part.massPerUnit ?? 0), 0);
    if (perUnit > 0) {
      return expansion(
        parts.map((part) => contributionOf(part, (weight * (part.massPerUnit ?? 0)) / perUnit)),
        knownMaterial,
      );
    }
    const [only] = parts;
    if (parts.length === 1 && only !== undefined) return expansion([contributionOf(only, weight)], knownMaterial);
    return expansion(
      [...parts.map((part) => contributionOf(part, 0)), contributionOf(unknownPart(product.id), weight)],
      knownMaterial,
    );
  }
  const quantity = productQuantity(element, product.type);
  return expansion(
    parts.map((part) =>
      contributionOf(part, quantity === null || part.massPerUnit === null ? 0 : part.massPerUnit * quantity),
    ),
    knownMaterial,
  );
}

/** The material parts an element expands into, with its mass (decisions §6). */
export function expandElement(element: CalcElement, catalogue: CalcCatalogue): ElementExpansion {
  const weight = positive(element.weight);
  const mapping = element.mapping;
  if (mapping === null || mapping === undefined) return unknownExpansion(weight);
  if (mapping.type === ElementType.Material) {
    const material = findMaterial(catalogue, mapping.id);
    if (material === undefined) return unknownExpansion(weight);
    const volume = positive(element.volume);
    const specificWeight = positive(material.specificWeight);
    const mass = weight ?? (volume !== null && specificWeight !== null ? volume * specificWeight : 0);
    const part: UnitPart = {
      source: 'material',
      material,
      productId: null,
      massPerUnit: mass,
      raw: rawOfMaterial(material),
      keptFeedstock: 1,
      keptEndOfLife: 1,
      productLifetime: null,
      materialLifetime: positive(material.lifeTime),
    };
    return expansion([contributionOf(part, mass)], true);
  }
  const isProductMapping = (Object.values(ProductType) as number[]).includes(mapping.type);
  const product = isProductMapping ? findProduct(catalogue, mapping.id) : undefined;
  if (product === undefined) return unknownExpansion(weight, isProductMapping ? mapping.id : null);
  return expandProduct(element, product, catalogue, weight);
}

/** The mass of an element in kg (0 when unknown): `weight` if > 0, else from its mapping. */
export function elementMass(element: CalcElement, catalogue: CalcCatalogue): number {
  return expandElement(element, catalogue).mass;
}
