/**
 * Mass and product expansion (decisions §6 "Mass", README "Mass and product expansion"): weight first, volume ×
 * specificWeight, children scaled per ProductType, default dimensions, inherit flags, product reuse, lifetimes,
 * cycles and missing references.
 */
import { describe, expect, it } from 'vitest';
import { ElementDimensionType, ElementType, ProductType } from '../../../../shared/api/enums';
import { createCatalogue, type CalcElement, type CalcProduct, type CalcProductChild } from '../../../../server/calc/inputs';
import { elementMass, expandElement, type MaterialContribution } from '../../../../server/calc/mass';
import { MAX_PRODUCT_DEPTH } from '../../../../server/calc/product-composition';
import { expectWithin, material } from './calc-test-support';

const steel = material('steel', {
  elementFamily: 'metal',
  specificWeight: 7850,
  lifeTime: 80,
  circular: {
    recycledPercentageFeedstock: 0.6,
    rapidRenewablesPercentageFeedstock: 0.1,
    recycledPercentageEndOfLife: 0.9,
    efficiencyPercentageRecyclingFeedstock: 0.8,
    efficiencyPercentageRecyclingEndOfLife: 0.7,
  },
});
const wood = material('wood', { elementFamily: 'wood', specificWeight: 500, circular: { rapidRenewablesPercentageFeedstock: 1 } });

function product(id: string, type: number, children: CalcProductChild[], extra: Partial<CalcProduct> = {}): CalcProduct {
  return { id, type, children, ...extra };
}

function mappedTo(type: number, id: string, quantities: Partial<CalcElement> = {}): CalcElement {
  return { id: 'e', mapping: { type, id }, ...quantities };
}

function byMaterial(contributions: readonly MaterialContribution[], materialId: string | null): MaterialContribution {
  const found = contributions.find((part) => part.materialId === materialId);
  if (found === undefined) throw new Error(`no part of ${String(materialId)}`);
  return found;
}

describe('elements mapped to a material', () => {
  const catalogue = createCatalogue([steel, material('no-density', { specificWeight: null })]);

  it('uses the weight when > 0, else volume × specificWeight', () => {
    expect(elementMass(mappedTo(ElementType.Material, 'steel', { weight: 120, volume: 1 }), catalogue)).toBe(120);
    expect(elementMass(mappedTo(ElementType.Material, 'steel', { weight: 0, volume: 2 }), catalogue)).toBe(15_700);
    expect(elementMass(mappedTo(ElementType.Material, 'steel', { weight: -3, volume: 2 }), catalogue)).toBe(15_700);
    expect(elementMass(mappedTo(ElementType.Material, 'steel', { volume: -2 }), catalogue)).toBe(0);
    expect(elementMass(mappedTo(ElementType.Material, 'no-density', { volume: 2 }), catalogue)).toBe(0);
  });

  it('carries the material figures and lifetime, with no reuse', () => {
    const expansion = expandElement(mappedTo(ElementType.Material, 'steel', { volume: 1 }), catalogue);
    expect(expansion.knownMaterial).toBe(true);
    expect(expansion.contributions).toHaveLength(1);
    const [part] = expansion.contributions;
    expect(part).toMatchObject({ source: 'material', materialId: 'steel', productId: null, mass: 7850, lifetime: 80 });
    expect(part?.circular).toEqual({
      recycledFeedstock: 0.6,
      rapidRenewablesFeedstock: 0.1,
      reusedFeedstock: 0,
      recycledEndOfLife: 0.9,
      reusedEndOfLife: 0,
      efficiencyFeedstock: 0.8,
      efficiencyEndOfLife: 0.7,
    });
  });

  it('matches catalogue ids case-insensitively', () => {
    expect(elementMass(mappedTo(ElementType.Material, 'STEEL', { volume: 1 }), catalogue)).toBe(7850);
  });

  it('keeps an unmapped or dangling element as unknown, with its weight only', () => {
    const unmapped = expandElement({ id: 'e', weight: 40, volume: 3 }, catalogue);
    expect(unmapped.knownMaterial).toBe(false);
    expect(unmapped.mass).toBe(40);
    expect(unmapped.contributions[0]?.source).toBe('unknown');
    const dangling = expandElement(mappedTo(ElementType.Material, 'nothing', { volume: 3 }), catalogue);
    expect(dangling).toEqual({ mass: 0, contributions: [], knownMaterial: false });
    const wrongType = expandElement(mappedTo(99, 'steel', { weight: 5 }), catalogue);
    expect(wrongType.knownMaterial).toBe(false);
    expect(wrongType.mass).toBe(5);
  });
});

describe('elements mapped to a product', () => {
  it.each([
    { type: ProductType.VolumeProduct, quantities: { volume: 2.5 }, units: 2.5 },
    { type: ProductType.AreaProduct, quantities: { area: 12 }, units: 12 },
    { type: ProductType.LengthProduct, quantities: { length: 7 }, units: 7 },
    { type: ProductType.QuantityProduct, quantities: {}, units: 1 },
    { type: ProductType.QuantityProduct, quantities: { count: 4 }, units: 4 },
  ])('scales the children of product type $type by its quantity ($units units)', ({ type, quantities, units }) => {
    const catalogue = createCatalogue([steel, wood], [product('p', type, [{ childId: 'steel', value: 10 }, { childId: 'wood', value: 2 }])]);
    const expansion = expandElement(mappedTo(type, 'p', { volume: 99, area: 99, length: 99, ...quantities }), catalogue);
    expect(expansion.knownMaterial).toBe(true);
    expectWithin(byMaterial(expansion.contributions, 'steel').mass, 10 * units, 1e-9);
    expectWithin(byMaterial(expansion.contributions, 'wood').mass, 2 * units, 1e-9);
    expectWithin(expansion.mass, 12 * units, 1e-9);
    expect(byMaterial(expansion.contributions, 'steel').productId).toBe('p');
  });

  it('has no mass without the quantity its type needs (or with a count that is not > 0)', () => {
    const catalogue = createCatalogue([steel], [product('area', ProductType.AreaProduct, [{ childId: 'steel', value: 10 }]), product('pieces', ProductType.QuantityProduct, [{ childId: 'steel', value: 10 }])]);
    expect(elementMass(mappedTo(ProductType.AreaProduct, 'area', { volume: 3, length: 2 }), catalogue)).toBe(0);
    expect(elementMass(mappedTo(ProductType.QuantityProduct, 'pieces', { count: 0 }), catalogue)).toBe(0);
  });

  it('reads children values per default dimension of the product’s own measure', () => {
    const catalogue = createCatalogue(
      [steel],
      [
        product('panel', ProductType.AreaProduct, [{ childId: 'steel', value: 30 }], {
          defaultDimensions: [
            { dimensionType: ElementDimensionType.Width, dimensionValue: 0.6 },
            { dimensionType: ElementDimensionType.Area, dimensionValue: 2 },
          ],
        }),
      ],
    );
    // 30 kg per 2 m² → 15 kg/m² × 10 m².
    expect(elementMass(mappedTo(ProductType.AreaProduct, 'panel', { area: 10 }), catalogue)).toBe(150);
  });

  it('divides a weighed product by its composition', () => {
    const catalogue = createCatalogue([steel, wood], [product('p', ProductType.VolumeProduct, [{ childId: 'steel', value: 30 }, { childId: 'wood', value: 10 }])]);
    const expansion = expandElement(mappedTo(ProductType.VolumeProduct, 'p', { volume: 5, weight: 100 }), catalogue);
    expect(expansion.mass).toBe(100);
    expect(byMaterial(expansion.contributions, 'steel').mass).toBe(75);
    expect(byMaterial(expansion.contributions, 'wood').mass).toBe(25);
  });

  it('expands nested products: a product child counts in units of the child', () => {
    const catalogue = createCatalogue(
      [steel, wood],
      [
        product('frame', ProductType.LengthProduct, [{ childId: 'wood', value: 3 }]),
        product('door', ProductType.QuantityProduct, [
          { childId: 'frame', value: 5 },
          { childId: 'steel', value: 2 },
        ]),
      ],
    );
    const expansion = expandElement(mappedTo(ProductType.QuantityProduct, 'door', { count: 2 }), catalogue);
    expect(byMaterial(expansion.contributions, 'wood').mass).toBe(30);
    expect(byMaterial(expansion.contributions, 'wood').productId).toBe('frame');
    expect(byMaterial(expansion.contributions, 'steel').mass).toBe(4);
    expect(expansion.mass).toBe(34);
  });

  it('merges equal parts reached along several paths (a shared sub-product), and stays fast on deep diamonds', () => {
    const products: CalcProduct[] = [product('level-0', ProductType.QuantityProduct, [{ childId: 'steel', value: 1 }])];
    for (let level = 1; level <= 25; level += 1) {
      const below = `level-${level - 1}`;
      products.push(product(`level-${level}`, ProductType.QuantityProduct, [{ childId: below, value: 0.5 }, { childId: below, value: 0.5 }]));
    }
    const catalogue = createCatalogue([steel], products);
    const started = performance.now();
    const expansion = expandElement(mappedTo(ProductType.QuantityProduct, 'level-25'), catalogue);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(expansion.contributions).toHaveLength(1);
    expectWithin(expansion.mass, 1, 1e-9);
    expect(expansion.knownMaterial).toBe(true);
  });

  it('uses a childless product’s own figures, with mass only from the weight', () => {
    const catalogue = createCatalogue(
      [],
      [
        product('pump', ProductType.QuantityProduct, [], {
          circular: { recycledPercentageFeedstock: 0.4, productReusedPercentageFeedstock: 0.5, functionalLifetime: 25, efficiencyPercentageRecyclingFeedstock: 0.9 },
        }),
        product('derived', ProductType.QuantityProduct, [], {
          circular: { productReusedPercentageFeedstock: 0.5, productRecycledPercentageFeedstock: 0.2, productRecycledPercentageEndOfLife: 0.3 },
        }),
      ],
    );
    const weighed = expandElement(mappedTo(ProductType.QuantityProduct, 'pump', { weight: 80 }), catalogue);
    expect(weighed.knownMaterial).toBe(true);
    expect(weighed.contributions).toHaveLength(1);
    expect(weighed.contributions[0]).toMatchObject({ source: 'product', productId: 'pump', materialId: null, mass: 80, lifetime: 25 });
    expectWithin(weighed.contributions[0]?.circular.recycledFeedstock, 0.2, 1e-12);
    expectWithin(weighed.contributions[0]?.circular.reusedFeedstock, 0.5, 1e-12);
    expect(weighed.contributions[0]?.circular.efficiencyFeedstock).toBe(0.9);
    expect(elementMass(mappedTo(ProductType.QuantityProduct, 'pump'), catalogue)).toBe(0);
    // Only the product-level shares given: they are the effective shares.
    const derived = expandElement(mappedTo(ProductType.QuantityProduct, 'derived', { weight: 1 }), catalogue).contributions[0];
    expectWithin(derived?.circular.recycledFeedstock, 0.2, 1e-12);
    expectWithin(derived?.circular.recycledEndOfLife, 0.3, 1e-12);
  });
});

describe('circular figures through products', () => {
  it('applies the product’s reuse shares to its materials, compounding through nested products', () => {
    const catalogue = createCatalogue(
      [steel],
      [
        product('inner', ProductType.QuantityProduct, [{ childId: 'steel', value: 1 }], {
          circular: { productReusedPercentageFeedstock: 0.5, productReusedPercentageEndOfLife: 0.2 },
        }),
        product('outer', ProductType.QuantityProduct, [{ childId: 'inner', value: 1 }], {
          circular: { productReusedPercentageFeedstock: 0.5 },
        }),
      ],
    );
    const inner = expandElement(mappedTo(ProductType.QuantityProduct, 'inner'), catalogue).contributions[0]?.circular;
    expectWithin(inner?.reusedFeedstock, 0.5, 1e-12);
    expectWithin(inner?.recycledFeedstock, 0.3, 1e-12);
    expectWithin(inner?.rapidRenewablesFeedstock, 0.05, 1e-12);
    expectWithin(inner?.reusedEndOfLife, 0.2, 1e-12);
    expectWithin(inner?.recycledEndOfLife, 0.72, 1e-12);
    const outer = expandElement(mappedTo(ProductType.QuantityProduct, 'outer'), catalogue).contributions[0]?.circular;
    expectWithin(outer?.reusedFeedstock, 0.75, 1e-12);
    expectWithin(outer?.recycledFeedstock, 0.15, 1e-12);
  });

  it('takes a relation’s figures where it does not inherit, the child’s where it does, and the child’s for a null figure', () => {
    const relation = (circular: CalcProductChild['circular']) =>
      createCatalogue([steel], [product('p', ProductType.QuantityProduct, [{ childId: 'steel', value: 1, circular }])]);
    const figures = (circular: CalcProductChild['circular']) =>
      expandElement(mappedTo(ProductType.QuantityProduct, 'p'), relation(circular)).contributions[0]?.circular;

    const inheritAll = figures({ inheritFeedstockPercentages: true, recycledPercentageFeedstock: 0.1, inheritEndOfLifePercentages: true, recycledPercentageEndOfLife: 0.1, inheritEfficiencyPercentages: true, efficiencyPercentageRecyclingFeedstock: 0.1 });
    expect(inheritAll).toMatchObject({ recycledFeedstock: 0.6, recycledEndOfLife: 0.9, efficiencyFeedstock: 0.8 });

    const overrideAll = figures({
      inheritFeedstockPercentages: false,
      recycledPercentageFeedstock: 0.2,
      rapidRenewablesPercentageFeedstock: 0.3,
      inheritEndOfLifePercentages: false,
      recycledPercentageEndOfLife: 0.4,
      landfillPercentageEndOfLife: 0.6,
      inheritEfficiencyPercentages: false,
      efficiencyPercentageRecyclingFeedstock: 0.5,
      efficiencyPercentageRecyclingEndOfLife: 0.6,
    });
    expect(overrideAll).toEqual({
      recycledFeedstock: 0.2,
      rapidRenewablesFeedstock: 0.3,
      reusedFeedstock: 0,
      recycledEndOfLife: 0.4,
      reusedEndOfLife: 0,
      efficiencyFeedstock: 0.5,
      efficiencyEndOfLife: 0.6,
    });

    // Absent flags are false; absent figures fall back to the child.
    expect(figures({ recycledPercentageFeedstock: 0.25 })).toMatchObject({ recycledFeedstock: 0.25, rapidRenewablesFeedstock: 0.1, recycledEndOfLife: 0.9 });
    expect(figures(null)).toMatchObject({ recycledFeedstock: 0.6, recycledEndOfLife: 0.9 });
    // Each flag governs its own group only.
    expect(figures({ inheritFeedstockPercentages: true, recycledPercentageFeedstock: 0.2, inheritEndOfLifePercentages: false, recycledPercentageEndOfLife: 0.1 })).toMatchObject({
      recycledFeedstock: 0.6,
      recycledEndOfLife: 0.1,
    });
  });

  it('lets the outer relation win over an inner one', () => {
    const catalogue = createCatalogue(
      [steel],
      [
        product('inner', ProductType.QuantityProduct, [{ childId: 'steel', value: 1, circular: { inheritFeedstockPercentages: false, recycledPercentageFeedstock: 0.2 } }]),
        product('outer', ProductType.QuantityProduct, [{ childId: 'inner', value: 1, circular: { inheritFeedstockPercentages: false, recycledPercentageFeedstock: 0.45 } }]),
        product('passthrough', ProductType.QuantityProduct, [{ childId: 'inner', value: 1, circular: { inheritFeedstockPercentages: true } }]),
      ],
    );
    expect(expandElement(mappedTo(ProductType.QuantityProduct, 'outer'), catalogue).contributions[0]?.circular.recycledFeedstock).toBe(0.45);
    expect(expandElement(mappedTo(ProductType.QuantityProduct, 'passthrough'), catalogue).contributions[0]?.circular.recycledFeedstock).toBe(0.2);
  });

  it('takes L from the innermost product with a functional lifetime, else the material', () => {
    const catalogue = createCatalogue(
      [steel, wood],
      [
        product('seal', ProductType.QuantityProduct, [{ childId: 'wood', value: 1 }], { circular: { functionalLifetime: 10 } }),
        product('facade', ProductType.QuantityProduct, [{ childId: 'seal', value: 1 }, { childId: 'steel', value: 1 }], { circular: { functionalLifetime: 40 } }),
        product('plain', ProductType.QuantityProduct, [{ childId: 'steel', value: 1 }, { childId: 'wood', value: 1 }]),
      ],
    );
    const facade = expandElement(mappedTo(ProductType.QuantityProduct, 'facade'), catalogue).contributions;
    expect(byMaterial(facade, 'wood').lifetime).toBe(10);
    expect(byMaterial(facade, 'steel').lifetime).toBe(40);
    const plain = expandElement(mappedTo(ProductType.QuantityProduct, 'plain'), catalogue).contributions;
    expect(byMaterial(plain, 'steel').lifetime).toBe(80);
    expect(byMaterial(plain, 'wood').lifetime).toBeNull();
  });
});

describe('broken catalogues', () => {
  it('cuts a cycle: the element has an unknown material, the rest of its mass still counts', () => {
    const catalogue = createCatalogue(
      [steel],
      [
        product('a', ProductType.QuantityProduct, [{ childId: 'b', value: 1 }, { childId: 'steel', value: 5 }]),
        product('b', ProductType.QuantityProduct, [{ childId: 'a', value: 1 }]),
        product('self', ProductType.QuantityProduct, [{ childId: 'self', value: 2 }, { childId: 'steel', value: 1 }]),
      ],
    );
    for (const id of ['a', 'b', 'self']) {
      const expansion = expandElement(mappedTo(ProductType.QuantityProduct, id), catalogue);
      expect(expansion.knownMaterial).toBe(false);
      expect(expansion.contributions.some((part) => part.source === 'unknown')).toBe(true);
    }
    const a = expandElement(mappedTo(ProductType.QuantityProduct, 'a'), catalogue);
    expect(byMaterial(a.contributions, 'steel').mass).toBe(5);
    const b = expandElement(mappedTo(ProductType.QuantityProduct, 'b'), catalogue);
    expect(byMaterial(b.contributions, 'steel').mass).toBe(5);
    // The answer does not depend on which product was expanded first (nothing cyclic is cached).
    expect(expandElement(mappedTo(ProductType.QuantityProduct, 'a'), catalogue)).toEqual(a);
  });

  it('treats nesting deeper than the limit like a cycle', () => {
    const products: CalcProduct[] = [product('chain-0', ProductType.QuantityProduct, [{ childId: 'steel', value: 1 }])];
    for (let level = 1; level <= MAX_PRODUCT_DEPTH + 2; level += 1) {
      products.push(product(`chain-${level}`, ProductType.QuantityProduct, [{ childId: `chain-${level - 1}`, value: 1 }]));
    }
    const catalogue = createCatalogue([steel], products);
    expect(expandElement(mappedTo(ProductType.QuantityProduct, `chain-${MAX_PRODUCT_DEPTH + 2}`), catalogue).knownMaterial).toBe(false);
    expect(expandElement(mappedTo(ProductType.QuantityProduct, 'chain-5'), catalogue).knownMaterial).toBe(true);
  });

  it('counts a missing child as unknown material and a missing or negative amount as unknown mass', () => {
    const catalogue = createCatalogue(
      [steel],
      [
        product('p', ProductType.QuantityProduct, [
          { childId: 'steel', value: 4 },
          { childId: 'gone', value: 3 },
        ]),
        product('amounts', ProductType.QuantityProduct, [
          { childId: 'steel', value: null },
          { childId: 'steel', value: -2, circular: { recycledPercentageFeedstock: 0.1 } },
        ]),
      ],
    );
    const expansion = expandElement(mappedTo(ProductType.QuantityProduct, 'p'), catalogue);
    expect(expansion.knownMaterial).toBe(false);
    expect(expansion.mass).toBe(4);
    const amounts = expandElement(mappedTo(ProductType.QuantityProduct, 'amounts'), catalogue);
    expect(amounts.knownMaterial).toBe(true);
    expect(amounts.mass).toBe(0);
    // A weighed product whose composition has no usable amounts: the weight is kept, as unknown material.
    const weighed = expandElement(mappedTo(ProductType.QuantityProduct, 'amounts', { weight: 9 }), catalogue);
    expect(weighed.mass).toBe(9);
    expect(byMaterial(weighed.contributions, null).source).toBe('unknown');
  });

  it('keeps a product mapping to a missing product as unknown', () => {
    const expansion = expandElement(mappedTo(ProductType.AreaProduct, 'gone', { area: 3, weight: 12 }), createCatalogue());
    expect(expansion.knownMaterial).toBe(false);
    expect(expansion.contributions).toMatchObject([{ source: 'unknown', productId: 'gone', mass: 12 }]);
  });
});
