import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ElementType, Phase, type PhaseName } from '../../../../../shared/api/enums';
import { phaseWordsOf } from '../../../../../renderer/components/use-phase-words';
import { MESSAGES, type AppLocale } from '../../../../../renderer/i18n';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { applyServerList } from '../../../../../renderer/db/apply-pull';
import { displayName } from '../../../../../renderer/views/catalogues/catalogue-form';
import { material } from '../catalogues/catalogue-harness';
import { appendBlocks, ELEMENT_TABLES, startBlockSet } from '../../../../../renderer/db/element-blocks';
import type { ElementRow } from '../../../../../renderer/db/schema';
import {
  buildElementView,
  isPlainQuery,
  parseQuantityFilter,
  PLAIN_QUERY,
  rowFilter,
  type ElementQuery,
  type ElementSort,
  type ElementWords,
} from '../../../../../renderer/views/files/element-view';
import type { ElementView } from '../../../../../renderer/views/files/element-groups';
import { PartKind } from '../../../../../renderer/views/files/element-parts';
import { parseCellInput } from '../../../../../renderer/views/files/cell-input';
import { csvField } from '../../../../../renderer/views/files/element-export';

/** The words the grid shows in `locale`: a phase in its words, an item by its name in the language (else another). */
function wordsIn(locale: AppLocale): ElementWords {
  return {
    phase: phaseWordsOf((phase) => MESSAGES[locale].dataValues.phase[phase]),
    mapping: (mapping, item) => displayName(item?.name, locale) || (mapping.type === ElementType.Material ? 'material' : 'product'),
  };
}
const ENGLISH = wordsIn('en');

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
    const keep = rowFilter({ ...PLAIN_QUERY, quick: 'GIPS' }, ['id', 'materialName'], ENGLISH);
    expect(keep(row({}))).toBe(true);
    expect(rowFilter({ ...PLAIN_QUERY, quick: 'gips' }, ['id', 'name'], ENGLISH)(row({}))).toBe(false);
    expect(rowFilter({ ...PLAIN_QUERY, quick: 'beton' }, ['name'], ENGLISH)(row({ name: 'Béton' }))).toBe(true);
  });

  it('combines column filters, quantity comparisons and unmapped-only', () => {
    const query = { ...PLAIN_QUERY, filters: { elementClass: 'wall', volume: '>1' }, unmappedOnly: true };
    const keep = rowFilter(query, ['id'], ENGLISH);
    expect(keep(row({}))).toBe(true);
    expect(keep(row({ volume: 1 }))).toBe(false);
    expect(keep(row({ volume: null }))).toBe(false);
    expect(keep(row({ mapping: { type: 10, id: '00000000-0000-4000-8000-000000000000' } }))).toBe(false);
    expect(isPlainQuery(query)).toBe(false);
    expect(isPlainQuery({ ...PLAIN_QUERY, quick: '  ', filters: { name: '' } })).toBe(true);
  });
});

describe('the phase column in the user’s language', () => {
  const PHASES: PhaseName[] = ['Existing', 'New', 'Demolition'];
  const idOf = (index: number): string => `p${String(index).padStart(3, '0')}`;
  // Every fourth element names no phase and has none matched: it sorts last either way.
  const phaseOfIndex = (index: number): PhaseName | null => (index % 4 === 3 ? null : (PHASES[index % 3] ?? null));

  async function phased(): Promise<CacheDb> {
    const db = new CacheDb('phases', { indexedDB: new IDBFactory(), IDBKeyRange });
    const rows = Array.from({ length: 60 }, (_, index) => {
      const phase = phaseOfIndex(index);
      return row({ id: idOf(index), phaseMatch: phase === null ? null : { ...Phase[phase] }, phaseLookup: phase === null ? null : [Phase[phase].name] });
    });
    await db.transaction('rw', ELEMENT_TABLES, async () => {
      await startBlockSet(db, 'f', 't1', 'shown');
      await appendBlocks(db, 'f', 'shown', rows);
    });
    return db;
  }

  const indexes = Array.from({ length: 60 }, (_, index) => index);
  const withPhase = (phase: PhaseName): string[] => indexes.filter((index) => phaseOfIndex(index) === phase).map(idOf);

  it('filters by the Dutch word of a phase, and no longer by the English one', async () => {
    const db = await phased();
    const dutch = wordsIn('nl');
    const existing = await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { phase: 'bestaand' } }, ['id', 'phase'], dutch);
    expect([...existing.ids]).toEqual(withPhase('Existing'));
    expect([...(await buildElementView(db, 'f', { ...PLAIN_QUERY, quick: 'Sloop' }, ['id', 'phase'], dutch)).ids]).toEqual(withPhase('Demolition'));
    expect([...(await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { phase: 'Existing' } }, ['id', 'phase'], dutch)).ids]).toEqual([]);
    expect([...(await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { phase: 'Existing' } }, ['id', 'phase'], ENGLISH)).ids]).toEqual(withPhase('Existing'));
    db.close();
  });

  it('sorts by the Dutch words (Bestaand, Nieuw, Sloop), the English ones in English, elements without a phase last', async () => {
    const db = await phased();
    const none = indexes.filter((index) => phaseOfIndex(index) === null).map(idOf);
    const dutch = await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column: 'phase', direction: 'asc' } }, ['id', 'phase'], wordsIn('nl'));
    expect([...dutch.ids]).toEqual([...withPhase('Existing'), ...withPhase('New'), ...withPhase('Demolition'), ...none]);
    const descending = await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column: 'phase', direction: 'desc' } }, ['id', 'phase'], wordsIn('nl'));
    expect([...descending.ids]).toEqual([...withPhase('Demolition'), ...withPhase('New'), ...withPhase('Existing'), ...none]);
    const english = await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column: 'phase', direction: 'asc' } }, ['id', 'phase'], ENGLISH);
    expect([...english.ids]).toEqual([...withPhase('Demolition'), ...withPhase('Existing'), ...withPhase('New'), ...none]);
    db.close();
  });

  it('words each distinct phase once, however many elements have it', async () => {
    const db = await phased();
    const worded: string[] = [];
    const counting: ElementWords = {
      ...wordsIn('nl'),
      phase: (match) => {
        worded.push(match.name);
        return wordsIn('nl').phase(match);
      },
    };
    await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column: 'phase', direction: 'asc' } }, ['id', 'phase'], counting);
    expect(worded.sort()).toEqual(['Demolition', 'Existing', 'New']);
    db.close();
  });
});

describe('the mapping column by the names shown', () => {
  const CONCRETE = '70000000-0000-4000-8000-000000000001';
  const STEEL = '70000000-0000-4000-8000-000000000002';
  const WOOD = '70000000-0000-4000-8000-000000000003';
  const ITEMS = [CONCRETE, STEEL, WOOD, null] as const;
  const idOf = (index: number): string => `m${String(index).padStart(3, '0')}`;
  const itemOfIndex = (index: number): string | null => ITEMS[index % 4] ?? null;

  async function mapped(): Promise<CacheDb> {
    const db = new CacheDb('mapped', { indexedDB: new IDBFactory(), IDBKeyRange });
    await applyServerList(db, 'materials', [
      material(CONCRETE, 'Concrete', { name: { en: 'Concrete', nl: 'Beton' } }),
      material(STEEL, 'Steel', { name: { en: 'Steel', nl: 'Staal' } }),
      // No Dutch name: the English one shows, and is what a Dutch filter and sort go by.
      material(WOOD, 'Wood'),
    ]);
    const rows = Array.from({ length: 40 }, (_, index) => {
      const item = itemOfIndex(index);
      return row({ id: idOf(index), mapping: item === null ? null : { type: ElementType.Material, id: item } });
    });
    await db.transaction('rw', ELEMENT_TABLES, async () => {
      await startBlockSet(db, 'f', 't1', 'shown');
      await appendBlocks(db, 'f', 'shown', rows);
    });
    return db;
  }

  const indexes = Array.from({ length: 40 }, (_, index) => index);
  const mappedTo = (item: string | null): string[] => indexes.filter((index) => itemOfIndex(index) === item).map(idOf);

  it('filters by the name of the item in the user’s language, in the column and the quick filter', async () => {
    const db = await mapped();
    const dutch = wordsIn('nl');
    expect([...(await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { mapping: 'beton' } }, ['id', 'mapping'], dutch)).ids]).toEqual(mappedTo(CONCRETE));
    expect([...(await buildElementView(db, 'f', { ...PLAIN_QUERY, quick: 'STAAL' }, ['id', 'mapping'], dutch)).ids]).toEqual(mappedTo(STEEL));
    expect([...(await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { mapping: 'wood' } }, ['id', 'mapping'], dutch)).ids]).toEqual(mappedTo(WOOD));
    expect([...(await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { mapping: 'material' } }, ['id', 'mapping'], dutch)).ids]).toEqual([]);
    db.close();
  });

  it('sorts by the names shown, unmapped elements last', async () => {
    const db = await mapped();
    const dutch = await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column: 'mapping', direction: 'asc' } }, ['id', 'mapping'], wordsIn('nl'));
    expect([...dutch.ids]).toEqual([...mappedTo(CONCRETE), ...mappedTo(STEEL), ...mappedTo(WOOD), ...mappedTo(null)]);
    const english = await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column: 'mapping', direction: 'desc' } }, ['id', 'mapping'], ENGLISH);
    expect([...english.ids]).toEqual([...mappedTo(WOOD), ...mappedTo(STEEL), ...mappedTo(CONCRETE), ...mappedTo(null)]);
    db.close();
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
    const view = await buildElementView(db, 'f', { ...PLAIN_QUERY, sort: { column, direction } }, ['id', 'name', 'volume'], ENGLISH);
    expect([...view.ids]).toEqual(expected(column === 'name' ? nameNumber : volumeOf, direction));
    db.close();
  });

  it('filters and sorts together, and lists every element in id order without either', async () => {
    const db = await cached();
    const filtered = await buildElementView(db, 'f', { ...PLAIN_QUERY, filters: { volume: '>5' }, sort: { column: 'volume', direction: 'desc' } }, ['id', 'volume'], ENGLISH);
    expect([...filtered.ids]).toEqual(expected(volumeOf, 'desc').filter((id) => (volumeOf(Number(id.slice(1))) ?? 0) > 5));
    expect([...(await buildElementView(db, 'f', PLAIN_QUERY, ['id'], ENGLISH)).ids]).toEqual(Array.from({ length: COUNT }, (_, index) => idOf(index)));
    db.close();
  });
});

describe('buildElementView of a file with split elements', () => {
  const WALL = '2O2Fr$t4X7Zf8NOew3FLOH';
  const SLAB = '0K7w7JxKn2Bx5dM9vhT_Qa';
  const MAPPED = { type: ElementType.Material, id: '00000000-0000-4000-8000-000000000000' };
  // In id order, as the server lists them; `W-L1` is a spreadsheet's id, no part.
  const ROWS = [
    row({ id: `${SLAB}-L1`, name: 'Floor slab', materialName: 'Screed', volume: 1, area: 10 }),
    row({ id: `${SLAB}-L2`, name: 'Floor slab', materialName: 'Concrete', volume: 3, area: 10, mapping: MAPPED }),
    row({ id: `${WALL}-L1`, name: 'Outer wall', materialName: 'Brick', volume: 2.5, area: 20 }),
    row({ id: `${WALL}-L2`, name: 'Outer wall', materialName: 'Mineral wool', volume: 2, area: 20 }),
    row({ id: `${WALL}-L3`, name: 'Outer wall', materialName: 'Plasterboard', volume: 0.5, area: 20 }),
    row({ id: 'E1', name: 'Column', materialName: 'Beton', volume: 5 }),
    row({ id: 'E2', name: 'Beam', materialName: 'Steel', volume: 0.2 }),
    row({ id: 'W-L1', name: 'Sheet wall', materialName: 'Gips', volume: 4.5 }),
  ];

  async function cached(): Promise<CacheDb> {
    const db = new CacheDb('parts', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.transaction('rw', ELEMENT_TABLES, async () => {
      await startBlockSet(db, 'f', 't1', 'shown');
      await appendBlocks(db, 'f', 'shown', ROWS);
    });
    return db;
  }

  /** The view's entries: an element's id, or a split element's GlobalId with its parts' suffixes. */
  function entries(view: ElementView): string[] {
    const { groups, ids } = view;
    if (groups === null) return [...ids];
    return Array.from(groups.ends, (end, entry) => {
      const members = ids.slice(entry === 0 ? 0 : groups.ends[entry - 1], end);
      return groups.kinds[entry] === PartKind.None ? (members[0] ?? '') : `${members[0]?.slice(0, 22)}: ${members.map((id) => id.slice(23)).join(' ')}`;
    });
  }

  async function viewOf(query: Partial<ElementQuery>): Promise<ElementView> {
    const db = await cached();
    try {
      return await buildElementView(db, 'f', { ...PLAIN_QUERY, ...query }, ['id', 'name', 'materialName', 'volume'], ENGLISH);
    } finally {
      db.close();
    }
  }

  it('recognises the parts by their ids and lists them under their element, closed', async () => {
    const view = await viewOf({});
    expect(entries(view)).toEqual([`${SLAB}: L1 L2`, `${WALL}: L1 L2 L3`, 'E1', 'E2', 'W-L1']);
    expect(view.ids.length).toBe(8);
    expect(view.open).toBe(false);
  });

  it.each([
    ['volume', 'asc', ['E2', `${SLAB}: L1 L2`, 'W-L1', `${WALL}: L3 L2 L1`, 'E1']],
    ['volume', 'desc', [`${WALL}: L1 L2 L3`, 'E1', 'W-L1', `${SLAB}: L2 L1`, 'E2']],
    ['name', 'asc', ['E2', 'E1', `${SLAB}: L1 L2`, `${WALL}: L1 L2 L3`, 'W-L1']],
    ['materialName', 'asc', ['E1', `${WALL}: L1 L2 L3`, `${SLAB}: L2 L1`, 'W-L1', 'E2']],
  ] as const)('sorts by %s, %s: an element by its parts’ sum or shared value, else its first part’s, its parts among themselves', async (column, direction, expected) => {
    const view = await viewOf({ sort: { column, direction } });
    expect(entries(view)).toEqual(expected);
    expect(view.open).toBe(false);
  });

  it('filters parts, showing each element with the parts that match, open', async () => {
    const wool = await viewOf({ filters: { materialName: 'wool' } });
    expect(entries(wool)).toEqual([`${WALL}: L2`]);
    expect(wool.open).toBe(true);
    expect(entries(await viewOf({ unmappedOnly: true }))).toEqual([`${SLAB}: L1`, `${WALL}: L1 L2 L3`, 'E1', 'E2', 'W-L1']);
    // The wall's two layers shown add up to 4.5, as much as W-L1: equal keys keep the view's order.
    expect(entries(await viewOf({ filters: { volume: '>=2' }, sort: { column: 'volume', direction: 'desc' } }))).toEqual(['E1', `${WALL}: L1 L2`, 'W-L1', `${SLAB}: L2`]);
  });

  it('finds an element by its GlobalId or its name with the quick filter', async () => {
    expect(entries(await viewOf({ quick: WALL.slice(0, 12) }))).toEqual([`${WALL}: L1 L2 L3`]);
    expect(entries(await viewOf({ quick: 'floor SLAB' }))).toEqual([`${SLAB}: L1 L2`]);
  });
});
