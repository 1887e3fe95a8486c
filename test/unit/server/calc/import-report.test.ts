/**
 * The import report's figures: every breakdown covers each element once, unmapped materials (else IFC class and type
 * name) and unlayered classes are grouped biggest first, each element that does not count is grouped by the first
 * reason that applies and then by what fixes it, and the summary says it in one line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLASSIFICATION_SOURCES, GEOMETRY_ISSUES, MAPPING_SOURCES, QUANTITY_SOURCES } from '../../../../shared/api';
import { ElementType, ProductType, type BuildingLevelName } from '../../../../shared/api/enums';
import { circularAnalysis } from '../../../../server/calc/circularity';
import { importReportFigures, type ReportElement } from '../../../../server/calc/import-report';
import { createCatalogue } from '../../../../server/calc/inputs';
import { layerId, material } from './calc-test-support';

const catalogue = createCatalogue(
  [
    material('concrete', { specificWeight: 2400, circular: { recycledPercentageFeedstock: 0.2 } }),
    material('no-weight', { specificWeight: null, circular: { recycledPercentageFeedstock: 0.2 } }),
  ],
  [{ id: 'door', type: ProductType.QuantityProduct, children: [{ childId: 'concrete', value: 40 }] }],
);

/** An element: unmapped, unclassified and without quantities, unless the fields say otherwise. */
function element(id: string, fields: Partial<ReportElement> & { layer?: BuildingLevelName } = {}): ReportElement {
  const { layer, ...rest } = fields;
  return {
    id,
    volume: null,
    weight: null,
    materialName: null,
    mapping: null,
    brandLayerId: layerId(layer ?? 'Unknown'),
    classificationId: layer === undefined || layer === 'Unknown' ? null : `class-${id}`,
    elementClass: null,
    typeName: null,
    mappingSource: null,
    quantitySource: null,
    geometryIssue: null,
    classificationSource: layer === undefined || layer === 'Unknown' ? null : 'model',
    ...rest,
  };
}

const concrete = { type: ElementType.Material, id: 'concrete' } as const;
const noWeight = { type: ElementType.Material, id: 'no-weight' } as const;

const elements: ReportElement[] = [
  element('counted', { mapping: concrete, mappingSource: 'rule', volume: 2, quantitySource: 'model', layer: 'Structure' }),
  element('by-keyword', { mapping: concrete, mappingSource: 'keyword', volume: 1, quantitySource: 'geometry', layer: 'Skin', classificationSource: 'inferred' }),
  element('unmapped-brick-1', { materialName: 'Brick', volume: 3, quantitySource: 'model', layer: 'Skin', classificationSource: 'layer' }),
  element('unmapped-brick-2', { materialName: 'Brick', volume: 1, quantitySource: 'model', layer: 'Skin' }),
  element('unmapped-none', { volume: 0.5, quantitySource: 'geometry', layer: 'Structure', elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm' }),
  element('unmapped-blank', { materialName: '  ', layer: 'Structure', elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm' }),
  element('no-layer', { mapping: concrete, mappingSource: 'model', volume: 4, quantitySource: 'model', elementClass: 'IfcBuildingElementProxy' }),
  element('no-quantity', { mapping: concrete, mappingSource: 'rule', layer: 'Structure', geometryIssue: 'open', elementClass: 'IfcSlab', typeName: 'Roof' }),
  element('no-specific-weight-1', { mapping: noWeight, mappingSource: 'rule', volume: 1, quantitySource: 'model', layer: 'Skin', elementClass: 'IfcMember' }),
  element('no-specific-weight-2', { mapping: noWeight, mappingSource: 'rule', volume: 0.5, quantitySource: 'model', elementClass: 'IfcMember' }),
  element('door', { mapping: { type: ProductType.QuantityProduct, id: 'door' }, mappingSource: 'rule', layer: 'SpacePlan', elementClass: 'IfcDoor' }),
];

describe('the import report of a file that counts', () => {
  const report = importReportFigures(elements, catalogue, true);

  it('counts the elements that are mapped, measured, with a mass and a building layer, by number and by volume', () => {
    expect(report.elementCount).toBe(11);
    expect(report.volume).toBe(13);
    expect(report.counted).toEqual({ elements: 3, elementShare: 3 / 11, volume: 3, volumeShare: 3 / 13 });
  });

  it('counts an element exactly when the circularity index does', () => {
    expect(circularAnalysis(elements, catalogue, {}).counts.counted).toBe(report.counted.elements);
  });

  it('breaks each source down over every element once', () => {
    expect(report.material.rule.elements).toBe(5);
    expect(report.material.keyword).toEqual({ elements: 1, volume: 1, volumeShare: 1 / 13 });
    expect(report.material.model.elements).toBe(1);
    expect(report.material.none.elements).toBe(4);
    expect(report.quantities.geometry.elements).toBe(2);
    expect(report.geometryIssues).toEqual({ open: 1, empty: 0, failed: 0 });
    expect(report.classification.inferred.elements).toBe(1);
    expect(report.classification.layer.elements).toBe(1);
  });

  it('groups unmapped elements by material name, else by IFC class and type name, and unlayered ones by class', () => {
    expect(report.unmappedMaterials).toEqual([
      { materialName: 'Brick', elementClass: null, typeName: null, elements: 2, volume: 4 },
      { materialName: null, elementClass: 'IfcDoor', typeName: 'Single-Flush 0915 x 2134mm', elements: 2, volume: 0.5 },
    ]);
    expect(report.unlayeredClasses).toEqual([
      { elementClass: 'IfcBuildingElementProxy', elements: 1, volume: 4 },
      { elementClass: 'IfcMember', elements: 1, volume: 0.5 },
    ]);
  });

  it('says why each element that does not count does not, by the first reason that applies, in the order they are checked', () => {
    expect(report.notCounted.map(({ reason, elements: count, withoutVolume }) => [reason, count, withoutVolume])).toEqual([
      ['no-material', 4, 1],
      ['no-quantity', 1, 1],
      ['no-mass', 2, 0],
      ['no-building-layer', 1, 0],
    ]);
    expect(report.notCounted.every((group) => group.description.length > 0)).toBe(true);
  });

  it('groups each reason by what fixes it: no mass by the material, no quantity by class and type', () => {
    const groups = Object.fromEntries(report.notCounted.map((group) => [group.reason, group.groups]));
    expect(groups['no-mass']).toEqual([
      { materialName: null, elementClass: null, typeName: null, mapping: { type: ElementType.Material, id: 'no-weight' }, elements: 2, volume: 1.5 },
    ]);
    expect(groups['no-quantity']).toEqual([{ materialName: null, elementClass: 'IfcSlab', typeName: 'Roof', mapping: null, elements: 1, volume: 0 }]);
    expect(groups['no-material']?.map((group) => [group.materialName, group.elementClass, group.elements])).toEqual([
      ['Brick', null, 2],
      [null, 'IfcDoor', 2],
    ]);
    expect(groups['no-building-layer']).toEqual([{ materialName: null, elementClass: 'IfcBuildingElementProxy', typeName: null, mapping: null, elements: 1, volume: 4 }]);
  });

  it('says it in one line: how many count, why the others do not, what was assumed', () => {
    expect(report.summary).toBe(
      '3 of 11 elements count in the circularity index: 4 have no material, 1 has no volume or weight, ' +
        '2 have no mass (their material has no specific weight), 1 has no building layer. ' +
        'Assumed: 1 mapped by keyword, 2 with quantities from geometry, 1 with a building layer from layer names, 1 with a building layer inferred from the IFC class.',
    );
    expect(report.summary).not.toContain('\n');
  });
});

describe('the import report of a file that does not count (inactive, or not Mapped)', () => {
  const report = importReportFigures(elements, catalogue, false);

  it('keeps each element’s own reason, and puts those that would count in the file’s group', () => {
    expect(report.counted.elements).toBe(0);
    expect(report.notCounted.map((group) => [group.reason, group.elements])).toEqual([
      ['no-material', 4],
      ['no-quantity', 1],
      ['no-mass', 2],
      ['no-building-layer', 1],
      ['file-not-counted', 3],
    ]);
    expect(report.notCounted.at(-1)?.description).toContain('active');
    expect(report.summary).toMatch(/^3 of 11 elements will count in the circularity index once the file is active: 4 have no material,/u);
  });
});

describe('the import report of elements whose item the catalogue lacks', () => {
  it('counts an element with a weight, mapped to an item that is gone, as without circular data', () => {
    const gone = element('gone', { mapping: { type: ElementType.Material, id: 'gone' }, mappingSource: 'rule', weight: 10, layer: 'Structure' });
    const report = importReportFigures([gone, elements[0] as ReportElement], catalogue, true);
    expect(report.notCounted.map(({ reason, elements: count }) => [reason, count])).toEqual([['no-circular-data', 1]]);
    expect(report.counted.elements).toBe(1);
  });
});

describe('the import report of any elements', () => {
  const layers: BuildingLevelName[] = ['Structure', 'Skin', 'Unknown'];
  const mappings = [null, concrete, noWeight, { type: ProductType.QuantityProduct, id: 'door' }, { type: ElementType.Material, id: 'gone' }] as const;
  const arbitraryElement = fc.record({
    mapping: fc.constantFrom(...mappings),
    mappingSource: fc.constantFrom<ReportElement['mappingSource']>('model', 'rule', 'keyword'),
    volume: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
    weight: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
    quantitySource: fc.constantFrom<ReportElement['quantitySource']>(null, 'model', 'geometry'),
    geometryIssue: fc.constantFrom<ReportElement['geometryIssue']>(null, ...GEOMETRY_ISSUES),
    layer: fc.constantFrom(...layers),
    materialName: fc.constantFrom(null, 'Brick', 'Default', ''),
    elementClass: fc.constantFrom(null, 'IfcWall', 'IfcBuildingElementProxy'),
    typeName: fc.constantFrom(null, 'Basic Wall', 'Door'),
  });

  it('has groups that add up to the element count in every breakdown, and counts what the circularity index counts', () => {
    fc.assert(
      fc.property(fc.array(arbitraryElement, { maxLength: 40 }), fc.boolean(), (drawn, fileCounts) => {
        const given = drawn.map((fields, index) =>
          element(`e${index}`, { ...fields, mappingSource: fields.mapping === null ? null : fields.mappingSource }),
        );
        const report = importReportFigures(given, catalogue, fileCounts);
        const sum = (groups: readonly { elements: number }[]) => groups.reduce((total, group) => total + group.elements, 0);
        expect(sum(MAPPING_SOURCES.map((key) => report.material[key]))).toBe(drawn.length);
        expect(sum(QUANTITY_SOURCES.map((key) => report.quantities[key]))).toBe(drawn.length);
        expect(sum(CLASSIFICATION_SOURCES.map((key) => report.classification[key]))).toBe(drawn.length);
        expect(report.counted.elements + sum(report.notCounted)).toBe(drawn.length);
        for (const group of report.notCounted) expect(sum(group.groups)).toBe(group.elements);
        expect(sum(report.unmappedMaterials)).toBe(report.material.none.elements);
        const wouldCount = fileCounts ? report.counted.elements : (report.notCounted.find((group) => group.reason === 'file-not-counted')?.elements ?? 0);
        expect(wouldCount).toBe(circularAnalysis(given, catalogue, {}).counts.counted);
        for (const key of MAPPING_SOURCES) expect(report.material[key].volumeShare).toBeLessThanOrEqual(1);
      }),
    );
  });
});
