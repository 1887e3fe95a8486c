import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { appendBlocks, ELEMENT_TABLES, startBlockSet } from '../../../../../renderer/db/element-blocks';
import type { ElementRow } from '../../../../../renderer/db/schema';
import { buildElementView, isPlainQuery, parseQuantityFilter, PLAIN_QUERY, rowFilter, type ElementSort } from '../../../../../renderer/views/files/element-view';
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

describe('buildElementView', () => {
  // More elements than the sort takes in one run, so its merges are crossed.
  const COUNT = 3_000;
  const nameNumber = (index: number): number | null => (index % 7 === 0 ? null : (index * 31) % 50);
  const volumeOf = (index: number): number | null => (index % 5 === 0 ? null : ((index * 37) % 101) / 10);
  const idOf = (index: number): string => `e${String(index).padStart(5, '0')}`;

  async function cached(): Promise<CacheDb> {
    const db = new CacheDb('view', { indexedDB: new IDBFactory(), IDBKeyRange });
    const rows = Array.from({ length: COUNT }, (_, index) => {
      const number = nameNumber(index);
      return row({ id: idOf(index), buildingFileId: 'f', name: number === null ? '' : `Wall ${number}`, volume: volumeOf(index) });
    });
    await db.transaction('rw', ELEMENT_TABLES, async () => {
      await startBlockSet(db, 'f', 't1', 'shown');
      for (let start = 0; start < COUNT; start += 1000) await appendBlocks(db, 'f', 'shown', rows.slice(start, start + 1000));
    });
    return db;
  }

  /** The order a person expects: values by size (Wall 2 before Wall 10), equal ones in id order, none last either way. */
  function expected(value: (index: number) => number | null, direction: ElementSort['direction']): string[] {
    const sign = direction === 'asc' ? 1 : -1;
    const indexes = Array.from({ length: COUNT }, (_, index) => index);
    const valued = indexes.filter((index) => value(index) !== null).sort((a, b) => sign * ((value(a) ?? 0) - (value(b) ?? 0)) || a - b);
    return [...valued, ...indexes.filter((index) => value(index) === null)].map(idOf);
  }

  it.each([
    ['name', 'asc'],
    ['name', 'desc'],
    ['volume', 'asc'],
    ['volume', 'desc'],
  ] as const)('sorts by %s, %s, like a stable sort with empty values last', async (column, direction) => {
    const db = await cached();
    const view = await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column, direction } }, ['id', 'name', 'volume']);
    expect([...view]).toEqual(expected(column === 'name' ? nameNumber : volumeOf, direction));
    db.close();
  });

  it('filters and sorts together, and lists every element in id order without either', async () => {
    const db = await cached();
    const filtered = await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { volume: '>5' }, sort: { column: 'volume', direction: 'desc' } }, ['id', 'volume']);
    expect([...filtered]).toEqual(expected(volumeOf, 'desc').filter((id) => (volumeOf(Number(id.slice(1))) ?? 0) > 5));
    expect([...(await buildElementView(db, 'f', PLAIN_QUERY, ['id']))]).toEqual(Array.from({ length: COUNT }, (_, index) => idOf(index)));
    db.close();
  });
});
