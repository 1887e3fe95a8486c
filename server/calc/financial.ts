/**
 * The financial figures of a building (decisions §7, the financial PDF simplified). Two steps, so a recalculation can
 * store the expensive part and `/financial` can apply the caller's rates and the building's current surface and
 * lifespans on every request: `financialInputs` sums the elements into (level, family) buckets, `financialFromInputs`
 * values them. `financialFigures` does both.
 */
import type { BuildingFinancialInformation } from '../../shared/api';
import { BuildingLevel, PriceUnit, type BuildingLevelName } from '../../shared/api/enums';
import {
  BUILDING_LEVELS,
  buildingLayerLifespan,
  finite,
  INDUSTRY_AVERAGE_LIFESPAN,
  isKnownLayer,
  layerOf,
  positive,
  type CalcBuilding,
  type CalcCatalogue,
  type CalcElement,
  type CalcFinancialValue,
  type CalcMaterial,
} from './inputs';
import { expandElement } from './mass';

/** The rates of the financial method; fractions per year. */
export interface FinancialRates {
  inflation: number;
  bdbIndex: number;
  discountRate: number;
}

/** decisions §7: inflation 2 %, BDB index 2.5 %, discount rate 3 % (the platform's 0.7 + 2 + 0.3 %). */
export const DEFAULT_FINANCIAL_RATES: Readonly<FinancialRates> = Object.freeze({
  inflation: 0.02,
  bdbIndex: 0.025,
  discountRate: 0.03,
});

/** Demolition and dismantling costs, EUR per m² of gross surface area (decisions §7). */
export const DEMOLITION_COST_PER_M2 = 30;

/** Years until an Unknown-layer element leaves the building when the building states no expectedLifespan. */
export const UNKNOWN_LEVEL_DEFAULT_YEARS = 50;

/** The family of a material without one. */
export const UNKNOWN_FAMILY = 'unknown';

/** kg per unit of mass of the PriceUnits that are masses. */
const KG_PER_TONNE = 1000;
const KG_PER_POUND = 0.45359237;
const KG_PER_TROY_OUNCE = 0.0311034768;

/** The rates to use: each given finite value, else its default (the query parameters of `/financial` are optional). */
export function financialRates(given: Partial<Record<keyof FinancialRates, number | null | undefined>> = {}): FinancialRates {
  return {
    inflation: finite(given.inflation) ?? DEFAULT_FINANCIAL_RATES.inflation,
    bdbIndex: finite(given.bdbIndex) ?? DEFAULT_FINANCIAL_RATES.bdbIndex,
    discountRate: finite(given.discountRate) ?? DEFAULT_FINANCIAL_RATES.discountRate,
  };
}

/**
 * One financial value in EUR per kg, or null when it is not a price per mass that can be converted: an index (5), a
 * price per m³ of a material without specificWeight, an unknown unit, a currency other than EUR.
 */
export function valuePerKg(value: CalcFinancialValue, specificWeight: number | null | undefined): number | null {
  const amount = finite(value.value);
  if (amount === null) return null;
  if (value.currency !== null && value.currency !== undefined && value.currency.trim().toUpperCase() !== 'EUR') return null;
  switch (value.unit) {
    case PriceUnit.mt:
      return amount / KG_PER_TONNE;
    case PriceUnit.kg:
      return amount;
    case PriceUnit.m3: {
      const density = positive(specificWeight);
      return density === null ? null : amount / density;
    }
    case PriceUnit.lb:
      return amount / KG_PER_POUND;
    case PriceUnit.toz:
      return amount / KG_PER_TROY_OUNCE;
    default:
      return null;
  }
}

function dateOf(value: CalcFinancialValue): number {
  const time = value.valueDate === null || value.valueDate === undefined ? Number.NaN : Date.parse(value.valueDate);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/**
 * A material's price in EUR per kg: its convertible value with the latest valueDate (undated values are older than
 * any dated one; on equal dates the later in the list wins), 0 when it has none.
 */
export function pricePerKg(material: CalcMaterial): number {
  let best: { time: number; price: number } | null = null;
  for (const value of material.financialValues ?? []) {
    const price = valuePerKg(value, material.specificWeight);
    if (price === null) continue;
    const time = dateOf(value);
    if (best === null || time >= best.time) best = { time, price };
  }
  return best?.price ?? 0;
}

/** The sums of one (building level, material family): what the valuation needs, in EUR and kg at t = 0. */
export interface FinancialBucket {
  level: BuildingLevelName;
  family: string;
  /** kg of material. */
  mass: number;
  /** Σ (1 − handlingFeedstockPercentage) · price · M. */
  materialValue: number;
  /** Σ (transportCosts + handlingFeedstockEuroKg) · M. */
  processingCosts: number;
}

/** What a recalculation stores for `/financial` (JSON as it is); the version marks the shape. */
export interface FinancialInputs {
  version: 1;
  buckets: FinancialBucket[];
}

/**
 * The buckets of a building's elements: every part with a material and mass > 0, by the element's brand layer and the
 * material's family. Parts without a material carry neither value nor cost (decisions §7).
 */
export function financialInputs(elements: Iterable<CalcElement>, catalogue: CalcCatalogue): FinancialInputs {
  const buckets = new Map<string, FinancialBucket>();
  const prices = new Map<CalcMaterial, number>();
  for (const element of elements) {
    const level = layerOf(element.brandLayerId);
    for (const part of expandElement(element, catalogue).contributions) {
      const material = part.material;
      if (part.source !== 'material' || material === null || !(part.mass > 0)) continue;
      let price = prices.get(material);
      if (price === undefined) {
        price = pricePerKg(material);
        prices.set(material, price);
      }
      const financial = material.financial ?? {};
      const handlingShare = finite(financial.handlingFeedstockPercentage) ?? 0;
      const costsPerKg = (finite(financial.transportCosts) ?? 0) + (finite(financial.handlingFeedstockEuroKg) ?? 0);
      const family = material.elementFamily?.trim() || UNKNOWN_FAMILY;
      const key = `${level}\u0000${family}`;
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        bucket = { level, family, mass: 0, materialValue: 0, processingCosts: 0 };
        buckets.set(key, bucket);
      }
      bucket.mass += part.mass;
      bucket.materialValue += (1 - handlingShare) * price * part.mass;
      bucket.processingCosts += costsPerKg * part.mass;
    }
  }
  return { version: 1, buckets: [...buckets.values()] };
}

/**
 * t of a building level in years: the building's expectedLifespan<Layer>, else the layer's industry average; Unknown:
 * the building's expectedLifespan, else 50 (decisions §7).
 */
export function financialYears(building: CalcBuilding, level: BuildingLevelName): number {
  return buildingLayerLifespan(building, level) ?? (isKnownLayer(level) ? INDUSTRY_AVERAGE_LIFESPAN[level] : UNKNOWN_LEVEL_DEFAULT_YEARS);
}

/** The BuildingFinancialInformation of stored inputs, for this building and these rates (decisions §7). */
export function financialFromInputs(
  inputs: FinancialInputs,
  building: CalcBuilding,
  rates: FinancialRates = DEFAULT_FINANCIAL_RATES,
): BuildingFinancialInformation {
  const totalMass = inputs.buckets.reduce((sum, bucket) => sum + bucket.mass, 0);
  const demolitionTotal = DEMOLITION_COST_PER_M2 * (positive(building.grossSurfaceArea) ?? 0);
  const perFamily = new Map<string, number>();
  const perLevel = new Map<BuildingLevelName, number>();
  for (const bucket of inputs.buckets) {
    const demolition = totalMass > 0 ? (demolitionTotal * bucket.mass) / totalMass : 0;
    const net = bucket.materialValue - bucket.processingCosts;
    perFamily.set(bucket.family, (perFamily.get(bucket.family) ?? 0) + net - demolition);
    const t = financialYears(building, bucket.level);
    const future = net * (1 + rates.inflation) ** t - demolition * (1 + rates.bdbIndex) ** t;
    perLevel.set(bucket.level, (perLevel.get(bucket.level) ?? 0) + future / (1 + rates.discountRate) ** t);
  }
  const families = [...perFamily.keys()].sort();
  const ncwValuePerBuildingLevel = BUILDING_LEVELS.map((level) => ({
    id: BuildingLevel[level].id,
    label: BuildingLevel[level].label,
    value: perLevel.get(level) ?? 0,
  }));
  return {
    currentValue: families.reduce((sum, family) => sum + (perFamily.get(family) ?? 0), 0),
    currentValuePerMaterialFamily: Object.fromEntries(families.map((family) => [family, perFamily.get(family) ?? 0])),
    ncwValue: ncwValuePerBuildingLevel.reduce((sum, level) => sum + level.value, 0),
    ncwValuePerBuildingLevel,
  };
}

/** The building's BuildingFinancialInformation (decisions §7); all numbers, 0 when empty, possibly negative. */
export function financialFigures(
  elements: Iterable<CalcElement>,
  catalogue: CalcCatalogue,
  building: CalcBuilding,
  rates: FinancialRates = DEFAULT_FINANCIAL_RATES,
): BuildingFinancialInformation {
  return financialFromInputs(financialInputs(elements, catalogue), building, rates);
}
