/**
 * What a material or product of the cached catalogues gives the elements mapped to it, before they are: its mass per
 * unit (a material's specific weight per m³; a product's composition through its cached children, per m³, m², m or
 * piece as its type measures), and which of the elements would not count for it (shared/counting.ts): those with
 * neither a weight nor the quantity it is measured by, and those it gives no mass. The server's figures decide in the
 * end; this says beforehand what they will say, where the app holds what it takes.
 */
import { ElementDimensionType, ElementType, ProductType } from '../../shared/api/enums';
import type { ProductChild } from '../../shared/api/schemas';
import { isMeasured, measureOf, type ElementQuantities, type Measure } from '../../shared/counting';
import type { MaterialRow, ProductRow } from '../db/schema';
import type { CatalogueKind } from '../stores/catalogues';

/** The cached catalogue the picker reads: items by id, and the children of the products whose details are cached. */
export interface CachedCatalogue {
  materials: ReadonlyMap<string, MaterialRow>;
  products: ReadonlyMap<string, ProductRow>;
  children: ReadonlyMap<string, readonly ProductChild[]>;
}

/** Nesting beyond this gives no mass, as on the server (server/calc/product-composition.ts). */
const MAX_DEPTH = 32;

function positive(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** The default dimension of a product's own measure, which its children's amounts are for; 1 without one. */
function perDefaultDimension(product: ProductRow): number {
  const dimension = { [ProductType.VolumeProduct]: ElementDimensionType.Volume, [ProductType.AreaProduct]: ElementDimensionType.Area, [ProductType.LengthProduct]: ElementDimensionType.Length }[product.type as number];
  const given = (product.defaultDimensions ?? []).find((each) => each.dimensionType === dimension);
  return positive(given?.dimensionValue) ?? 1;
}

function productMass(catalogue: CachedCatalogue, product: ProductRow, path: readonly string[]): number | null {
  if (path.includes(product.id) || path.length >= MAX_DEPTH) return 0;
  const children = catalogue.children.get(product.id);
  if (children === undefined) return null;
  let mass = 0;
  for (const child of children) {
    const amount = positive(child.value) ?? 0;
    const material = catalogue.materials.get(child.childId);
    if (material !== undefined) {
      mass += amount;
      continue;
    }
    const inner = catalogue.products.get(child.childId);
    if (inner === undefined) return null;
    const innerMass = productMass(catalogue, inner, [...path, product.id]);
    if (innerMass === null) return null;
    mass += amount * innerMass;
  }
  return mass / perDefaultDimension(product);
}

/** kg per unit of an item's measure; null when the app cannot tell (a product whose children it does not hold). */
export function massPerUnit(catalogue: CachedCatalogue, kind: CatalogueKind, id: string): number | null {
  if (kind === 'materials') return positive(catalogue.materials.get(id)?.specificWeight) ?? 0;
  const product = catalogue.products.get(id);
  return product === undefined ? null : productMass(catalogue, product, []);
}

/** The type a mapping to an item has: 10 for a material, a product's ProductType. */
export function mappingTypeOf(catalogue: CachedCatalogue, kind: CatalogueKind, id: string): number | null {
  return kind === 'materials' ? ElementType.Material : ((catalogue.products.get(id)?.type as number | undefined) ?? null);
}

/** The elements a mapping to an item would leave out of the circularity index, and why. */
export interface MappingOutcome {
  /** The measure of the item (volume for a material). */
  measure: Measure;
  /** Elements with neither a weight nor that quantity. */
  withoutQuantity: number;
  /** Elements with the quantity but no weight, to which the item gives no mass per unit. */
  withoutMass: number;
}

/** What a mapping to an item would give `elements`; null when the app cannot tell (an unknown item or composition). */
export function mappingOutcome(catalogue: CachedCatalogue, kind: CatalogueKind, id: string, elements: readonly ElementQuantities[]): MappingOutcome | null {
  const type = mappingTypeOf(catalogue, kind, id);
  const measure = type === null ? null : measureOf(type);
  const perUnit = massPerUnit(catalogue, kind, id);
  if (type === null || measure === null || perUnit === null) return null;
  let withoutQuantity = 0;
  let withoutMass = 0;
  for (const element of elements) {
    if (positive(element.weight) !== null) continue;
    if (!isMeasured(element, type)) withoutQuantity += 1;
    else if (perUnit === 0) withoutMass += 1;
  }
  return { measure, withoutQuantity, withoutMass };
}
