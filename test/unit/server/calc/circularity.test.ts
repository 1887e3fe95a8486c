/**
 * Circularity (decisions §6): the worked example of test-vectors.md §1 row by row and through elements, the empty
 * cases, the corrections, the fallbacks, and a property that the figures stay within their ranges.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ElementType, ProductType } from '../../../../shared/api/enums';
import {
  ciOfRow,
  circularAnalysis,
  circularFigures,
  recyclingEfficiency,
  summariseCircularRows,
  type CircularRow,
} from '../../../../server/calc/circularity';
import {
  createCatalogue,
  INDUSTRY_AVERAGE_LIFESPAN,
  KNOWN_LAYERS,
  type CalcElement,
  type CalcMaterial,
  type CalcProduct,
  type KnownLayer,
} from '../../../../server/calc/inputs';
import { expectWithin, layerId, material, materialElement } from './calc-test-support';

/** test-vectors.md §1: the PDF's layer rows. */
const EXAMPLE: readonly { layer: KnownLayer; mass: number; recycled: number; lifetime: number; averageLifetime: number; ci: number }[] = [
  { layer: 'Structure', mass: 1_040_000, recycled: 0.74, lifetime: 50, averageLifetime: 100, ci: 0.3478 },
  { layer: 'Skin', mass: 1_010_000, recycled: 0, lifetime: 20, averageLifetime: 20, ci: 0.1 },
  { layer: 'Services', mass: 4_440, recycled: 0, lifetime: 15, averageLifetime: 15, ci: 0.1 },
  { layer: 'SpacePlan', mass: 1_510_000, recycled: 0.96, lifetime: 10, averageLifetime: 10, ci: 0.8412 },
];

function exampleRow(entry: (typeof EXAMPLE)[number]): CircularRow {
  return {
    layer: entry.layer,
    mass: entry.mass,
    recycledFeedstock: entry.recycled,
    rapidRenewablesFeedstock: 0,
    reusedFeedstock: 0,
    recycledEndOfLife: entry.recycled,
    reusedEndOfLife: 0,
    efficiencyFeedstock: 0.75,
    efficiencyEndOfLife: 0.75,
    lifetime: entry.lifetime,
  };
}

function row(overrides: Partial<CircularRow> = {}): CircularRow {
  return {
    layer: 'Structure',
    mass: 1000,
    recycledFeedstock: 0,
    rapidRenewablesFeedstock: 0,
    reusedFeedstock: 0,
    recycledEndOfLife: 0,
    reusedEndOfLife: 0,
    efficiencyFeedstock: null,
    efficiencyEndOfLife: null,
    lifetime: 100,
    ...overrides,
  };
}

describe('the worked example of the CI PDF (test-vectors §1)', () => {
  it.each(EXAMPLE)('CI_e of the $layer row is $ci', (entry) => {
    expect(INDUSTRY_AVERAGE_LIFESPAN[entry.layer]).toBe(entry.averageLifetime);
    expectWithin(ciOfRow(exampleRow(entry)).ci, entry.ci, 1e-4);
  });

  it('aggregates to the building figures and the waste totals', () => {
    const summary = summariseCircularRows(EXAMPLE.map(exampleRow), { correctionUnknownMaterials: 0.96, correctionUnknownBrandLayer: 1 });
    const info = summary.information;
    expectWithin(info.circularityConstructionPhase, 0.6226, 1e-4);
    expectWithin(info.circularityUsagePhase, 0.8541, 1e-4);
    expectWithin(info.circularityEndOfLifePhase, 0.4669, 1e-4);
    expectWithin(info.ciScoreBuilding, 0.4863, 1e-4);
    expect(info.correctionUnknownMaterials).toBe(0.96);
    expect(info.correctionUnknownBrandLayer).toBe(1);
    expectWithin(info.madasterCiScore, 0.4668, 1e-4);
    expectWithin(summary.totals.wasteFeedstockRecycling / 1000, 739.73, 0.005);
    expectWithin(summary.totals.wasteEndOfLifeRecycling / 1000, 554.8, 0.005);
    expect(summary.totals.mass).toBe(3_564_440);
    // Per layer, each row is its layer.
    for (const entry of EXAMPLE) expectWithin(summary.perLayer[entry.layer].ci, entry.ci, 1e-4);
    expect(summary.perLayer.Site.ci).toBeNull();
    expect(summary.perLayer.Stuff.mass).toBe(0);
  });

  it('reproduces the same figures from elements, materials and the building (24 of 25 elements with a material)', () => {
    const materials: CalcMaterial[] = EXAMPLE.map((entry) =>
      material(`m-${entry.layer}`, {
        circular: {
          recycledPercentageFeedstock: entry.recycled,
          rapidRenewablesPercentageFeedstock: 0,
          recycledPercentageEndOfLife: entry.recycled,
          // 0 and missing efficiencies both mean 0.75.
          efficiencyPercentageRecyclingFeedstock: 0,
          efficiencyPercentageRecyclingEndOfLife: null,
        },
      }),
    );
    const elements: CalcElement[] = [];
    for (const entry of EXAMPLE) {
      for (let index = 0; index < 6; index += 1) {
        elements.push(materialElement(`${entry.layer}-${index}`, `m-${entry.layer}`, entry.mass / 6, entry.layer));
      }
    }
    // The 25th element: a known layer, but no material.
    elements.push({ id: 'unmapped', volume: 3, brandLayerId: layerId('Skin'), mapping: null });
    // L: Structure from the building (50), the other layers fall back to their industry average.
    const analysis = circularAnalysis(elements, createCatalogue(materials), { expectedLifespanStructure: 50 });
    const info = analysis.information;
    expect(analysis.counts).toEqual({ elements: 25, counted: 24, knownMaterial: 24, knownBrandLayer: 25 });
    expectWithin(info.circularityConstructionPhase, 0.6226, 1e-4);
    expectWithin(info.circularityUsagePhase, 0.8541, 1e-4);
    expectWithin(info.circularityEndOfLifePhase, 0.4669, 1e-4);
    expectWithin(info.ciScoreBuilding, 0.4863, 1e-4);
    expectWithin(info.correctionUnknownMaterials, 0.96, 1e-12);
    expectWithin(info.correctionUnknownBrandLayer, 1, 1e-12);
    expectWithin(info.madasterCiScore, 0.4668, 1e-4);
    expectWithin(analysis.totals.wasteFeedstockRecycling / 1000, 739.73, 0.005);
    expectWithin(analysis.totals.wasteEndOfLifeRecycling / 1000, 554.8, 0.005);
  });
});

describe('ciOfRow', () => {
  it('gives 0.1 for a fully linear row at the industry-average lifetime, and 1 for a fully reused and reusable one', () => {
    expectWithin(ciOfRow(row()).ci, 0.1, 1e-12);
    expectWithin(ciOfRow(row({ reusedFeedstock: 1, reusedEndOfLife: 1 })).ci, 1, 1e-12);
    expect(ciOfRow(row({ reusedFeedstock: 1, reusedEndOfLife: 1 })).linearFlowIndex).toBe(0);
  });

  it('treats 0, negative and missing efficiencies as 0.75, and caps them at 1', () => {
    const explicit = ciOfRow(row({ recycledFeedstock: 0.5, recycledEndOfLife: 0.5, efficiencyFeedstock: 0.75, efficiencyEndOfLife: 0.75 }));
    for (const efficiency of [0, null, -0.2, Number.NaN]) {
      const figures = ciOfRow(row({ recycledFeedstock: 0.5, recycledEndOfLife: 0.5, efficiencyFeedstock: efficiency, efficiencyEndOfLife: efficiency }));
      expect(figures).toEqual(explicit);
    }
    expect(recyclingEfficiency(1.4)).toBe(1);
    expect(recyclingEfficiency(0.5)).toBe(0.5);
    // Perfect recycling leaves no recycling waste.
    const perfect = ciOfRow(row({ recycledFeedstock: 1, recycledEndOfLife: 1, efficiencyFeedstock: 1, efficiencyEndOfLife: 1 }));
    expect(perfect.wasteFeedstockRecycling).toBe(0);
    expect(perfect.wasteEndOfLifeRecycling).toBe(0);
    expect(perfect.endOfLife).toBe(1);
  });

  it('computes the phase figures of a row', () => {
    const figures = ciOfRow(
      row({ recycledFeedstock: 0.3, rapidRenewablesFeedstock: 0.2, reusedFeedstock: 0.1, recycledEndOfLife: 0.4, reusedEndOfLife: 0.2, efficiencyEndOfLife: 0.5, lifetime: 150 }),
    );
    expectWithin(figures.construction, 0.6, 1e-12);
    expectWithin(figures.endOfLife, 0.4 * 0.5 + 0.2, 1e-12);
    expectWithin(figures.utility, 1.5, 1e-12);
    expectWithin(figures.virgin, 400, 1e-9);
    expectWithin(figures.wasteUnrecovered, 400, 1e-9);
  });

  it('bounds fractions whose sum exceeds 1 and falls back to L_av for a lifetime that is not > 0', () => {
    const over = ciOfRow(row({ recycledFeedstock: 0.8, rapidRenewablesFeedstock: 0.8, reusedFeedstock: 0.5 }));
    expect(over.construction).toBe(1);
    expect(over.virgin).toBe(0);
    expect(ciOfRow(row({ lifetime: 0 })).utility).toBe(1);
    expect(ciOfRow(row({ lifetime: -5 })).utility).toBe(1);
  });

  it('has a CI for a row without mass (the LFI does not depend on it)', () => {
    const figures = ciOfRow(row({ mass: 0, recycledFeedstock: 0.5 }));
    expect(figures.ci).toBeGreaterThan(0.1);
    expect(figures.waste).toBe(0);
  });
});

describe('circularFigures', () => {
  const catalogue = createCatalogue([
    material('linear'),
    material('long', { lifeTime: 200, circular: { recycledPercentageFeedstock: 0.5, recycledPercentageEndOfLife: 0.5 } }),
  ]);

  it('is all null without elements', () => {
    expect(circularFigures([], catalogue, {})).toEqual({
      circularityConstructionPhase: null,
      circularityUsagePhase: null,
      circularityEndOfLifePhase: null,
      ciScoreBuilding: null,
      correctionUnknownMaterials: null,
      correctionUnknownBrandLayer: null,
      madasterCiScore: null,
    });
  });

  it('has corrections but no scores when no element is counted', () => {
    const elements: CalcElement[] = [
      { id: 'unmapped', weight: 100, brandLayerId: layerId('Structure') },
      materialElement('unknown-layer', 'linear', 100, 'Unknown'),
      materialElement('no-layer', 'linear', 100, null),
      { id: 'no-mass', volume: 0, mapping: { type: ElementType.Material, id: 'linear' }, brandLayerId: layerId('Skin') },
    ];
    expect(circularFigures(elements, catalogue, {})).toEqual({
      circularityConstructionPhase: null,
      circularityUsagePhase: null,
      circularityEndOfLifePhase: null,
      ciScoreBuilding: null,
      correctionUnknownMaterials: 3 / 4,
      correctionUnknownBrandLayer: 2 / 4,
      madasterCiScore: null,
    });
  });

  it('counts an element with an unknown or unrecognised layer in the corrections only', () => {
    const elements: CalcElement[] = [
      materialElement('a', 'linear', 100, 'Structure'),
      materialElement('b', 'long', 100_000, 'Unknown'),
      { ...materialElement('c', 'long', 100_000, null), brandLayerId: '00000000-0000-0000-0000-000000000000' },
    ];
    const info = circularFigures(elements, catalogue, {});
    expectWithin(info.ciScoreBuilding, 0.1, 1e-12);
    expectWithin(info.correctionUnknownBrandLayer, 1 / 3, 1e-12);
    expectWithin(info.correctionUnknownMaterials, 1, 1e-12);
    expectWithin(info.madasterCiScore, 0.1 / 3, 1e-12);
  });

  it('matches layer ids case-insensitively', () => {
    const element = { ...materialElement('a', 'linear', 100, null), brandLayerId: layerId('Skin').toUpperCase() };
    expect(circularAnalysis([element], catalogue, {}).perLayer.Skin.mass).toBe(100);
  });

  it('takes L from the product, else the material, else the building, else the industry average', () => {
    const products: CalcProduct[] = [
      { id: 'p', type: ProductType.QuantityProduct, circular: { functionalLifetime: 40 }, children: [{ childId: 'long', value: 10 }] },
    ];
    const withProducts = createCatalogue([material('linear'), material('long', { lifeTime: 200 })], products);
    const usage = (element: CalcElement, building = {}) => circularFigures([element], withProducts, building).circularityUsagePhase;
    const product: CalcElement = { id: 'p', mapping: { type: ElementType.QuantityProduct, id: 'p' }, brandLayerId: layerId('Structure') };
    expectWithin(usage(product), 0.4, 1e-12);
    expectWithin(usage(materialElement('m', 'long', 10, 'Structure')), 2, 1e-12);
    expectWithin(usage(materialElement('m', 'linear', 10, 'Skin'), { expectedLifespanSkin: 30 }), 1.5, 1e-12);
    expectWithin(usage(materialElement('m', 'linear', 10, 'Skin'), { expectedLifespanSkin: 0 }), 1, 1e-12);
    // Site has no lifespan field of its own: always its industry average.
    expectWithin(usage(materialElement('m', 'linear', 10, 'Site'), { expectedLifespan: 80 }), 1, 1e-12);
  });

  it('weights the phases by mass', () => {
    const elements = [materialElement('a', 'linear', 300, 'Structure'), materialElement('b', 'long', 100, 'Structure')];
    const info = circularFigures(elements, catalogue, {});
    expectWithin(info.circularityConstructionPhase, (100 * 0.5) / 400, 1e-12);
    expectWithin(info.circularityUsagePhase, (300 * 1 + 100 * 2) / 400, 1e-12);
    expectWithin(info.circularityEndOfLifePhase, (100 * 0.5 * 0.75) / 400, 1e-12);
  });
});

// --- properties -------------------------------------------------------------------------------------------------------

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const efficiencyArbitrary = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const layerArbitrary = fc.constantFrom(...KNOWN_LAYERS);

const rowArbitrary: fc.Arbitrary<CircularRow> = fc.record({
  layer: layerArbitrary,
  mass: fc.double({ min: 0, max: 1e7, noNaN: true }),
  recycledFeedstock: unit,
  rapidRenewablesFeedstock: unit,
  reusedFeedstock: unit,
  recycledEndOfLife: unit,
  reusedEndOfLife: unit,
  efficiencyFeedstock: efficiencyArbitrary,
  efficiencyEndOfLife: efficiencyArbitrary,
  lifetime: fc.integer({ min: 0, max: 1000 }),
});

function expectFraction(value: number | null): void {
  if (value === null) return;
  expect(value).toBeGreaterThanOrEqual(0);
  expect(value).toBeLessThanOrEqual(1 + 1e-12);
}

describe('properties', () => {
  it('keeps CI_e, LFI and the construction and end-of-life figures of any valid row within 0..1', () => {
    fc.assert(
      fc.property(rowArbitrary, (candidate) => {
        const figures = ciOfRow(candidate);
        expectFraction(figures.ci);
        expectFraction(figures.linearFlowIndex);
        expectFraction(figures.construction);
        expectFraction(figures.endOfLife);
        expect(figures.utility).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps every building figure within 0..1 (the usage phase too while L ≤ L_av)', () => {
    const shortLived = rowArbitrary.map((candidate) => ({
      ...candidate,
      lifetime: Math.min(candidate.lifetime, INDUSTRY_AVERAGE_LIFESPAN[candidate.layer]),
    }));
    fc.assert(
      fc.property(fc.array(shortLived, { maxLength: 20 }), unit, unit, (rows, materials, layers) => {
        const info = summariseCircularRows(rows, { correctionUnknownMaterials: materials, correctionUnknownBrandLayer: layers }).information;
        for (const value of Object.values(info)) expectFraction(value);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the linear flow index at 0, not below, when the feedstock shares add up to 1 in floating point (found by the property above)', () => {
    const figures = ciOfRow({
      layer: 'Site',
      mass: 0,
      recycledFeedstock: 0,
      rapidRenewablesFeedstock: 0.9999999968218812,
      reusedFeedstock: 3.178118768154548e-9,
      recycledEndOfLife: 0,
      reusedEndOfLife: 1,
      efficiencyFeedstock: null,
      efficiencyEndOfLife: null,
      lifetime: 0,
    });
    expect(figures.linearFlowIndex).toBe(0);
    expect(figures.virgin).toBe(0);
  });

  it('treats a subnormal mass as unknown, so weighted figures never underflow to 0 (found by the property below)', () => {
    const catalogue = createCatalogue([material('m1', { specificWeight: null, lifeTime: 1 })]);
    const info = circularFigures([materialElement('tiny', 'm1', 5e-324, 'Site')], catalogue, {});
    expect(info.circularityUsagePhase).toBeNull();
    expect(info.ciScoreBuilding).toBeNull();
  });

  it('keeps every figure of random elements and catalogues within range (usage up to the largest L/L_av)', () => {
    const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
    const materialArbitrary = (id: string) =>
      fc.record({
        id: fc.constant(id),
        specificWeight: maybe(fc.double({ min: 0, max: 10_000, noNaN: true })),
        lifeTime: maybe(fc.integer({ min: 0, max: 1000 })),
        circular: fc.record({
          recycledPercentageFeedstock: maybe(unit),
          rapidRenewablesPercentageFeedstock: maybe(unit),
          recycledPercentageEndOfLife: maybe(unit),
          efficiencyPercentageRecyclingFeedstock: maybe(unit),
          efficiencyPercentageRecyclingEndOfLife: maybe(unit),
        }),
      });
    const productArbitrary = (id: string) =>
      fc.record({
        id: fc.constant(id),
        type: fc.constantFrom(...Object.values(ProductType)),
        circular: fc.record({
          productReusedPercentageFeedstock: maybe(unit),
          productReusedPercentageEndOfLife: maybe(unit),
          functionalLifetime: maybe(fc.integer({ min: 0, max: 1000 })),
          recycledPercentageFeedstock: maybe(unit),
        }),
        children: fc.array(
          fc.record({
            childId: fc.constantFrom('m0', 'm1', 'm2', 'p0', 'p1', 'missing'),
            value: maybe(fc.double({ min: -1, max: 100, noNaN: true })),
            circular: fc.record({
              inheritFeedstockPercentages: fc.boolean(),
              recycledPercentageFeedstock: maybe(unit),
              rapidRenewablesPercentageFeedstock: maybe(unit),
              inheritEndOfLifePercentages: fc.boolean(),
              recycledPercentageEndOfLife: maybe(unit),
              landfillPercentageEndOfLife: maybe(unit),
              inheritEfficiencyPercentages: fc.boolean(),
              efficiencyPercentageRecyclingFeedstock: maybe(unit),
              efficiencyPercentageRecyclingEndOfLife: maybe(unit),
            }),
          }),
          { maxLength: 3 },
        ),
      });
    const elementArbitrary = fc.record({
      id: fc.string(),
      volume: maybe(fc.double({ min: -10, max: 100, noNaN: true })),
      area: maybe(fc.double({ min: -10, max: 100, noNaN: true })),
      length: maybe(fc.double({ min: -10, max: 100, noNaN: true })),
      weight: maybe(fc.double({ min: -10, max: 10_000, noNaN: true })),
      brandLayerId: maybe(fc.constantFrom(...KNOWN_LAYERS, 'Unknown' as const).map(layerId)),
      mapping: maybe(
        fc.oneof(
          fc.record({ type: fc.constant<number>(ElementType.Material), id: fc.constantFrom('m0', 'm1', 'm2', 'missing') }),
          fc.record({ type: fc.constantFrom<number>(20, 30, 40, 50), id: fc.constantFrom('p0', 'p1', 'missing') }),
        ),
      ),
    });
    const building = fc.record({
      expectedLifespanStructure: maybe(fc.integer({ min: 0, max: 300 })),
      expectedLifespanSkin: maybe(fc.integer({ min: 0, max: 300 })),
    });
    fc.assert(
      fc.property(
        fc.tuple(materialArbitrary('m0'), materialArbitrary('m1'), materialArbitrary('m2')),
        fc.tuple(productArbitrary('p0'), productArbitrary('p1')),
        fc.array(elementArbitrary, { maxLength: 12 }),
        building,
        (materials, products, elements, buildingFields) => {
          const info = circularFigures(elements, createCatalogue(materials, products), buildingFields);
          const { circularityUsagePhase, ...fractions } = info;
          for (const value of Object.values(fractions)) expectFraction(value);
          if (circularityUsagePhase !== null) {
            expect(circularityUsagePhase).toBeGreaterThan(0);
            expect(circularityUsagePhase).toBeLessThanOrEqual(1000 / 5 + 1e-9);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
