import { describe, expect, it } from 'vitest';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { isPlainQuery, parseQuantityFilter, PLAIN_QUERY, rowFilter } from '../../../../../renderer/views/files/element-view';
import { parseCellInput } from '../../../../../renderer/views/files/cell-input';
import { csvField } from '../../../../../renderer/views/files/element-export';

function row(changes: Partial<ElementRow>): ElementRow {
  return {
    id: 'E1',
    buildingFileId: 'f',
    name: 'Binnenwand',
    materialName: 'Gipsplaat',
    typeName: null,
    elementClass: 'IfcWall',
    volume: 2,
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
    floor: '00',
    ...changes,
  };
}

describe('quantity filters', () => {
  it('reads comparisons, equality and ranges, with a decimal comma', () => {
    expect(parseQuantityFilter('>= 1,5')?.(1.5)).toBe(true);
    expect(parseQuantityFilter('>1.5')?.(1.5)).toBe(false);
    expect(parseQuantityFilter('<2')?.(1)).toBe(true);
    expect(parseQuantityFilter('3')?.(3)).toBe(true);
    expect(parseQuantityFilter('1..5')?.(5)).toBe(true);
    expect(parseQuantityFilter('1..5')?.(5.1)).toBe(false);
    expect(parseQuantityFilter('about 3')).toBeUndefined();
  });
});

describe('the filter of a query', () => {
  it('matches the quick text in any shown column, ignoring case and accents', () => {
    const keep = rowFilter({ ...PLAIN_QUERY, quick: 'GIPS' }, ['id', 'materialName']);
    expect(keep(row({}))).toBe(true);
    expect(rowFilter({ ...PLAIN_QUERY, quick: 'gips' }, ['id', 'name'])(row({}))).toBe(false);
    expect(rowFilter({ ...PLAIN_QUERY, quick: 'beton' }, ['name'])(row({ name: 'Béton' }))).toBe(true);
  });

  it('combines column filters, quantity comparisons and unmapped-only', () => {
    const query = { ...PLAIN_QUERY, filters: { elementClass: 'wall', volume: '>1' }, unmappedOnly: true };
    const keep = rowFilter(query, ['id']);
    expect(keep(row({}))).toBe(true);
    expect(keep(row({ volume: 1 }))).toBe(false);
    expect(keep(row({ volume: null }))).toBe(false);
    expect(keep(row({ mapping: { type: 10, id: '00000000-0000-4000-8000-000000000000' } }))).toBe(false);
    expect(isPlainQuery(query)).toBe(false);
    expect(isPlainQuery({ ...PLAIN_QUERY, quick: '  ', filters: { name: '' } })).toBe(true);
  });
});

describe('cell input', () => {
  it('takes text trimmed and empty as none, and quantities only when finite and not negative', () => {
    expect(parseCellInput('text', '  Beton ')).toEqual({ ok: true, value: 'Beton' });
    expect(parseCellInput('text', '   ')).toEqual({ ok: true, value: null });
    expect(parseCellInput('quantity', '2,5')).toEqual({ ok: true, value: 2.5 });
    expect(parseCellInput('quantity', '')).toEqual({ ok: true, value: null });
    expect(parseCellInput('quantity', '-1')).toEqual({ ok: false, error: 'negative' });
    expect(parseCellInput('quantity', 'lots')).toEqual({ ok: false, error: 'not-finite' });
  });
});

describe('CSV fields', () => {
  it('quotes separators and quotes, and defuses text a spreadsheet would run as a formula', () => {
    expect(csvField('Wall')).toBe('Wall');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-1.5')).toBe('-1.5');
  });
});
