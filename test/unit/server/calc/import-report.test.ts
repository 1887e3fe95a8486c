/**
 * The import report's figures: every breakdown covers each element once, unmapped materials and unlayered classes are
 * grouped biggest first, each element that does not count is grouped by the first reason that applies, and the summary
 * says it in one line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLASSIFICATION_SOURCES, GEOMETRY_ISSUES, MAPPING_SOURCES, QUANTITY_SOURCES } from '../../../../shared/api';
import { ElementType, type BuildingLevelName } from '../../../../shared/api/enums';
import { importReportFigures, type ReportElement } from '../../../../server/calc/import-report';
import { createCatalogue } from '../../../../server/calc/inputs';
import { layerId, material } from './calc-test-support';

const catalogue = createCatalogue([
  material('concrete', { specificWeight: 2400, circular: { recycledPercentageFeedstock: 0.2 } }),
  material('no-weight', { specificWeight: null, circular: { recycledPercentageFeedstock: 0.2 } }),
]);

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
    mappingSource: null,
    quantitySource: null,
    geometryIssue: null,
    classificationSource: layer === undefined || layer === 'Unknown' ? null : 'model',
    ...rest,
  };
}

const concrete = { type: ElementType.Material, id: 'concrete' } as const;

const elements: ReportElement[] = [
  element('counted', { mapping: concrete, mappingSource: 'rule', volume: 2, quantitySource: 'model', layer: 'Structure' }),
  element('by-keyword', { mapping: concrete, mappingSource: 'keyword', volume: 1, quantitySource: 'geometry', layer: 'Skin', classificationSource: 'inferred' }),
  element('unmapped-brick-1', { materialName: 'Brick', volume: 3, quantitySource: 'model', layer: 'Skin', classificationSource: 'layer' }),
  element('unmapped-brick-2', { materialName: 'Brick', volume: 1, quantitySource: 'model', layer: 'Skin' }),
  element('unmapped-none', { volume: 0.5, quantitySource: 'geometry', layer: 'Structure' }),
  element('no-layer', { mapping: concrete, mappingSource: 'model', volume: 4, quantitySource: 'model', elementClass: 'IfcBuildingElementProxy' }),
  element('no-mass', { mapping: concrete, mappingSource: 'rule', layer: 'Structure', geometryIssue: 'open', elementClass: 'IfcSlab' }),
  element('no-specific-weight', { mapping: { type: ElementType.Material, id: 'no-weight' }, mappingSource: 'rule', volume: 1, quantitySource: 'model', layer: 'Skin' }),
];

describe('the import report of a file that counts', () => {
  const report = importReportFigures(elements, catalogue, true);

  it('counts the elements that are mapped, with a mass and a building layer', () => {
    expect(report.elementCount).toBe(8);
    expect(report.volume).toBe(12.5);
    expect(report.counted).toEqual({ elements: 2, volume: 3, volumeShare: 3 / 12.5 });
  });

  it('breaks each source down over every element once', () => {
    expect(report.material.rule.elements).toBe(3);
    expect(report.material.keyword).toEqual({ elements: 1, volume: 1, volumeShare: 1 / 12.5 });
    expect(report.material.model.elements).toBe(1);
    expect(report.material.none.elements).toBe(3);
    expect(report.quantities.geometry.elements).toBe(2);
    expect(report.quantities.none.elements).toBe(1);
    expect(report.geometryIssues).toEqual({ open: 1, empty: 0, failed: 0 });
    expect(report.classification.inferred.elements).toBe(1);
    expect(report.classification.layer.elements).toBe(1);
    expect(report.classification.none.elements).toBe(1);
  });

  it('groups unmapped elements by material name and unlayered ones by class, biggest volume first', () => {
    expect(report.unmappedMaterials).toEqual([
      { materialName: 'Brick', elements: 2, volume: 4 },
      { materialName: null, elements: 1, volume: 0.5 },
    ]);
    expect(report.unlayeredClasses).toEqual([{ elementClass: 'IfcBuildingElementProxy', elements: 1, volume: 4 }]);
  });

  it('says why each element that does not count does not, by the first reason that applies', () => {
    expect(report.notCounted.map(({ reason, elements: count }) => [reason, count])).toEqual([
      ['no-material', 3],
      ['no-building-layer', 1],
      ['no-mass', 2],
    ]);
    expect(report.notCounted.every((group) => group.description.length > 0)).toBe(true);
  });

  it('says it in one line', () => {
    expect(report.summary).toBe(
      '2 of 8 elements count in the circularity index: 5 mapped (1 by keyword), 7 with a volume or weight (2 from geometry), ' +
        '7 with a building layer (1 from layer names, 1 inferred from the IFC class).',
    );
    expect(report.summary).not.toContain('\n');
  });
});

describe('the import report of a file that does not count (inactive, or not Mapped)', () => {
  const report = importReportFigures(elements, catalogue, false);

  it('puts every element in one group, and says how many would count', () => {
    expect(report.counted.elements).toBe(0);
    expect(report.notCounted).toEqual([
      { reason: 'file-not-counted', elements: 8, volume: 12.5, description: expect.stringContaining('active') as string },
    ]);
    expect(report.wouldCount).toBe(2);
    expect(report.summary).toMatch(/^2 of 8 elements will count in the circularity index once the file is active:/u);
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
  const arbitraryElement = fc.record({
    mapped: fc.constantFrom<ReportElement['mappingSource']>(null, 'model', 'rule', 'keyword'),
    volume: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
    quantitySource: fc.constantFrom<ReportElement['quantitySource']>(null, 'model', 'geometry'),
    geometryIssue: fc.constantFrom<ReportElement['geometryIssue']>(null, ...GEOMETRY_ISSUES),
    layer: fc.constantFrom(...layers),
    materialName: fc.constantFrom(null, 'Brick', 'Default'),
    elementClass: fc.constantFrom(null, 'IfcWall', 'IfcBuildingElementProxy'),
  });

  it('has groups that add up to the element count in every breakdown', () => {
    fc.assert(
      fc.property(fc.array(arbitraryElement, { maxLength: 40 }), fc.boolean(), (drawn, fileCounts) => {
        const report = importReportFigures(
          drawn.map((fields, index) =>
            element(`e${index}`, {
              ...fields,
              mapping: fields.mapped === null ? null : concrete,
              mappingSource: fields.mapped,
            }),
          ),
          catalogue,
          fileCounts,
        );
        const sum = (groups: readonly { elements: number }[]) => groups.reduce((total, group) => total + group.elements, 0);
        expect(sum(MAPPING_SOURCES.map((key) => report.material[key]))).toBe(drawn.length);
        expect(sum(QUANTITY_SOURCES.map((key) => report.quantities[key]))).toBe(drawn.length);
        expect(sum(CLASSIFICATION_SOURCES.map((key) => report.classification[key]))).toBe(drawn.length);
        expect(report.counted.elements + sum(report.notCounted)).toBe(drawn.length);
        expect(sum(report.unmappedMaterials)).toBe(report.material.none.elements);
        for (const key of MAPPING_SOURCES) expect(report.material[key].volumeShare).toBeLessThanOrEqual(1);
      }),
    );
  });
});
