import { describe, expect, it } from 'vitest';
import { BuildingLevel, ElementType } from '../../../../../shared/api/enums';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { inUnmappedGroup, lacksBuildingLayer, reportTally } from '../../../../../renderer/views/files/local-report';

function row(id: string, fields: Partial<ElementRow> = {}): ElementRow {
  return {
    id,
    buildingFileId: 'f',
    name: null,
    materialName: null,
    typeName: null,
    elementClass: null,
    volume: null,
    area: null,
    height: null,
    width: null,
    length: null,
    weight: null,
    mapping: null,
    phaseMatch: null,
    brandLayerMatch: null,
    classificationMatch: null,
    phaseLookup: null,
    classificationLookup: null,
    floor: null,
    ...fields,
  };
}

const MAPPED = { type: ElementType.Material, id: 'm' };
const SKIN = { id: BuildingLevel.Skin.id, name: 'Skin' };
const UNKNOWN = { id: BuildingLevel.Unknown.id, name: 'Unknown' };

describe('the local report', () => {
  it('counts mapped and layered elements and groups the others, the largest volume first', () => {
    const tally = reportTally();
    tally.add([
      row('1', { materialName: 'Beton', volume: 1, elementClass: 'IfcWall' }),
      row('2', { materialName: 'Glas', volume: 5, elementClass: 'IfcWindow', brandLayerMatch: SKIN }),
      row('3', { materialName: 'Beton', volume: 2, elementClass: 'IfcWall', brandLayerMatch: UNKNOWN }),
    ]);
    tally.add([row('4', { mapping: MAPPED, brandLayerMatch: SKIN, volume: -3 }), row('5', { volume: Number.NaN })]);
    expect(tally.finish()).toEqual({
      elements: 5,
      volume: 8,
      mapped: 1,
      layered: 2,
      unmapped: [
        { key: { materialName: 'Glas', elementClass: null, typeName: null, mapping: null }, elements: 1, volume: 5 },
        { key: { materialName: 'Beton', elementClass: null, typeName: null, mapping: null }, elements: 2, volume: 3 },
        { key: { materialName: null, elementClass: null, typeName: null, mapping: null }, elements: 1, volume: 0 },
      ],
      unlayered: [
        { key: 'IfcWall', elements: 2, volume: 3 },
        { key: null, elements: 1, volume: 0 },
      ],
    });
  });

  it('groups unmapped elements without a material name by IFC class and type name, as the server’s report does', () => {
    const tally = reportTally();
    tally.add([
      row('d1', { elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm', volume: 0.1 }),
      row('d2', { elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm', materialName: ' ', volume: 0.1 }),
      row('d3', { elementClass: 'IfcDoor', typeName: 'Double-Glass', volume: 0.3 }),
      row('m1', { elementClass: 'IfcMember', typeName: 'Mullion', materialName: 'Oak', volume: 0.05 }),
    ]);
    const { unmapped } = tally.finish();
    expect(unmapped.map((group) => [group.key.materialName, group.key.elementClass, group.key.typeName, group.elements])).toEqual([
      [null, 'IfcDoor', 'Double-Glass', 1],
      [null, 'IfcDoor', 'Single-Flush 0915 x 2134mm', 2],
      ['Oak', null, null, 1],
    ]);
    const [, doors] = unmapped;
    expect(inUnmappedGroup(row('d4', { elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm' }), doors!.key)).toBe(true);
    expect(inUnmappedGroup(row('d5', { elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm', mapping: MAPPED }), doors!.key)).toBe(false);
    expect(inUnmappedGroup(row('d6', { elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm', materialName: 'Oak' }), doors!.key)).toBe(false);
  });

  it('counts an element classified here as no longer lacking a building layer', () => {
    const base = row('1', { classificationLookup: null });
    expect(lacksBuildingLayer(base)).toBe(true);
    expect(lacksBuildingLayer({ ...base, classificationLookup: ['21.2'], base })).toBe(false);
    expect(lacksBuildingLayer({ ...base, name: 'Renamed', base })).toBe(true);
  });
});
