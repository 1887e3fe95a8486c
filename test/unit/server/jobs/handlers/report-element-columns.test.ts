/**
 * The columns an import keeps its elements' figure inputs in give back the elements it was given, field for field,
 * with a later version of an element in place of the earlier one, and without the elements removed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLASSIFICATION_SOURCES, GEOMETRY_ISSUES, MAPPING_SOURCES, QUANTITY_SOURCES } from '../../../../../shared/api';
import { ElementType } from '../../../../../shared/api/enums';
import type { ReportElement } from '../../../../../server/calc/import-report';
import { ReportElementColumns } from '../../../../../server/jobs/handlers/report-element-columns';

const text = fc.option(fc.string(), { nil: null });
const quantity = fc.option(fc.double({ noNaN: true }), { nil: null });
const source = <Value extends string>(values: readonly Value[]) => fc.option(fc.constantFrom(...values.filter((value) => value !== 'none')), { nil: null });

const reportElement = (id: fc.Arbitrary<string>): fc.Arbitrary<ReportElement> =>
  fc.record({
    id,
    volume: quantity,
    area: quantity,
    length: quantity,
    weight: quantity,
    materialName: text,
    materialId: text,
    classificationId: text,
    brandLayerId: text,
    mapping: fc.option(
      fc.record({ type: fc.constantFrom(ElementType.Material, ElementType.VolumeProduct, ElementType.AreaProduct), id: fc.uuid() }),
      { nil: null },
    ),
    elementClass: text,
    typeName: text,
    mappingSource: source(MAPPING_SOURCES),
    quantitySource: source(QUANTITY_SOURCES),
    geometryIssue: source(GEOMETRY_ISSUES),
    classificationSource: source(CLASSIFICATION_SOURCES),
  }) as fc.Arbitrary<ReportElement>;

describe('ReportElementColumns', () => {
  it('gives back every element as it was added, in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(reportElement(fc.string()), { selector: (element) => element.id, maxLength: 3000 }), (elements) => {
        const columns = new ReportElementColumns();
        for (const element of elements) columns.add(element);
        expect(columns.size).toBe(elements.length);
        expect(columns.toElements()).toEqual(elements);
      }),
      { numRuns: 30 },
    );
  });

  it('puts a replacement in the place of the element with its id, and adds one with a new id at the end', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(reportElement(fc.string()), { selector: (element) => element.id, minLength: 1, maxLength: 200 }),
        fc.array(reportElement(fc.string())),
        (elements, replacements) => {
          const columns = new ReportElementColumns();
          for (const element of elements) columns.add(element);
          columns.replace(replacements);
          const expected = new Map(elements.map((element) => [element.id, element]));
          for (const replacement of replacements) expected.set(replacement.id, replacement);
          expect(columns.toElements()).toEqual([...expected.values()]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('leaves removed elements out, until their id is added again', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(reportElement(fc.string()), { selector: (element) => element.id, minLength: 1, maxLength: 200 }),
        fc.array(fc.string()),
        fc.array(reportElement(fc.string())),
        (elements, removedIds, replacements) => {
          const columns = new ReportElementColumns();
          for (const element of elements) columns.add(element);
          const removedSome = [...removedIds, ...elements.filter((_, index) => index % 3 === 0).map((element) => element.id)];
          columns.remove(removedSome);
          const removed = new Set(removedSome);
          expect(columns.toElements()).toEqual(elements.filter((element) => !removed.has(element.id)));
          expect(columns.size).toBe(elements.filter((element) => !removed.has(element.id)).length);
          columns.replace(replacements);
          const expected = new Map(elements.map((element) => [element.id, element]));
          for (const replacement of replacements) expected.set(replacement.id, replacement);
          const back = new Set(replacements.map((replacement) => replacement.id));
          expect(columns.toElements()).toEqual([...expected.values()].filter((element) => !removed.has(element.id) || back.has(element.id)));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('holds more elements than it first has room for', () => {
    const columns = new ReportElementColumns();
    const shared = {
      materialName: 'Beton C30/37',
      elementClass: 'IfcWall',
      typeName: 'Basic Wall: 200',
      mappingSource: 'rule',
      quantitySource: 'model',
      geometryIssue: null,
      classificationSource: null,
    } as const;
    for (let index = 0; index < 5000; index += 1) {
      columns.add({ id: `e${index}`, volume: index, weight: null, mapping: { type: ElementType.Material, id: 'concrete' }, ...shared });
    }
    const elements = columns.toElements();
    expect(elements).toHaveLength(5000);
    expect(elements[4999]).toMatchObject({ id: 'e4999', volume: 4999, weight: null, mapping: { type: ElementType.Material, id: 'concrete' }, ...shared });
  });
});
