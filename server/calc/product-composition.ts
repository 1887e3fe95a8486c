/**
 * What one functional unit of a product is made of (decisions §6 "Mass"): its material parts down through its children,
 * each with the circular figures that apply to it (the product's reuse shares and the child relations' overrides
 * resolved), cached per catalogue. mass.ts scales a unit to an element. Rules in README.md ("Mass and product expansion").
 */
import { ElementDimensionType, ProductType } from '../../shared/api/enums';
import { findMaterial, findProduct, finite, fraction, positive, type CalcCatalogue, type CalcMaterial, type CalcProduct, type CalcProductChild } from './inputs';
import type { ContributionSource } from './mass';

/** Deeper product nesting than this is treated like a cycle (unknown material). */
export const MAX_PRODUCT_DEPTH = 32;

/** Circular figures of a part before the product shares are applied; null = not known here. */
export interface RawCircular {
  recycledFeedstock: number | null;
  rapidRenewablesFeedstock: number | null;
  recycledEndOfLife: number | null;
  efficiencyFeedstock: number | null;
  efficiencyEndOfLife: number | null;
}

/** A part of one functional unit of a product. */
export interface UnitPart {
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

export interface Composition {
  parts: UnitPart[];
  /** A child is missing or a cycle was cut somewhere below. */
  unresolved: boolean;
  /** A cycle (or the depth limit) was met: the result depends on the path and is not cached. */
  cyclic: boolean;
}

const compositionCaches = new WeakMap<CalcCatalogue, Map<string, Composition>>();

export function rawOfMaterial(material: CalcMaterial): RawCircular {
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

export function unknownPart(productId: string | null): UnitPart {
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

export function composition(product: CalcProduct, catalogue: CalcCatalogue, path: readonly string[]): Composition {
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
