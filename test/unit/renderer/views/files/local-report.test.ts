import { describe, expect, it } from 'vitest';
import { BuildingLevel, ElementType } from '../../../../../shared/api/enums';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { lacksBuildingLayer, reportTally } from '../../../../../renderer/views/files/local-report';

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
        { name: 'Glas', elements: 1, volume: 5 },
        { name: 'Beton', elements: 2, volume: 3 },
        { name: null, elements: 1, volume: 0 },
      ],
      unlayered: [
        { name: 'IfcWall', elements: 2, volume: 3 },
        { name: null, elements: 1, volume: 0 },
      ],
    });
  });

  it('counts an element classified here as no longer lacking a building layer', () => {
    const base = row('1', { classificationLookup: null });
    expect(lacksBuildingLayer(base)).toBe(true);
    expect(lacksBuildingLayer({ ...base, classificationLookup: ['21.2'], base })).toBe(false);
    expect(lacksBuildingLayer({ ...base, name: 'Renamed', base })).toBe(true);
  });
});
