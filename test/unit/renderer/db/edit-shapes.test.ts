import { describe, expect, it } from 'vitest';
import { BuildingRequest } from '../../../../shared/api/schemas';
import type { BuildingFileElementResponse } from '../../../../shared/api/schemas';
import { aggregateOf, applyFields, emptyBuilding, replaceBody, requestOf, wireBody } from '../../../../renderer/db/edit-shapes';
import { elementKey } from '../../../../renderer/db/schema';

const FILE = '31111111-1111-4111-8111-111111111111';
const MATERIAL = '41111111-1111-4111-8111-111111111111';
const PRODUCT = '51111111-1111-4111-8111-111111111111';

const element: BuildingFileElementResponse = {
  id: 'E1',
  name: 'Wall',
  buildingFileId: FILE,
  materialName: 'Beton',
  typeName: null,
  elementClass: 'IfcWall',
  volume: 2,
  area: null,
  height: null,
  width: null,
  length: null,
  weight: null,
  mapping: { type: 10, id: MATERIAL },
  phaseMatch: { id: MATERIAL, name: 'New' },
  brandLayerMatch: null,
  classificationMatch: null,
  phaseLookup: ['Nieuw', 'Casco'],
  classificationLookup: ['21.24'],
  floor: '00',
};

describe('requests', () => {
  it("takes a building's request fields and nothing the server derives", () => {
    const request = requestOf('buildings', { ...emptyBuilding('b', 'p'), name: 'Home', isDirty: true, images: ['a.png'] });

    expect(Object.keys(request).sort()).toEqual(Object.keys(BuildingRequest.properties).sort());
    expect(request).toMatchObject({ name: 'Home', portfolioId: 'p' });
  });

  it("says an element's mapping as materialId and its lookups as the one value the request carries", () => {
    expect(requestOf('elements', element)).toEqual({
      id: 'E1',
      name: 'Wall',
      materialName: 'Beton',
      materialId: MATERIAL,
      typeName: null,
      elementClass: 'IfcWall',
      volume: 2,
      area: null,
      height: null,
      width: null,
      length: null,
      weight: null,
      phaseLookup: 'Nieuw, Casco',
      classificationLookup: '21.24',
      floor: '00',
    });
    expect(requestOf('elements', { ...element, mapping: null, phaseLookup: [] })).toMatchObject({ materialId: null, phaseLookup: null });
  });

  it('keeps an element mapped as it is unless its names change, which leaves the mapping to refinement', () => {
    expect(replaceBody('elements', element, { volume: 3 })).toMatchObject({ volume: 3, materialId: MATERIAL });
    expect(replaceBody('elements', element, { materialName: 'Hout' })).toMatchObject({ materialName: 'Hout', materialId: null });
    expect(replaceBody('elements', element, { typeName: 'Kozijn', materialId: PRODUCT })).toMatchObject({ materialId: PRODUCT });
  });

  it("sends a list's items with their request fields", () => {
    const request = requestOf('materialMatches', [{ value: 'Beton', matchType: 10, extra: true }]);

    expect(wireBody('materialMatches', request)).toEqual([{ value: 'Beton', matchType: 10 }]);
  });
});

describe('applying a change to a row', () => {
  it('maps an element to the catalogue item its materialId names, with the type of a product', () => {
    const changed = applyFields('elements', element, { materialId: PRODUCT, phaseLookup: '', classificationLookup: '22.1' }, new Map([[PRODUCT, 40]]));

    expect(changed).toMatchObject({ mapping: { type: 40, id: PRODUCT }, phaseLookup: [], classificationLookup: ['22.1'] });
    expect(applyFields('elements', element, { materialId: null })).toMatchObject({ mapping: null });
  });

  it('sets nested fields by path and replaces a list whole', () => {
    expect(applyFields('materials', { name: { nl: 'a', en: 'b' } }, { 'name.nl': 'c' })).toEqual({ name: { nl: 'c', en: 'b' } });
    expect(applyFields('productMatches', [{ value: 'a' }], { items: [] })).toEqual([]);
  });
});

describe('aggregates', () => {
  it("groups a file's elements, and a catalogue item with its lists", () => {
    expect(aggregateOf('elements', elementKey(FILE, 'E1'))).toBe(`file:${FILE}`);
    expect(aggregateOf('materialFinancialValues', MATERIAL)).toBe(`material:${MATERIAL}`);
    expect(aggregateOf('productChildren', PRODUCT)).toBe(aggregateOf('products', PRODUCT));
    expect(aggregateOf('buildings', 'local:x')).toBe('building:local:x');
  });
});
