/**
 * The mass of an element and the material parts it expands into (decisions §6 "Mass"): `weight` if > 0, else
 * volume × specificWeight for a material; a product is expanded through its children, scaled by the element's volume,
 * count, area or length as its ProductType says. Each part carries the circular figures that apply to it (the
 * product's reuse shares and the child relations' overrides resolved), so circularity.ts and financial.ts only sum.
 * The rules decisions.md leaves open are in README.md ("Mass and product expansion").
 */
import { ElementDimensionType, ElementType, ProductType } from '../../shared/api/enums';
import {
  findMaterial,
  findProduct,
  finite,
  fraction,
  positive,
  type CalcCatalogue,
  type CalcElement,
  type CalcMaterial,
  type CalcProduct,
  type CalcProductChild,
} from './inputs';

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

/** Deeper product nesting than this is treated like a cycle (unknown material). */
export const MAX_PRODUCT_DEPTH = 32;

// --- product composition (per functional unit, cached per catalogue) ---------------------------------------------------

/** Circular figures of a part before the product shares are applied; null = not known here. */
interface RawCircular {
  recycledFeedstock: number | null;
  rapidRenewablesFeedstock: number | null;
  recycledEndOfLife: number | null;
  efficiencyFeedstock: number | null;
  efficiencyEndOfLife: number | null;
}

/** A part of one functional unit of a product. */
interface UnitPart {
  source: ContributionSource;
  material: CalcMaterial | null;
  productId: string | null;
  /** kg per functional unit; null when the amount cannot be known. */
  massPerUnit: number | null;
  raw: RawCircular;
  /** Π(1 − productReusedPercentageFeedstock) of the products on the way up: the share not reused. */
  keptFeedstock: number;
  /** Π(1 − productReusedPercentageEndOfLife) of the products on the way up. */
  keptEndOfLife: number;
  productLifetime: number | null;
  materialLifetime: number | null;
}

interface Composition {
  parts: UnitPart[];
  /** A child is missing or a cycle was cut somewhere below. */
  unresolved: boolean;
  /** A cycle (or the depth limit) was met: the result depends on the path and is not cached. */
  cyclic: boolean;
}

const compositionCaches = new WeakMap<CalcCatalogue, Map<string, Composition>>();

function rawOfMaterial(material: CalcMaterial): RawCircular {
  const circular = material.circular ?? {};
  return {
    recycledFeedstock: finite(circular.recycledPercentageFeedstock),
    rapidRenewablesFeedstock: finite(circular.rapidRenewablesPercentageFeedstock),
    recycledEndOfLife: finite(circular.recycledPercentageEndOfLife),
    efficiencyFeedstock: finite(circular.efficiencyPercentageRecyclingFeedstock),
    efficiencyEndOfLife: finite(circular.efficiencyPercentageRecyclingEndOfLife),
  };
}

/** `productShare / kept`: a product-level share (of the whole product) back to a share of its non-reused mass. */
function unshare(productShare: number | null | undefined, kept: number): number | null {
  const share = finite(productShare);
  return share === null || kept <= 0 ? null : share / kept;
}

/** A product's own figures, for a product whose composition is not given. */
function rawOfProduct(product: CalcProduct, keptFeedstock: number, keptEndOfLife: number): RawCircular {
  const circular = product.circular ?? {};
  return {
    recycledFeedstock: finite(circular.recycledPercentageFeedstock) ?? unshare(circular.productRecycledPercentageFeedstock, keptFeedstock),
    rapidRenewablesFeedstock:
      finite(circular.rapidRenewablesPercentageFeedstock) ??
      unshare(circular.productRapidRenewablesPercentageFeedstock, keptFeedstock),
    recycledEndOfLife:
      finite(circular.recycledPercentageEndOfLife) ?? unshare(circular.productRecycledPercentageEndOfLife, keptEndOfLife),
    efficiencyFeedstock: finite(circular.efficiencyPercentageRecyclingFeedstock),
    efficiencyEndOfLife: finite(circular.efficiencyPercentageRecyclingEndOfLife),
  };
}

const NO_RAW: RawCircular = {
  recycledFeedstock: null,
  rapidRenewablesFeedstock: null,
  recycledEndOfLife: null,
  efficiencyFeedstock: null,
  efficiencyEndOfLife: null,
};

function unknownPart(productId: string | null): UnitPart {
  return {
    source: 'unknown',
    material: null,
    productId,
    massPerUnit: null,
    raw: NO_RAW,
    keptFeedstock: 1,
    keptEndOfLife: 1,
    productLifetime: null,
    materialLifetime: null,
  };
}

/** The dimension type a product's children values refer to, by its ProductType (none for a quantity product). */
function scalingDimensionType(productType: number): number | null {
  switch (productType) {
    case ProductType.VolumeProduct:
      return ElementDimensionType.Volume;
    case ProductType.AreaProduct:
      return ElementDimensionType.Area;
    case ProductType.LengthProduct:
      return ElementDimensionType.Length;
    default:
      return null;
  }
}

/**
 * The amount of the product its children values are given for: its default dimension of its own measure (volume,
 * area, length) when it has one > 0, else one unit.
 */
function childValueBasis(product: CalcProduct): number {
  const dimensionType = scalingDimensionType(product.type);
  if (dimensionType === null) return 1;
  const dimension = (product.defaultDimensions ?? []).find(
    (candidate) => candidate.dimensionType === dimensionType && positive(candidate.dimensionValue) !== null,
  );
  return dimension?.dimensionValue ?? 1;
}

/** The relation's own figures replace the child's, group by group, where the relation does not inherit them. */
function applyRelation(raw: RawCircular, relation: CalcProductChild['circular']): RawCircular {
  if (relation === null || relation === undefined) return raw;
  const result = { ...raw };
  // An absent inherit flag is false (the API's rule); a null figure on a non-inheriting relation falls back to the child.
  if (relation.inheritFeedstockPercentages !== true) {
    result.recycledFeedstock = finite(relation.recycledPercentageFeedstock) ?? result.recycledFeedstock;
    result.rapidRenewablesFeedstock = finite(relation.rapidRenewablesPercentageFeedstock) ?? result.rapidRenewablesFeedstock;
  }
  if (relation.inheritEndOfLifePercentages !== true) {
    result.recycledEndOfLife = finite(relation.recycledPercentageEndOfLife) ?? result.recycledEndOfLife;
  }
  if (relation.inheritEfficiencyPercentages !== true) {
    result.efficiencyFeedstock = finite(relation.efficiencyPercentageRecyclingFeedstock) ?? result.efficiencyFeedstock;
    result.efficiencyEndOfLife = finite(relation.efficiencyPercentageRecyclingEndOfLife) ?? result.efficiencyEndOfLife;
  }
  return result;
}

function partKey(part: UnitPart): string {
  const raw = part.raw;
  return [
    part.source,
    part.material?.id ?? '',
    part.productId ?? '',
    part.massPerUnit === null ? 'null' : 'known',
    raw.recycledFeedstock,
    raw.rapidRenewablesFeedstock,
    raw.recycledEndOfLife,
    raw.efficiencyFeedstock,
    raw.efficiencyEndOfLife,
    part.keptFeedstock,
    part.keptEndOfLife,
    part.productLifetime,
    part.materialLifetime,
  ].join('|');
}

/** Parts equal in everything but their mass become one (keeps shared sub-products from multiplying the list). */
function mergeParts(parts: UnitPart[]): UnitPart[] {
  const merged = new Map<string, UnitPart>();
  for (const part of parts) {
    const key = partKey(part);
    const existing = merged.get(key);
    if (existing === undefined) merged.set(key, { ...part });
    else if (existing.massPerUnit !== null && part.massPerUnit !== null) existing.massPerUnit += part.massPerUnit;
  }
  return [...merged.values()];
}

function composition(product: CalcProduct, catalogue: CalcCatalogue, path: readonly string[]): Composition {
  let cache = compositionCaches.get(catalogue);
  if (cache === undefined) {
    cache = new Map();
    compositionCaches.set(catalogue, cache);
  }
  const cached = cache.get(product.id);
  if (cached !== undefined) return cached;
  if (path.includes(product.id) || path.length >= MAX_PRODUCT_DEPTH) {
    return { parts: [unknownPart(product.id)], unresolved: true, cyclic: true };
  }

  const circular = product.circular ?? {};
  const keptFeedstock = 1 - fraction(circular.productReusedPercentageFeedstock);
  const keptEndOfLife = 1 - fraction(circular.productReusedPercentageEndOfLife);
  const lifetime = positive(circular.functionalLifetime);
  const children = product.children ?? [];
  let parts: UnitPart[] = [];
  let unresolved = false;
  let cyclic = false;

  if (children.length === 0) {
    parts.push({
      source: 'product',
      material: null,
      productId: product.id,
      massPerUnit: null,
      raw: rawOfProduct(product, keptFeedstock, keptEndOfLife),
      keptFeedstock,
      keptEndOfLife,
      productLifetime: lifetime,
      materialLifetime: null,
    });
  } else {
    const basis = childValueBasis(product);
    const innerPath = [...path, product.id];
    for (const child of children) {
      const value = finite(child.value);
      // A missing or negative amount is unknown, not a credit.
      const amount = value === null || value < 0 ? null : value / basis;
      const material = findMaterial(catalogue, child.childId);
      let childParts: UnitPart[];
      if (material !== undefined) {
        childParts = [
          {
            source: 'material',
            material,
            productId: product.id,
            massPerUnit: amount,
            raw: rawOfMaterial(material),
            keptFeedstock: 1,
            keptEndOfLife: 1,
            productLifetime: null,
            materialLifetime: positive(material.lifeTime),
          },
        ];
      } else {
        const childProduct = findProduct(catalogue, child.childId);
        if (childProduct === undefined) {
          unresolved = true;
          childParts = [unknownPart(product.id)];
        } else {
          const inner = composition(childProduct, catalogue, innerPath);
          unresolved ||= inner.unresolved;
          cyclic ||= inner.cyclic;
          childParts = inner.parts.map((part) => ({
            ...part,
            massPerUnit: part.massPerUnit === null || amount === null ? null : part.massPerUnit * amount,
          }));
        }
      }
      for (const part of childParts) {
        parts.push({
          ...part,
          raw: part.source === 'unknown' ? part.raw : applyRelation(part.raw, child.circular),
          keptFeedstock: part.keptFeedstock * keptFeedstock,
          keptEndOfLife: part.keptEndOfLife * keptEndOfLife,
          productLifetime: part.productLifetime ?? lifetime,
        });
      }
    }
    parts = mergeParts(parts);
  }

  const result: Composition = { parts, unresolved, cyclic };
  if (!cyclic) cache.set(product.id, result);
  return result;
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
