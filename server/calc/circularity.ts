/**
 * The circularity figures of a building: the platform's CI v0.2 (decisions §6, the CI PDF §5.4). Every part of every
 * counted element is one mass-weighted row; `ciOfRow` is the per-row formula, `summariseCircularRows` the building
 * aggregation, `circularFigures` the whole way from elements to the wire object.
 */
import type { BuildingCircularInformation } from '../../shared/api';
import {
  buildingLayerLifespan,
  finite,
  fraction,
  INDUSTRY_AVERAGE_LIFESPAN,
  isKnownLayer,
  KNOWN_LAYERS,
  layerOf,
  positive,
  type CalcBuilding,
  type CalcCatalogue,
  type CalcElement,
  type KnownLayer,
} from './inputs';
import { expandElement, type CircularFractions, type ElementExpansion } from './mass';

/** E_F and E_C when 0 or missing (the CI PDF's default). */
export const DEFAULT_RECYCLING_EFFICIENCY = 0.75;
/** Smallest efficiency the formula divides by: a numeric guard (W_F grows as 1/E_F; below this the LFI is 1 anyway). */
export const MIN_RECYCLING_EFFICIENCY = 1e-9;
/** The utility constant of F(X) = 0.9 / X. */
export const UTILITY_CONSTANT = 0.9;

/** One mass-weighted row of the CI: a part of an element (or, in the PDF's worked example, a whole layer). */
export interface CircularRow extends CircularFractions {
  layer: KnownLayer;
  /** M in kg. */
  mass: number;
  /** L in years; the layer's industry average when not > 0. */
  lifetime: number;
}

/** What the CI formula gives for one row; masses in kg. */
export interface CircularRowFigures {
  /** V: virgin feedstock. */
  virgin: number;
  /** W0: to landfill or incineration. */
  wasteUnrecovered: number;
  /** W_F: waste of recycling the feedstock. */
  wasteFeedstockRecycling: number;
  /** W_C: waste of recycling at end of life. */
  wasteEndOfLifeRecycling: number;
  /** W = W0 + (W_F + W_C)/2. */
  waste: number;
  /** LFI, 0 (circular) .. 1 (linear). */
  linearFlowIndex: number;
  /** X = L / L_av. */
  utility: number;
  /** CI_e = max(0, 1 − LFI·0.9/X). */
  ci: number;
  /** F_R + F_RR + F_U. */
  construction: number;
  /** C_R·E_C + C_U. */
  endOfLife: number;
}

/** The fractions a row is computed with: each within 0..1, F_U + F_R + F_RR ≤ 1, C_U + C_R ≤ 1, efficiencies in (0, 1]. */
export function normaliseFractions(fractions: CircularFractions): CircularFractions {
  const reusedFeedstock = fraction(fractions.reusedFeedstock);
  const recycledFeedstock = Math.min(fraction(fractions.recycledFeedstock), 1 - reusedFeedstock);
  const rapidRenewablesFeedstock = Math.min(fraction(fractions.rapidRenewablesFeedstock), 1 - reusedFeedstock - recycledFeedstock);
  const reusedEndOfLife = fraction(fractions.reusedEndOfLife);
  const recycledEndOfLife = Math.min(fraction(fractions.recycledEndOfLife), 1 - reusedEndOfLife);
  return {
    recycledFeedstock,
    rapidRenewablesFeedstock,
    reusedFeedstock,
    recycledEndOfLife,
    reusedEndOfLife,
    efficiencyFeedstock: recyclingEfficiency(fractions.efficiencyFeedstock),
    efficiencyEndOfLife: recyclingEfficiency(fractions.efficiencyEndOfLife),
  };
}

/** A recycling efficiency as the formula uses it: 0, negative or missing → 0.75; above 1 → 1; at least 1e-9. */
export function recyclingEfficiency(value: number | null | undefined): number {
  const efficiency = finite(value);
  if (efficiency === null || efficiency <= 0) return DEFAULT_RECYCLING_EFFICIENCY;
  return Math.min(Math.max(efficiency, MIN_RECYCLING_EFFICIENCY), 1);
}

/** The CI of one row (decisions §6): V, W0, W_C, W_F, W, LFI, X and CI_e, with the phase figures of the row. */
export function ciOfRow(row: CircularRow): CircularRowFigures {
  const f = normaliseFractions(row);
  const eF = f.efficiencyFeedstock ?? DEFAULT_RECYCLING_EFFICIENCY;
  const eC = f.efficiencyEndOfLife ?? DEFAULT_RECYCLING_EFFICIENCY;
  // Per kg first: LFI does not depend on the mass, so a row without mass still has a CI.
  // Shares that add up to 1 can leave −1e-17 behind in floating point: no flow is negative.
  const v = Math.max(0, 1 - f.recycledFeedstock - f.rapidRenewablesFeedstock - f.reusedFeedstock);
  const w0 = Math.max(0, 1 - f.recycledEndOfLife - f.reusedEndOfLife);
  const wC = (1 - eC) * f.recycledEndOfLife;
  const wF = ((1 - eF) * f.recycledFeedstock) / eF;
  const w = w0 + (wF + wC) / 2;
  const linearFlowIndex = (v + w) / (2 + (wF - wC) / 2);
  const averageLifetime = INDUSTRY_AVERAGE_LIFESPAN[row.layer];
  const utility = (positive(row.lifetime) ?? averageLifetime) / averageLifetime;
  const mass = finite(row.mass) ?? 0;
  return {
    virgin: v * mass,
    wasteUnrecovered: w0 * mass,
    wasteFeedstockRecycling: wF * mass,
    wasteEndOfLifeRecycling: wC * mass,
    waste: w * mass,
    linearFlowIndex,
    utility,
    ci: Math.max(0, 1 - (linearFlowIndex * UTILITY_CONSTANT) / utility),
    construction: f.recycledFeedstock + f.rapidRenewablesFeedstock + f.reusedFeedstock,
    endOfLife: f.recycledEndOfLife * eC + f.reusedEndOfLife,
  };
}

/** Mass-weighted figures of a set of rows (a layer or the building); null without mass. */
export interface CircularPhaseFigures {
  /** kg. */
  mass: number;
  construction: number | null;
  usage: number | null;
  endOfLife: number | null;
  ci: number | null;
}

/** Total material flows over the rows, kg (the PDF's waste totals). */
export interface CircularFlowTotals {
  mass: number;
  virgin: number;
  wasteUnrecovered: number;
  wasteFeedstockRecycling: number;
  wasteEndOfLifeRecycling: number;
  waste: number;
}

/** The two corrections of decisions §6 (element counts), null without elements. */
export interface CircularCorrections {
  correctionUnknownMaterials: number | null;
  correctionUnknownBrandLayer: number | null;
}

/** Everything the CI aggregation yields; `information` is the wire object. */
export interface CircularSummary {
  information: BuildingCircularInformation;
  building: CircularPhaseFigures;
  perLayer: Record<KnownLayer, CircularPhaseFigures>;
  totals: CircularFlowTotals;
}

class PhaseAccumulator {
  mass = 0;
  private construction = 0;
  private usage = 0;
  private endOfLife = 0;
  private ci = 0;

  add(mass: number, figures: CircularRowFigures): void {
    this.mass += mass;
    this.construction += mass * figures.construction;
    this.usage += mass * figures.utility;
    this.endOfLife += mass * figures.endOfLife;
    this.ci += mass * figures.ci;
  }

  result(): CircularPhaseFigures {
    const mean = (sum: number) => (this.mass > 0 ? sum / this.mass : null);
    return {
      mass: this.mass,
      construction: mean(this.construction),
      usage: mean(this.usage),
      endOfLife: mean(this.endOfLife),
      ci: mean(this.ci),
    };
  }
}

/**
 * The building figures from its rows (decisions §6): phases and `ciScoreBuilding` mass-weighted over the rows, null
 * when they carry no mass; `madasterCiScore` = ciScoreBuilding × both corrections.
 */
export function summariseCircularRows(rows: Iterable<CircularRow>, corrections: CircularCorrections): CircularSummary {
  const building = new PhaseAccumulator();
  const layers = Object.fromEntries(KNOWN_LAYERS.map((layer) => [layer, new PhaseAccumulator()])) as Record<
    KnownLayer,
    PhaseAccumulator
  >;
  const totals: CircularFlowTotals = {
    mass: 0,
    virgin: 0,
    wasteUnrecovered: 0,
    wasteFeedstockRecycling: 0,
    wasteEndOfLifeRecycling: 0,
    waste: 0,
  };
  for (const row of rows) {
    const mass = positive(row.mass);
    if (mass === null) continue;
    const figures = ciOfRow(row);
    building.add(mass, figures);
    layers[row.layer].add(mass, figures);
    totals.mass += mass;
    totals.virgin += figures.virgin;
    totals.wasteUnrecovered += figures.wasteUnrecovered;
    totals.wasteFeedstockRecycling += figures.wasteFeedstockRecycling;
    totals.wasteEndOfLifeRecycling += figures.wasteEndOfLifeRecycling;
    totals.waste += figures.waste;
  }
  const figures = building.result();
  const { correctionUnknownMaterials, correctionUnknownBrandLayer } = corrections;
  return {
    information: {
      circularityConstructionPhase: figures.construction,
      circularityUsagePhase: figures.usage,
      circularityEndOfLifePhase: figures.endOfLife,
      ciScoreBuilding: figures.ci,
      correctionUnknownMaterials,
      correctionUnknownBrandLayer,
      madasterCiScore:
        figures.ci === null || correctionUnknownMaterials === null || correctionUnknownBrandLayer === null
          ? null
          : figures.ci * correctionUnknownMaterials * correctionUnknownBrandLayer,
    },
    building: figures,
    perLayer: Object.fromEntries(KNOWN_LAYERS.map((layer) => [layer, layers[layer].result()])) as Record<
      KnownLayer,
      CircularPhaseFigures
    >,
    totals,
  };
}

/** Whether a part of an element gives a CI row: it has data (a material, or a product's own figures) and mass. */
function givesCircularRow(part: ElementExpansion['contributions'][number]): boolean {
  return part.source !== 'unknown' && part.mass > 0;
}

/** Whether `elementCircularRows` gives the element any row, without making them. */
export function hasCircularRows(element: CalcElement, expansion: ElementExpansion): boolean {
  if (element.mapping === null || element.mapping === undefined || !isKnownLayer(layerOf(element.brandLayerId))) return false;
  return expansion.contributions.some(givesCircularRow);
}

/**
 * The CI rows of one element: its parts with data (a material, or a product's own figures) and mass > 0, when the
 * element is counted — mapped, with a known brand layer. L falls back to the building's lifespan of the layer, then to
 * the layer's industry average.
 */
export function elementCircularRows(element: CalcElement, expansion: ElementExpansion, building: CalcBuilding): CircularRow[] {
  const level = layerOf(element.brandLayerId);
  if (element.mapping === null || element.mapping === undefined || !isKnownLayer(level)) return [];
  const layerLifetime = buildingLayerLifespan(building, level) ?? INDUSTRY_AVERAGE_LIFESPAN[level];
  return expansion.contributions
    .filter(givesCircularRow)
    .map((part) => ({ ...part.circular, layer: level, mass: part.mass, lifetime: part.lifetime ?? layerLifetime }));
}

/** Element counts behind the corrections. */
export interface CircularCounts {
  elements: number;
  /** Elements whose rows carry mass: mapped, known layer, known mass. */
  counted: number;
  knownMaterial: number;
  knownBrandLayer: number;
}

/** The circular summary of a building with the counts behind it. */
export interface CircularAnalysis extends CircularSummary {
  counts: CircularCounts;
}

/** Everything circular about a building's elements (those of its active Mapped source files). */
export function circularAnalysis(
  elements: Iterable<CalcElement>,
  catalogue: CalcCatalogue,
  building: CalcBuilding,
): CircularAnalysis {
  const counts: CircularCounts = { elements: 0, counted: 0, knownMaterial: 0, knownBrandLayer: 0 };
  const rows: CircularRow[] = [];
  for (const element of elements) {
    counts.elements += 1;
    const expansion = expandElement(element, catalogue);
    if (expansion.knownMaterial) counts.knownMaterial += 1;
    if (isKnownLayer(layerOf(element.brandLayerId))) counts.knownBrandLayer += 1;
    const elementRows = elementCircularRows(element, expansion, building);
    if (elementRows.length > 0) counts.counted += 1;
    for (const row of elementRows) rows.push(row);
  }
  const corrections: CircularCorrections =
    counts.elements === 0
      ? { correctionUnknownMaterials: null, correctionUnknownBrandLayer: null }
      : {
          correctionUnknownMaterials: counts.knownMaterial / counts.elements,
          correctionUnknownBrandLayer: counts.knownBrandLayer / counts.elements,
        };
  return { ...summariseCircularRows(rows, corrections), counts };
}

/** The building's BuildingCircularInformation (decisions §6). */
export function circularFigures(
  elements: Iterable<CalcElement>,
  catalogue: CalcCatalogue,
  building: CalcBuilding,
): BuildingCircularInformation {
  return circularAnalysis(elements, catalogue, building).information;
}
