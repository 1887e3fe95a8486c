/** Validation figures (decisions §8): fractions by number and by volume, and the empty cases. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ElementType } from '../../../../shared/api/enums';
import { createCatalogue, type CalcElement } from '../../../../server/calc/inputs';
import { elementChecks, validationFigures } from '../../../../server/calc/validation';
import { material } from './calc-test-support';

const catalogue = createCatalogue([material('brick', { specificWeight: 1800 }), material('airy', { specificWeight: null })]);

const ZERO = {
  percentageClassificationAssignedByNumber: 0,
  percentageClassificationAssignedByVolume: 0,
  percentageVolumeBaseQuantityAssignedByNumber: 0,
  percentageAreaBaseQuantityAssignedByNumber: 0,
  percentageLengthBaseQuantityAssignedByNumber: 0,
  percentageBaseQuantitiesAssignedByNumber: 0,
  percentageMaterialSpecifiedByNumber: 0,
  percentageMaterialSpecifiedByVolume: 0,
  percentageElementsWithKnownMassByNumber: 0,
  percentageElementsMappedByNumber: 0,
  percentageElementsMappedByVolume: 0,
};

describe('validationFigures', () => {
  it('is all 0 without elements', () => {
    expect(validationFigures([], catalogue)).toEqual(ZERO);
  });

  it('gives 0 by volume when no element has a volume', () => {
    const figures = validationFigures([{ id: 'a', area: 2, classificationId: 'c', materialName: 'Brick' }], catalogue);
    expect(figures.percentageClassificationAssignedByNumber).toBe(1);
    expect(figures.percentageClassificationAssignedByVolume).toBe(0);
    expect(figures.percentageMaterialSpecifiedByVolume).toBe(0);
    expect(figures.percentageElementsMappedByVolume).toBe(0);
  });

  it('counts each check by number and by volume', () => {
    const elements: CalcElement[] = [
      // Classified, all quantities, material named, mapped, mass from volume × specificWeight.
      { id: 'a', volume: 6, area: 10, length: 4, classificationId: 'c1', materialName: 'Brick', mapping: { type: ElementType.Material, id: 'brick' } },
      // Material given by id, mapped to a material without density: no mass.
      { id: 'b', volume: 2, area: 0, materialId: 'airy', mapping: { type: ElementType.Material, id: 'airy' } },
      // Blank name, unmapped, but weighed: known mass.
      { id: 'c', volume: 2, length: 3, materialName: '   ', weight: 50 },
      // Nothing at all; a negative volume weighs nothing.
      { id: 'd', volume: -5 },
    ];
    expect(validationFigures(elements, catalogue)).toEqual({
      percentageClassificationAssignedByNumber: 1 / 4,
      percentageClassificationAssignedByVolume: 6 / 10,
      percentageVolumeBaseQuantityAssignedByNumber: 3 / 4,
      percentageAreaBaseQuantityAssignedByNumber: 1 / 4,
      percentageLengthBaseQuantityAssignedByNumber: 2 / 4,
      percentageBaseQuantitiesAssignedByNumber: 3 / 4,
      percentageMaterialSpecifiedByNumber: 2 / 4,
      percentageMaterialSpecifiedByVolume: 8 / 10,
      percentageElementsWithKnownMassByNumber: 2 / 4,
      percentageElementsMappedByNumber: 2 / 4,
      percentageElementsMappedByVolume: 8 / 10,
    });
  });

  it('reads a base quantity as present only when > 0', () => {
    expect(elementChecks({ id: 'a', volume: 0, area: -1, length: Number.NaN }, catalogue)).toMatchObject({
      volume: false,
      area: false,
      length: false,
      baseQuantities: false,
    });
    expect(elementChecks({ id: 'a', length: 0.01 }, catalogue)).toMatchObject({ length: true, baseQuantities: true });
  });

  it('keeps every figure within 0..1', () => {
    const maybeNumber = fc.option(fc.double({ min: -100, max: 100, noNaN: true }), { nil: null });
    const element = fc.record({
      id: fc.string(),
      volume: maybeNumber,
      area: maybeNumber,
      length: maybeNumber,
      weight: maybeNumber,
      classificationId: fc.option(fc.constant('c'), { nil: null }),
      materialName: fc.option(fc.string(), { nil: null }),
      mapping: fc.option(fc.record({ type: fc.constant<number>(ElementType.Material), id: fc.constantFrom('brick', 'airy', 'gone') }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(element, { maxLength: 15 }), (elements) => {
        for (const value of Object.values(validationFigures(elements, catalogue))) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
      { numRuns: 300 },
    );
  });
});
