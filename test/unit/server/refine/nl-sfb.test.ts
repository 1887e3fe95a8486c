import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brandLayerOf,
  classificationCodeId,
  classify,
  coarserNlSfbCode,
  nlSfbCodeIndex,
  normaliseNlSfbCode,
  uuidV5,
  type NlSfbCodes,
} from '../../../../server/refine/nl-sfb';
import { NL_SFB_METHOD_ID, seedSystemData } from '../../../../server/store/seed/system-data';
import { openDatabase, type Database } from '../../../../server/store/store';

let database: Database;
let codes: NlSfbCodes;

beforeAll(async () => {
  database = await openDatabase(':memory:');
  await seedSystemData(database.db);
  const rows = await database.db
    .selectFrom('classification_codes')
    .select(['code', 'name'])
    .where('methodId', '=', NL_SFB_METHOD_ID)
    .execute();
  codes = nlSfbCodeIndex(rows);
});

afterAll(async () => {
  await database.close();
});

describe('coarserNlSfbCode', () => {
  it('drops one decimal, then the decimals, then the element digit', () => {
    expect(coarserNlSfbCode('21.24')).toBe('21.2');
    expect(coarserNlSfbCode('21.2')).toBe('21');
    expect(coarserNlSfbCode('21')).toBe('2-');
    expect(coarserNlSfbCode('2-')).toBeNull();
    expect(coarserNlSfbCode('0-.10')).toBe('0-.1');
    expect(coarserNlSfbCode('0-.1')).toBe('0-');
    expect(coarserNlSfbCode('0-')).toBeNull();
  });
});

describe('normaliseNlSfbCode', () => {
  it.each([
    ['21.24', '21.24'],
    ['  21.24  ', '21.24'],
    ['21 . 24', '21.24'],
    ['21,24', '21.24'],
    ['(21.24)', '21.24'],
    ['( 21 )', '21'],
    ['21.24 Buitenwanden; constructief', '21.24'],
    ['21.24Buitenwanden', '21.24'],
    ['NL-SfB 21.24', '21.24'],
    ['nl-sfb: 21.24', '21.24'],
    ['NLSfB=21', '21'],
    ['SfB 27.2', '27.2'],
    ['2-', '2-'],
    ['2\u2013', '2-'],
    ['0-.10', '0-.10'],
    ['21.', '21'],
    ['21, 22', '21'],
    ['21.245', '21.245'],
    ['\uff12\uff11.\uff12', '21.2'],
  ])('reads %j as %j', (lookup, code) => {
    expect(normaliseNlSfbCode(lookup)).toBe(code);
  });

  it.each(['', '   ', 'Wall', 'Beton C20/25', '212', '21.2.4', '2', 'IfcWall 21.24', '-21'])('reads %j as no code', (lookup) => {
    expect(normaliseNlSfbCode(lookup)).toBeNull();
  });
});

describe('classify on the seeded NL-SfB codes', () => {
  it('takes the code as given when the list has it', () => {
    expect(classify(['21.25'], codes)).toEqual({ code: '21.25', name: expect.any(String) as string });
    expect(classify(['21.2'], codes)?.name).toBe('buitenwanden; constructief');
    expect(classify(['0-.10'], codes)?.code).toBe('0-.10');
  });

  it('walks to the parents in turn down to two digits: 21.24 → 21.2, 21.99 → 21; 29 and 99.99 stay unknown', () => {
    // 21.24 is not in the 2019 list (21.20–21.23 and 21.25 are).
    expect(codes.has('21.24')).toBe(false);
    expect(classify(['21.24'], codes)?.code).toBe('21.2');
    expect(classify(['21.9'], codes)?.code).toBe('21');
    expect(classify(['21.99'], codes)?.code).toBe('21');
    // A two-digit code the list lacks is not its main group: the walk ends at two digits.
    expect(classify(['29'], codes)).toBeNull();
    expect(classify(['29.15'], codes)).toBeNull();
    expect(classify(['99.99'], codes)).toBeNull();
    expect(classify(['90'], codes)).toBeNull();
    expect(classify(['90.1'], codes)?.code).toBe('90.1');
    expect(classify(['90.19'], codes)?.code).toBe('90.1');
    // A main group given as such is listed.
    expect(classify(['2-'], codes)?.code).toBe('2-');
    expect(classify(['0-.19'], codes)?.code).toBe('0-.1');
  });

  it('normalises spacing, decimal commas, parentheses and labels', () => {
    expect(classify([' ( 21,24 ) '], codes)?.code).toBe('21.2');
    expect(classify(['NL-SfB: 22.21 binnenwand'], codes)?.code).toBe('22.21');
  });

  it('takes the first lookup that matches, and null when none does', () => {
    expect(classify(['Wall', '22.1', '21.2'], codes)?.code).toBe('22.1');
    expect(classify(['Wall', 'Beton'], codes)).toBeNull();
    expect(classify([], codes)).toBeNull();
  });
});

describe('brandLayerOf', () => {
  // Every rule of decisions §9, each with the listed level itself and a code below it.
  it.each([
    ['9-', 'Site'],
    ['90.1', 'Site'],
    ['90.45', 'Site'],
    ['1-', 'Structure'],
    ['13', 'Structure'],
    ['16.25', 'Structure'],
    ['23', 'Structure'],
    ['23.21', 'Structure'],
    ['24', 'Structure'],
    ['24.3', 'Structure'],
    ['28', 'Structure'],
    ['28.1', 'Structure'],
    ['21.2', 'Structure'],
    ['21.21', 'Structure'],
    ['22.2', 'Structure'],
    ['22.23', 'Structure'],
    ['27.2', 'Structure'],
    ['27.24', 'Structure'],
    ['21', 'Skin'],
    ['21.1', 'Skin'],
    ['21.15', 'Skin'],
    ['21.0', 'Skin'],
    ['27', 'Skin'],
    ['27.13', 'Skin'],
    ['31', 'Skin'],
    ['31.2', 'Skin'],
    ['37', 'Skin'],
    ['37.24', 'Skin'],
    ['41', 'Skin'],
    ['41.12', 'Skin'],
    ['47', 'Skin'],
    ['47.26', 'Skin'],
    ['5-', 'Services'],
    ['52', 'Services'],
    ['56.31', 'Services'],
    ['6-', 'Services'],
    ['61.17', 'Services'],
    ['68.9', 'Services'],
    ['22', 'SpacePlan'],
    ['22.1', 'SpacePlan'],
    ['22.14', 'SpacePlan'],
    ['32', 'SpacePlan'],
    ['32.41', 'SpacePlan'],
    ['33', 'SpacePlan'],
    ['33.2', 'SpacePlan'],
    ['34', 'SpacePlan'],
    ['34.12', 'SpacePlan'],
    ['38', 'SpacePlan'],
    ['38.11', 'SpacePlan'],
    ['42', 'SpacePlan'],
    ['43', 'SpacePlan'],
    ['44.23', 'SpacePlan'],
    ['45', 'SpacePlan'],
    ['45.25', 'SpacePlan'],
    ['48', 'SpacePlan'],
    ['48.12', 'SpacePlan'],
    ['7-', 'SpacePlan'],
    ['71', 'SpacePlan'],
    ['76.22', 'SpacePlan'],
    ['8-', 'Stuff'],
    ['81', 'Stuff'],
    ['86.22', 'Stuff'],
    ['0-', 'Unknown'],
    ['0-.10', 'Unknown'],
    ['2-', 'Unknown'],
    ['3-', 'Unknown'],
    ['4-', 'Unknown'],
    ['35', 'Unknown'],
    ['46', 'Unknown'],
    ['Wall', 'Unknown'],
  ])('%s → %s', (code, layer) => {
    expect(brandLayerOf(code)).toBe(layer);
  });

  it('is Unknown without a code', () => {
    expect(brandLayerOf(null)).toBe('Unknown');
  });

  it('gives every seeded code a layer from the most specific listed level', () => {
    const layers = new Map([...codes.keys()].map((code) => [code, brandLayerOf(code)]));
    expect(layers.get('21.25')).toBe('Structure');
    expect(layers.get('21.16')).toBe('Skin');
    expect(layers.get('22.21')).toBe('Structure');
    expect(layers.get('22.12')).toBe('SpacePlan');
    const unknown = [...layers].filter(([, layer]) => layer === 'Unknown').map(([code]) => code);
    expect(unknown.every((code) => code.startsWith('0-') || /^[234]-$/.test(code))).toBe(true);
  });

  it('of an element: the classified code (unmatched lookups are Unknown)', () => {
    expect(brandLayerOf(classify(['21.24'], codes)?.code ?? null)).toBe('Structure');
    expect(brandLayerOf(classify(['Wall'], codes)?.code ?? null)).toBe('Unknown');
  });
});

describe('classificationCodeId', () => {
  it('is a name-based UUID v5 (RFC 9562 test vector)', () => {
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('is stable per code and distinct between codes', () => {
    const id = classificationCodeId(NL_SFB_METHOD_ID, '21.2');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(classificationCodeId(NL_SFB_METHOD_ID, '21.2')).toBe(id);
    expect(classificationCodeId(NL_SFB_METHOD_ID, '21.20')).not.toBe(id);
  });
});
