import { describe, expect, it } from 'vitest';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { elementChangesOf, elementFormErrors, elementFormOf } from '../../../../../renderer/views/files/element-form';

const row = {
  id: 'E1',
  buildingFileId: 'f',
  name: 'Wall',
  materialName: 'Beton',
  typeName: null,
  elementClass: 'IfcWall',
  volume: 1.5,
  area: null,
  height: 2.7,
  width: 0.2,
  length: 3,
  weight: null,
  mapping: null,
  phaseMatch: null,
  brandLayerMatch: null,
  classificationMatch: null,
  phaseLookup: ['New', 'Existing'],
  classificationLookup: null,
  floor: '00',
} satisfies ElementRow;

describe('the element form', () => {
  it('shows absent text as empty, and the first of a lookup list', () => {
    const form = elementFormOf(row);
    expect(form.typeName).toBe('');
    expect(form.phaseLookup).toBe('New');
    expect(form.classificationLookup).toBe('');
    expect(form.area).toBeNull();
  });

  it('makes changes of the edited fields only, trimmed, with an emptied field as null', () => {
    const before = elementFormOf(row);
    const after = { ...before, name: '  Wall checked  ', materialName: '', volume: 2, floor: '00 ' };
    expect(elementChangesOf(before, after)).toEqual({ name: 'Wall checked', materialName: null, volume: 2 });
    expect(elementChangesOf(before, { ...before })).toEqual({});
  });

  it('sends a changed mapping as materialId, and a removed one as null', () => {
    const mapped = elementFormOf({ ...row, mapping: { type: 10, id: 'm1' } });
    expect(mapped.materialId).toBe('m1');
    expect(elementChangesOf(mapped, { ...mapped, materialId: 'm2' })).toEqual({ materialId: 'm2' });
    expect(elementChangesOf(mapped, { ...mapped, materialId: '' })).toEqual({ materialId: null });
  });

  it('refuses negative and non-finite quantities, and accepts none at all', () => {
    const form = { ...elementFormOf(row), volume: -1, weight: Number.NaN, area: null, height: 0 };
    expect(elementFormErrors(form)).toEqual({ volume: 'negative', weight: 'not-finite' });
  });
});
