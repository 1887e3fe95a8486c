import { describe, expect, it } from 'vitest';
import { ElementType, ProductType } from '../../../../../shared/api/enums';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { focusOf, focusQuery, inFocus } from '../../../../../renderer/views/files/element-focus';
import { inReasonGroup } from '../../../../../renderer/views/files/reason-groups';
import { element } from './file-fixtures';

const OAK = 'aaaaaaaa-0000-4000-8000-000000000001';
const row = (id: string, fields: Partial<ElementRow> = {}) => ({ ...element(id), ...fields }) as ElementRow;
const oak = { type: ElementType.Material, id: OAK };

describe('a group of the report in the grid', () => {
  it('travels in the address and comes back as it went; anything else is no group', () => {
    const mapped = { kind: 'mapped-to', itemId: OAK } as const;
    const typed = { kind: 'class-and-type', elementClass: 'IfcDoor', typeName: null } as const;
    expect(focusOf(focusQuery(mapped)['focus'] as string)).toEqual(mapped);
    expect(focusOf(focusQuery(typed)['focus'] as string)).toEqual(typed);
    expect(focusOf(undefined)).toBeNull();
    expect(focusOf('{"kind":"mapped-to"}')).toBeNull();
    expect(focusOf('not json')).toBeNull();
  });

  it('holds its elements whatever their quantities, so one stays in view while its weight is typed', () => {
    const focus = { kind: 'mapped-to', itemId: OAK.toUpperCase() } as const;
    expect(inFocus(row('a', { mapping: oak }), focus)).toBe(true);
    expect(inFocus(row('b', { mapping: oak, weight: 12 }), focus)).toBe(true);
    expect(inFocus(row('c'), focus)).toBe(false);
    const doors = { kind: 'class-and-type', elementClass: 'IfcDoor', typeName: 'Single' } as const;
    expect(inFocus(row('d', { elementClass: 'IfcDoor', typeName: 'Single' }), doors)).toBe(true);
    expect(inFocus(row('e', { elementClass: 'IfcDoor', typeName: 'Double' }), doors)).toBe(false);
  });
});

describe('the elements of a reason group, as the cache holds them', () => {
  const key = { materialName: null, elementClass: null, typeName: null, mapping: oak };

  it('without a mass: mapped to the item, measured, without a weight', () => {
    expect(inReasonGroup(row('a', { mapping: oak, volume: 1 }), 'no-mass', key)).toBe(true);
    expect(inReasonGroup(row('b', { mapping: oak, volume: 1, weight: 5 }), 'no-mass', key)).toBe(false);
    expect(inReasonGroup(row('c', { mapping: oak, volume: null }), 'no-mass', key)).toBe(false);
  });

  it('without circular data: every element mapped to the item', () => {
    expect(inReasonGroup(row('a', { mapping: oak, weight: 5 }), 'no-circular-data', key)).toBe(true);
    expect(inReasonGroup(row('b'), 'no-circular-data', key)).toBe(false);
  });

  it('without a quantity: mapped, of the class and type, lacking what the mapping measures', () => {
    const doors = { materialName: null, elementClass: 'IfcDoor', typeName: 'Single', mapping: null };
    const panel = { type: ProductType.AreaProduct, id: 'p' };
    expect(inReasonGroup(row('a', { elementClass: 'IfcDoor', typeName: 'Single', mapping: panel, volume: 1 }), 'no-quantity', doors)).toBe(true);
    expect(inReasonGroup(row('b', { elementClass: 'IfcDoor', typeName: 'Single', mapping: panel, area: 2 }), 'no-quantity', doors)).toBe(false);
    expect(inReasonGroup(row('c', { elementClass: 'IfcDoor', typeName: 'Single', volume: null }), 'no-quantity', doors)).toBe(false);
  });
});
