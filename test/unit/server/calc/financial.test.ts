/**
 * Financial figures (decisions §7): the three-element building of test-vectors.md §2, prices by PriceUnit and date,
 * the empty building, levels and their years, negative values, and the stored inputs.
 */
import { describe, expect, it } from 'vitest';
import { BuildingLevel, ElementType, PriceUnit, ProductType } from '../../../../shared/api/enums';
import {
  DEFAULT_FINANCIAL_RATES,
  DEMOLITION_COST_PER_M2,
  financialFigures,
  financialFromInputs,
  financialInputs,
  financialRates,
  financialYears,
  pricePerKg,
  valuePerKg,
} from '../../../../server/calc/financial';
import { createCatalogue, type CalcBuilding, type CalcElement, type CalcMaterial } from '../../../../server/calc/inputs';
import { expectWithin, layerId, material, materialElement } from './calc-test-support';

function priced(id: string, family: string, price: number, financial: CalcMaterial['financial']): CalcMaterial {
  return material(id, { elementFamily: family, financial, financialValues: [{ value: price, unit: PriceUnit.kg, valueDate: '2024-01-01T00:00:00Z', currency: 'EUR' }] });
}

/** test-vectors.md §2. */
const VECTOR_MATERIALS = [
  priced('concrete', 'stone', 0.0035, { transportCosts: 0.009625, handlingFeedstockEuroKg: 0.007, handlingFeedstockPercentage: 0 }),
  priced('steel', 'metal', 0.25, { transportCosts: 0.072188, handlingFeedstockEuroKg: 0, handlingFeedstockPercentage: 0.35 }),
  priced('glass', 'glass', 0.19, { transportCosts: 0.072, handlingFeedstockEuroKg: 0.2, handlingFeedstockPercentage: 0 }),
];
const VECTOR_ELEMENTS: CalcElement[] = [
  materialElement('concrete wall', 'concrete', 24_000, 'Structure'),
  materialElement('steel beam', 'steel', 1_000, 'Structure'),
  materialElement('glass pane', 'glass', 500, 'Skin'),
];
const VECTOR_BUILDING: CalcBuilding = { grossSurfaceArea: 100, expectedLifespanStructure: 50, expectedLifespanSkin: 25 };

const LEVELS_IN_ORDER = [
  ['26a9ccae-ca9d-4cf0-9683-503321791978', 'Site'],
  ['9804b68f-25b5-4224-a408-1eca54aaa5bc', 'Structure'],
  ['b3f780d4-3a36-4dce-a8d0-e98557f73713', 'Skin'],
  ['e8cf6e3d-35e4-4c61-8d72-fa417b0e9328', 'Services'],
  ['f70048be-590e-4e5a-8a1f-09763d26ec87', 'Space plan'],
  ['82c1967b-1f20-4c1f-8fe2-685a23ab01be', 'Stuff'],
  ['e2f286ba-6c71-425e-8d99-b9a00895be95', 'Unknown'],
] as const;

describe('the three-element building (test-vectors §2)', () => {
  const figures = financialFigures(VECTOR_ELEMENTS, createCatalogue(VECTOR_MATERIALS), VECTOR_BUILDING, { inflation: 0.02, bdbIndex: 0.025, discountRate: 0.03 });

  it('values the material families now', () => {
    expect(Object.keys(figures.currentValuePerMaterialFamily)).toEqual(['glass', 'metal', 'stone']);
    expectWithin(figures.currentValuePerMaterialFamily['stone'], -3138.53, 0.01);
    expectWithin(figures.currentValuePerMaterialFamily['metal'], -27.34, 0.01);
    expectWithin(figures.currentValuePerMaterialFamily['glass'], -99.82, 0.01);
    expectWithin(figures.currentValue, -3265.69, 0.01);
  });

  it('lists all seven levels in order with the discounted values', () => {
    expect(figures.ncwValuePerBuildingLevel.map((level) => [level.id, level.label])).toEqual(LEVELS_IN_ORDER.map((level) => [...level]));
    const value = (label: string) => figures.ncwValuePerBuildingLevel.find((level) => level.label === label)?.value;
    expectWithin(value('Structure'), -2443.92, 0.01);
    expectWithin(value('Skin'), -84.21, 0.01);
    for (const label of ['Site', 'Services', 'Space plan', 'Stuff', 'Unknown']) expect(value(label)).toBe(0);
    expectWithin(figures.ncwValue, -2528.13, 0.01);
  });

  it('uses the default rates when none are given, and the same figures through stored inputs', () => {
    expect(DEFAULT_FINANCIAL_RATES).toEqual({ inflation: 0.02, bdbIndex: 0.025, discountRate: 0.03 });
    expect(financialFigures(VECTOR_ELEMENTS, createCatalogue(VECTOR_MATERIALS), VECTOR_BUILDING)).toEqual(figures);
    const stored = JSON.parse(JSON.stringify(financialInputs(VECTOR_ELEMENTS, createCatalogue(VECTOR_MATERIALS)))) as ReturnType<typeof financialInputs>;
    expect(stored.version).toBe(1);
    expect(financialFromInputs(stored, VECTOR_BUILDING)).toEqual(figures);
  });

  it('follows the building and the rates at read time', () => {
    const inputs = financialInputs(VECTOR_ELEMENTS, createCatalogue(VECTOR_MATERIALS));
    const noDemolition = financialFromInputs(inputs, { ...VECTOR_BUILDING, grossSurfaceArea: null });
    expectWithin(noDemolition.currentValue, -3265.69 + DEMOLITION_COST_PER_M2 * 100, 0.01);
    const undiscounted = financialFromInputs(inputs, VECTOR_BUILDING, { inflation: 0, bdbIndex: 0, discountRate: 0 });
    expectWithin(undiscounted.ncwValue, undiscounted.currentValue, 1e-9);
  });
});

describe('financialRates', () => {
  it('takes each given finite rate and defaults the rest', () => {
    expect(financialRates()).toEqual(DEFAULT_FINANCIAL_RATES);
    expect(financialRates({ inflation: 0.05, bdbIndex: null, discountRate: Number.NaN })).toEqual({ inflation: 0.05, bdbIndex: 0.025, discountRate: 0.03 });
    expect(financialRates({ discountRate: -0.01 }).discountRate).toBe(-0.01);
  });
});

describe('prices', () => {
  it('converts each PriceUnit to EUR per kg', () => {
    const at = (value: number, unit: number, specificWeight: number | null = 2400) => valuePerKg({ value, unit }, specificWeight);
    expect(at(250, PriceUnit.mt)).toBe(0.25);
    expect(at(0.25, PriceUnit.kg)).toBe(0.25);
    expect(at(600, PriceUnit.m3)).toBe(0.25);
    expect(at(600, PriceUnit.m3, null)).toBeNull();
    expect(at(600, PriceUnit.m3, 0)).toBeNull();
    expectWithin(at(1, PriceUnit.lb), 2.2046226218, 1e-9);
    expectWithin(at(1, PriceUnit.toz), 32.1507465686, 1e-9);
    expect(at(120, PriceUnit.index)).toBeNull();
    expect(at(1, 42)).toBeNull();
    expect(valuePerKg({ value: 1, unit: PriceUnit.kg, currency: 'usd' }, null)).toBeNull();
    expect(valuePerKg({ value: 1, unit: PriceUnit.kg, currency: 'eur' }, null)).toBe(1);
    expect(at(-40, PriceUnit.mt)).toBe(-0.04);
  });

  it('takes the latest dated convertible value; undated values are the oldest; 0 without any', () => {
    const withValues = (financialValues: CalcMaterial['financialValues']) => pricePerKg(material('m', { specificWeight: 1000, financialValues }));
    expect(withValues([])).toBe(0);
    expect(withValues(null)).toBe(0);
    expect(
      withValues([
        { value: 0.3, unit: PriceUnit.kg, valueDate: '2023-06-01T00:00:00Z' },
        { value: 500, unit: PriceUnit.mt, valueDate: '2024-02-01T00:00:00+01:00' },
        { value: 0.1, unit: PriceUnit.kg, valueDate: '2022-01-01T00:00:00Z' },
        { value: 0.9, unit: PriceUnit.kg, valueDate: null },
      ]),
    ).toBe(0.5);
    // A later index is no price: the latest price stays.
    expect(
      withValues([
        { value: 0.3, unit: PriceUnit.kg, valueDate: '2023-06-01T00:00:00Z' },
        { value: 130, unit: PriceUnit.index, valueDate: '2025-01-01T00:00:00Z' },
      ]),
    ).toBe(0.3);
    expect(withValues([{ value: 0.9, unit: PriceUnit.kg }])).toBe(0.9);
    // Equal dates: the later in the list.
    expect(
      withValues([
        { value: 0.1, unit: PriceUnit.kg, valueDate: '2024-01-01T00:00:00Z' },
        { value: 0.2, unit: PriceUnit.kg, valueDate: '2024-01-01T00:00:00Z' },
      ]),
    ).toBe(0.2);
    expect(withValues([{ value: 1200, unit: PriceUnit.m3, valueDate: '2024-01-01T00:00:00Z' }])).toBe(1.2);
  });
});

describe('financialFigures', () => {
  it('answers zeros with all seven levels for an empty building', () => {
    const figures = financialFigures([], createCatalogue(), { grossSurfaceArea: 500 });
    expect(figures).toEqual({
      currentValue: 0,
      currentValuePerMaterialFamily: {},
      ncwValue: 0,
      ncwValuePerBuildingLevel: LEVELS_IN_ORDER.map(([id, label]) => ({ id, label, value: 0 })),
    });
  });

  it('spreads demolition only over elements with a material; the others carry neither value nor cost', () => {
    const catalogue = createCatalogue([priced('brick', 'stone', 0.1, {})]);
    const elements: CalcElement[] = [
      materialElement('a', 'brick', 100, 'Skin'),
      { id: 'unmapped', weight: 10_000, brandLayerId: layerId('Skin') },
      { id: 'dangling', weight: 10_000, mapping: { type: ElementType.Material, id: 'gone' }, brandLayerId: layerId('Skin') },
    ];
    const figures = financialFigures(elements, catalogue, { grossSurfaceArea: 10 });
    expectWithin(figures.currentValue, 0.1 * 100 - 300, 1e-9);
  });

  it('puts an element without a known layer on Unknown, for the building’s expectedLifespan years, else 50', () => {
    const catalogue = createCatalogue([priced('brick', 'stone', 1, {})]);
    const elements = [materialElement('a', 'brick', 100, null)];
    const rates = { inflation: 0, bdbIndex: 0, discountRate: 0.1 };
    const unknown = (building: CalcBuilding) => financialFigures(elements, catalogue, building, rates).ncwValuePerBuildingLevel.find((level) => level.id === BuildingLevel.Unknown.id)?.value;
    expectWithin(unknown({}), 100 / 1.1 ** 50, 1e-9);
    expectWithin(unknown({ expectedLifespan: 20 }), 100 / 1.1 ** 20, 1e-9);
    expect(financialYears({}, 'Site')).toBe(500);
    expect(financialYears({ expectedLifespanServices: 12 }, 'Services')).toBe(12);
    expect(financialYears({ expectedLifespanServices: 0 }, 'Services')).toBe(15);
    expect(financialYears({}, 'SpacePlan')).toBe(10);
    expect(financialYears({}, 'Stuff')).toBe(5);
  });

  it('allows negative values: a negative price is a disposal cost', () => {
    const catalogue = createCatalogue([priced('asbestos', 'stone', -0.5, { transportCosts: 0.01 })]);
    const figures = financialFigures([materialElement('a', 'asbestos', 1000, 'Structure')], catalogue, {});
    expectWithin(figures.currentValue, -510, 1e-9);
    expect(figures.ncwValue).toBeLessThan(0);
  });

  it('values products through their children’s materials, by family; an unnamed family is "unknown"', () => {
    const catalogue = createCatalogue(
      [priced('steel', 'metal', 1, {}), material('filler', { elementFamily: null, financialValues: [{ value: 2, unit: PriceUnit.kg }] })],
      [{ id: 'panel', type: ProductType.AreaProduct, children: [{ childId: 'steel', value: 3 }, { childId: 'filler', value: 1 }] }],
    );
    const element: CalcElement = { id: 'p', area: 10, mapping: { type: ElementType.AreaProduct, id: 'panel' }, brandLayerId: layerId('Skin') };
    const figures = financialFigures([element], catalogue, {});
    expect(figures.currentValuePerMaterialFamily).toEqual({ metal: 30, unknown: 20 });
    expect(figures.currentValue).toBe(50);
  });
});
