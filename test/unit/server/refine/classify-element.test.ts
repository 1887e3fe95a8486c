/**
 * Classifying an element (server/refine/README.md, "Classification"): the model's references as the importer read them
 * with their systems, the lookups, codes whose shape tells their system, the presentation layer, the IFC class; a user's
 * lookups before the model's references; only codes the list knows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyElement, type ClassifiableElement } from '../../../../server/refine/classify-element';
import { nlSfbCodeIndex, type NlSfbCodes } from '../../../../server/refine/nl-sfb';
import { NL_SFB_METHOD_ID, seedSystemData } from '../../../../server/store/seed/system-data';
import { openDatabase, type Database } from '../../../../server/store/store';

let database: Database;
let codes: NlSfbCodes;

beforeAll(async () => {
  database = await openDatabase(':memory:');
  await seedSystemData(database.db);
  codes = nlSfbCodeIndex(await database.db.selectFrom('classification_codes').select(['code', 'name']).where('methodId', '=', NL_SFB_METHOD_ID).execute());
});

afterAll(async () => {
  await database.close();
});

function classified(fields: Partial<ClassifiableElement>): [string, string] | null {
  const result = classifyElement({ lookups: [], hints: [], lookupsByUser: false, elementClass: null, ...fields }, codes);
  return result === null ? null : [result.code.code, result.source];
}

describe('classifyElement', () => {
  it('takes the model’s references through their systems before the lookups: NS 3451 23 is an external wall, not a floor', () => {
    expect(classified({ lookups: ['23'], hints: [{ source: 'model', code: '21' }, { source: 'inferred', code: '22' }] })).toEqual(['21', 'model']);
  });

  it('takes a user’s lookups before the model’s references', () => {
    expect(classified({ lookups: ['22.1'], hints: [{ source: 'model', code: '21' }], lookupsByUser: true })).toEqual(['22.1', 'model']);
  });

  it('reads the lookups as NL-SfB, then as codes whose shape tells their system', () => {
    expect(classified({ lookups: ['21.24'] })).toEqual(['21.2', 'model']);
    expect(classified({ lookups: ['B2010'] })).toEqual(['21', 'model']);
    expect(classified({ lookups: ['Ss_25_10_30'], hints: [{ source: 'inferred', code: '28' }] })?.[1]).toBe('model');
  });

  it('falls back to the presentation layer, then to what the importer inferred, in the importer’s order', () => {
    expect(classified({ hints: [{ source: 'layer', code: '21.1' }, { source: 'inferred', code: '22' }] })).toEqual(['21.1', 'layer']);
    expect(classified({ lookups: ['Mur'], hints: [{ source: 'inferred', code: '23' }] })).toEqual(['23', 'inferred']);
  });

  it('skips hints the code list does not know, and walks a hint to its listed parent down to two digits only', () => {
    expect(classified({ hints: [{ source: 'model', code: '99.99' }, { source: 'inferred', code: '28' }] })).toEqual(['28', 'inferred']);
    expect(classified({ hints: [{ source: 'layer', code: '21.24' }] })).toEqual(['21.2', 'layer']);
  });

  it('infers from the IFC class alone when nothing else says anything (elements made through the API)', () => {
    expect(classified({ elementClass: 'IfcColumn' })).toEqual(['28', 'inferred']);
    expect(classified({ elementClass: 'IfcBuildingElementProxy' })).toBeNull();
    expect(classified({})).toBeNull();
  });
});
