/** What counts and why not: the reasons in their order, what an element is measured by, the groups, the sums. */
import { describe, expect, it } from 'vitest';
import { ElementType, ProductType } from '../../../shared/api/enums';
import { NOT_COUNTED_REASONS } from '../../../shared/api/schemas';
import {
  countingTally,
  groupKeyText,
  isMeasured,
  notCountedReason,
  reasonGroupKey,
  unmappedGroupKey,
  type CountingFacts,
} from '../../../shared/counting';

const all: CountingFacts = { mapped: true, measured: true, weighed: true, layered: true, circular: true };

describe('notCountedReason', () => {
  it('names the first reason that applies, the element’s own before its file’s', () => {
    expect(notCountedReason(all, true)).toBeNull();
    expect(notCountedReason(all, false)).toBe('file-not-counted');
    expect(notCountedReason({ ...all, circular: false }, false)).toBe('no-circular-data');
    expect(notCountedReason({ ...all, layered: false, circular: false }, true)).toBe('no-building-layer');
    expect(notCountedReason({ ...all, weighed: false, layered: false }, true)).toBe('no-mass');
    expect(notCountedReason({ ...all, measured: false, weighed: false }, true)).toBe('no-quantity');
    expect(notCountedReason({ mapped: false, measured: false, weighed: false, layered: false, circular: false }, false)).toBe('no-material');
  });

  it('checks in the order the schema lists the reasons', () => {
    const ladder: (keyof CountingFacts)[] = ['mapped', 'measured', 'weighed', 'layered', 'circular'];
    const found = ladder.map((fact) => notCountedReason({ ...all, [fact]: false }, false));
    expect([...found, notCountedReason(all, false)]).toEqual([...NOT_COUNTED_REASONS]);
  });
});

describe('isMeasured', () => {
  it('asks for a weight or the quantity the mapping’s type is measured by', () => {
    expect(isMeasured({ weight: 12 }, ProductType.AreaProduct)).toBe(true);
    expect(isMeasured({ volume: 1 }, ElementType.Material)).toBe(true);
    expect(isMeasured({ area: 1 }, ElementType.Material)).toBe(false);
    expect(isMeasured({ volume: 1 }, ProductType.VolumeProduct)).toBe(true);
    expect(isMeasured({ volume: 1 }, ProductType.AreaProduct)).toBe(false);
    expect(isMeasured({ area: 2 }, ProductType.AreaProduct)).toBe(true);
    expect(isMeasured({ length: 2 }, ProductType.LengthProduct)).toBe(true);
    expect(isMeasured({}, ProductType.QuantityProduct)).toBe(true);
    expect(isMeasured({ count: 0 }, ProductType.QuantityProduct)).toBe(false);
    expect(isMeasured({ volume: 0, weight: -1 }, ElementType.Material)).toBe(false);
    expect(isMeasured({ volume: Number.NaN }, ElementType.Material)).toBe(false);
    expect(isMeasured({ volume: 1 }, 99)).toBe(false);
  });
});

describe('the groups', () => {
  it('put unmapped elements by material name, else by IFC class and type name', () => {
    expect(unmappedGroupKey({ materialName: 'Brick', elementClass: 'IfcWall', typeName: 'W1' })).toEqual({ materialName: 'Brick', elementClass: null, typeName: null, mapping: null });
    expect(unmappedGroupKey({ materialName: ' ', elementClass: 'IfcDoor', typeName: 'Single-Flush' })).toEqual({ materialName: null, elementClass: 'IfcDoor', typeName: 'Single-Flush', mapping: null });
    expect(unmappedGroupKey({})).toEqual({ materialName: null, elementClass: null, typeName: null, mapping: null });
  });

  it('put each reason’s elements by what fixes them', () => {
    const element = { materialName: 'Oak', elementClass: 'IfcMember', typeName: 'Mullion', mapping: { type: ElementType.Material, id: 'ABC' } };
    expect(reasonGroupKey('no-mass', element).mapping).toEqual({ type: ElementType.Material, id: 'abc' });
    expect(reasonGroupKey('no-circular-data', element).materialName).toBeNull();
    expect(reasonGroupKey('no-quantity', element)).toMatchObject({ elementClass: 'IfcMember', typeName: 'Mullion', mapping: null });
    expect(reasonGroupKey('no-building-layer', element)).toMatchObject({ elementClass: 'IfcMember', typeName: null });
    expect(reasonGroupKey('no-material', element).materialName).toBe('Oak');
    expect(groupKeyText(reasonGroupKey('file-not-counted', element))).toBe(groupKeyText(reasonGroupKey('file-not-counted', {})));
  });
});

describe('the counts', () => {
  it('count by reason in order, with the elements that have no volume', () => {
    const tally = countingTally(true);
    expect(tally.add({ ...all, layered: false }, 2)).toBe('no-building-layer');
    expect(tally.add({ ...all, mapped: false }, null)).toBe('no-material');
    expect(tally.add(all, 3)).toBeNull();
    expect(tally.add({ ...all, mapped: false }, 1)).toBe('no-material');
    const one = tally.finish();
    expect(one).toEqual({
      elements: 4,
      volume: 6,
      counted: { elements: 1, volume: 3 },
      notCounted: [
        { reason: 'no-material', elements: 2, volume: 1, withoutVolume: 1 },
        { reason: 'no-building-layer', elements: 1, volume: 2, withoutVolume: 0 },
      ],
    });
    expect(countingTally(false).finish()).toEqual({ elements: 0, volume: 0, counted: { elements: 0, volume: 0 }, notCounted: [] });
  });
});
