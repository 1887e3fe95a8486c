/**
 * A batch handed between threads with the parts of each split element packed (server/imports/part-batches.ts): packed
 * and copied as a worker's message is, then unpacked, it gives the worker's rows again, arrays and `part` shared.
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { ImportedElement } from '../../../../server/imports/imported-element';
import { splitElement, noPartsYet } from '../../../../server/imports/ifc/element-parts';
import { packParts, unpackParts, type PackedElement } from '../../../../server/imports/part-batches';

function element(id: string, fields: Partial<ImportedElement> = {}): ImportedElement {
  return {
    id,
    name: `Wall ${id}`,
    materialName: 'Baksteen / Minerale wol',
    typeName: 'Spouwmuur',
    elementClass: 'IfcWall',
    volume: 3,
    area: 10,
    height: 2.7,
    width: 0.3,
    length: 3.7,
    weight: 600,
    phaseLookup: ['Bestaand'],
    classificationLookup: ['21.1'],
    floor: 'Level 0',
    classificationHints: [{ source: 'inferred', code: '21' }],
    materialHints: ['Steen'],
    quantitySource: 'model',
    geometryIssue: null,
    part: null,
    ...fields,
  };
}

const layers = {
  kind: 'layer' as const,
  parts: [
    { name: 'Baksteen', share: 0.5, thickness: 0.1 },
    { name: null, share: 0.25, thickness: 0.05 },
    { name: 'Minerale wol', share: 0.25, thickness: 0.05 },
  ],
  shareAssumed: false,
  layersLeftOut: 0,
  fractionsNormalised: false,
};

describe('packed batches', () => {
  const rows = [
    element('A'),
    ...splitElement(element('B'), layers, noPartsYet()),
    ...splitElement(element('C', { volume: null, area: null, weight: null, quantitySource: null }), layers, noPartsYet()),
    element('D'),
  ];

  it('pack the parts of each split element together, the first whole and the others by what they have of their own', () => {
    const packed = packParts(rows);
    expect(packed).toHaveLength(4);
    expect(packed[0]).toBe(rows[0]);
    expect(packed[1]).toEqual({
      first: rows[1],
      others: [
        { id: 'B-L2', materialName: null, volume: 0.5, width: 0.05, weight: 150, quantitySource: 'model' },
        { id: 'B-L3', materialName: 'Minerale wol', volume: 0.5, width: 0.05, weight: 150, quantitySource: 'model' },
      ],
    });
    expect(packed[3]).toBe(rows[7]);
  });

  it('unpacked after a copy between threads, give the worker’s rows again, sharing the first part’s arrays and part', () => {
    const copied = deserialize(serialize(packParts(rows))) as PackedElement[];
    const unpacked = unpackParts(copied);
    expect(unpacked).toStrictEqual(rows);
    const [, first, second, third] = unpacked;
    expect(second?.phaseLookup).toBe(first?.phaseLookup);
    expect(third?.classificationHints).toBe(first?.classificationHints);
    expect(third?.part).toBe(first?.part);
    expect(first?.part).toEqual({ of: 'B', kind: 'layer', shareAssumed: false });
  });

  it('leave a batch without parts as it is', () => {
    const whole = [element('A'), element('B')];
    expect(packParts(whole)).toEqual(whole);
    expect(unpackParts(whole)).toEqual(whole);
  });
});
