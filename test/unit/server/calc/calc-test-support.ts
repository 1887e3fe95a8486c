/** Builders shared by the calc tests. */
import { expect } from 'vitest';
import { BuildingLevel, ElementType, type BuildingLevelName } from '../../../../shared/api/enums';
import type { CalcElement, CalcMaterial } from '../../../../server/calc/inputs';

/** Asserts |actual − expected| ≤ tolerance (the precision test-vectors.md states). */
export function expectWithin(actual: number | null | undefined, expected: number, tolerance: number): void {
  expect(actual).not.toBeNull();
  expect(actual).not.toBeUndefined();
  const difference = Math.abs((actual as number) - expected);
  if (difference > tolerance) {
    expect.fail(`expected ${String(actual)} to be within ${String(tolerance)} of ${String(expected)}`);
  }
}

/** The brandLayerMatch id of a level. */
export function layerId(level: BuildingLevelName): string {
  return BuildingLevel[level].id;
}

/** A material with circular fractions (the rest as given). */
export function material(id: string, overrides: Partial<CalcMaterial> = {}): CalcMaterial {
  return { id, elementFamily: 'stone', specificWeight: 1000, lifeTime: null, circular: {}, ...overrides };
}

/** An element mapped to a material, with a weight. */
export function materialElement(id: string, materialId: string, weight: number, level: BuildingLevelName | null): CalcElement {
  return {
    id,
    weight,
    mapping: { type: ElementType.Material, id: materialId },
    brandLayerId: level === null ? null : layerId(level),
  };
}
