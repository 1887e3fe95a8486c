// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { h, type Component } from 'vue';
import CataloguePicker from '../../../../renderer/components/CataloguePicker.vue';
import ClassificationPicker from '../../../../renderer/components/ClassificationPicker.vue';
import { pickedName, type PickedItem } from '../../../../renderer/components/picker-search';
import { all, byTestId, click, eventually } from '../dom';
import type { Material } from '../../../../shared/api/schemas';
import { applyServerList } from '../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../renderer/db/cache-db';
import { OWN_DATABASE_STORAGE_PREFIX } from '../../../../renderer/stores/catalogues';
import { CATALOGUE, CONCRETE, mountAt, releasePage, seedCache, STEEL, WINDOW } from '../views/files/file-fixtures';

afterEach(releasePage);

/** Mounts a picker on a cache holding the test catalogue; answers what it emitted. */
async function mountPicker(picker: Component, locale: 'en' | 'nl' | 'de' = 'en') {
  const picks: unknown[] = [];
  let cancelled = 0;
  const connection = await seedCache([]);
  await mountAt(connection, '/portfolios', {
    locale,
    render: () => h(picker, { onPick: (value: unknown) => picks.push(value), onCancel: () => (cancelled += 1) }),
  });
  return { picks, cancelled: () => cancelled };
}

async function search(prefix: string, query: string): Promise<void> {
  const input = byTestId(`${prefix}-search`) as HTMLInputElement;
  input.value = query;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
}

function key(prefix: string, name: string): void {
  byTestId(`${prefix}-search`)?.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
}

describe('the catalogue picker on a v2.1 connection', () => {
  it('offers no choice the server would drop, and says why', async () => {
    const connection = await seedCache([]);
    await mountAt({ ...connection, apiVersion: 'v2.1' }, '/portfolios', { render: () => h(CataloguePicker) });
    await eventually(() => expect(byTestId('catalogue-picker-unavailable')?.textContent).toContain('v2.1'));
    expect(byTestId('catalogue-picker-search')).toBeNull();
  });
});

const codes = (): string[] => all('classification-picker-option').map((option) => option.dataset['code'] ?? '');
const items = (): string[] => all('catalogue-picker-option').map((option) => option.dataset['itemId'] ?? '');

describe('the classification picker', () => {
  it('finds NL-SfB codes by code, the code and its children first', async () => {
    await mountPicker(ClassificationPicker);
    expect(codes()).toHaveLength(50);
    expect(byTestId('classification-picker-more')).not.toBeNull();
    await search('classification-picker', '21.2');
    await eventually(() => expect(codes().slice(0, 3)).toEqual(['21.2', '21.20', '21.21']));
    expect(codes().every((code) => code.startsWith('21.2'))).toBe(true);
    expect(all('classification-picker-option')[0]?.textContent).toContain('buitenwanden');
  });

  it('finds codes by words of their description, accents and case ignored', async () => {
    await mountPicker(ClassificationPicker);
    await search('classification-picker', 'BINNENWANDEN niet constructief');
    await eventually(() => expect(codes()).toContain('22.1'));
    expect(all('classification-picker-option').every((option) => /binnenwanden/i.test(option.textContent ?? ''))).toBe(true);
    await search('classification-picker', 'zzzz');
    await eventually(() => expect(byTestId('classification-picker-empty')).not.toBeNull());
  });

  it('is chosen from the keyboard: arrows move, Enter picks, Escape cancels', async () => {
    const picked = await mountPicker(ClassificationPicker);
    await search('classification-picker', '21.2');
    await eventually(() => expect(codes()[0]).toBe('21.2'));
    key('classification-picker', 'ArrowDown');
    key('classification-picker', 'ArrowDown');
    key('classification-picker', 'ArrowUp');
    await flushPromises();
    expect(all('classification-picker-option')[1]?.getAttribute('aria-selected')).toBe('true');
    key('classification-picker', 'Enter');
    expect(picked.picks).toEqual(['21.20']);
    key('classification-picker', 'Escape');
    expect(picked.cancelled()).toBe(1);
  });
});

describe('the classification picker finds building parts by their common words', { timeout: 30_000 }, () => {
  /** Per part: its words, the codes that lead the list for each, and codes found further down. */
  const cases: [words: string[], first: string[], also: string[]][] = [
    [['door', 'doors', 'Tür', 'porte', 'deur'], ['31.3', '31.30', '31.31', '31.32', '31.33', '31.34', '32.3'], []],
    [['wall', 'Wand', 'mur'], ['21', '21.0', '21.1'], ['22', '22.2', '41', '42']],
    [['roof', 'Dach', 'toit'], ['27', '27.0', '27.1'], ['37', '47']],
    [['window', 'Fenster', 'fenêtre'], ['31.2', '31.20'], ['32.2', '37.2']],
    [['floor', 'Boden'], ['13', '13.0', '13.1'], ['23', '43']],
    [['stair', 'Treppe'], ['24', '24.0', '24.1'], ['44']],
    [['column', 'Stütze'], ['28.1', '28.10'], []],
    [['beam', 'Balken'], ['16.1', '16.10'], ['28.1']],
    [['foundation', 'Fundament'], ['16', '16.0', '16.1'], ['17', '17.2']],
  ];

  it.each(cases)('lists the classes of %j first', async (words, first, also) => {
    await mountPicker(ClassificationPicker);
    for (const word of words) {
      await search('classification-picker', word);
      await eventually(() => expect(codes().slice(0, first.length)).toEqual(first));
      expect(codes()).toEqual(expect.arrayContaining(also));
    }
  });

  it('lists the classes before descriptions that merely hold the letters', async () => {
    await mountPicker(ClassificationPicker);
    await search('classification-picker', 'door');
    await eventually(() => expect(codes()[0]).toBe('31.3'));
    // "doorgang" holds the letters: after the doors.
    expect(codes().indexOf('32.11')).toBeGreaterThan(codes().indexOf('32.34'));
    await search('classification-picker', 'column');
    await eventually(() => expect(codes()[0]).toBe('28.1'));
    expect(codes()).not.toContain('21');
  });
});

describe('the catalogue picker', () => {
  it('lists the cached materials and products by name in the user’s language', async () => {
    await mountPicker(CataloguePicker, 'nl');
    await eventually(() => expect(items()).toHaveLength(3));
    expect(all('catalogue-picker-option').map((option) => option.querySelector('.picker__label')?.textContent)).toEqual(['Beton', 'Kozijn', 'Staal']);
    expect(all('catalogue-picker-option')[1]?.dataset['kind']).toBe('products');
  });

  it('marks a name shown in another language for want of one in the user’s, saying which', async () => {
    await mountPicker(CataloguePicker, 'de');
    await eventually(() => expect(items()).toHaveLength(3));
    const option = (id: string) => all('catalogue-picker-option').find((each) => each.dataset['itemId'] === id);
    const mark = (id: string) => option(id)?.querySelector('[data-testid="language-mark"]');
    expect(option(STEEL)?.querySelector('.picker__label')?.textContent).toBe('Steel');
    expect(mark(STEEL)?.getAttribute('data-language')).toBe('en');
    expect(mark(WINDOW)?.getAttribute('data-language')).toBe('en');
    expect(option(CONCRETE)?.querySelector('.picker__label')?.textContent).toBe('Beton');
    expect(mark(CONCRETE)).toBeNull();
  });

  it('finds items by a name in another language, the family, the supplier or the id', async () => {
    await mountPicker(CataloguePicker, 'nl');
    await eventually(() => expect(items()).toHaveLength(3));
    await search('catalogue-picker', 'steel');
    await eventually(() => expect(items()).toEqual([STEEL]));
    await search('catalogue-picker', 'stone');
    await eventually(() => expect(items()).toEqual([CONCRETE]));
    await search('catalogue-picker', 'acme');
    await eventually(() => expect(items()).toEqual([WINDOW]));
    await search('catalogue-picker', WINDOW.slice(0, 13));
    await eventually(() => expect(items()).toEqual([WINDOW]));
  });

  it('picks with Enter and answers the item with its kind and name; Escape cancels', async () => {
    const picked = await mountPicker(CataloguePicker);
    await search('catalogue-picker', 'frame');
    await eventually(() => expect(items()).toEqual([WINDOW]));
    key('catalogue-picker', 'Enter');
    expect(picked.picks).toEqual([{ id: WINDOW, kind: 'products', name: 'Window frame', language: null }]);
    key('catalogue-picker', 'Escape');
    expect(picked.cancelled()).toBe(1);
  });

  it('answers the language of a name shown in another language, which a message names beside it', async () => {
    const picked = await mountPicker(CataloguePicker, 'de');
    await search('catalogue-picker', 'steel');
    await eventually(() => expect(items()).toEqual([STEEL]));
    key('catalogue-picker', 'Enter');
    expect(picked.picks).toEqual([{ id: STEEL, kind: 'materials', name: 'Steel', language: 'en' }]);
    expect(pickedName(picked.picks[0] as PickedItem)).toBe('Steel (EN)');
    expect(pickedName({ id: CONCRETE, kind: 'materials', name: 'Beton', language: null })).toBe('Beton');
  });
});

const BARE = '40000000-0000-4000-8000-000000000099';

/** The test catalogue with an own material of the same name as the platform's concrete, without a specific weight. */
async function mountWithOwnConcrete(props: Record<string, unknown> = {}) {
  const picks: unknown[] = [];
  const connection = await seedCache([]);
  const db = new CacheDb(connection.id);
  const bare = { ...CATALOGUE.materials[0], id: BARE, specificWeight: null, elementFamily: 'stone' } as Material;
  await applyServerList(db, 'materials', [...CATALOGUE.materials, bare]);
  db.close();
  window.localStorage.setItem(
    OWN_DATABASE_STORAGE_PREFIX + connection.id,
    JSON.stringify({ id: 'own', name: 'Ours', materials: [BARE], products: [], checkedAt: '2026-01-01T00:00:00.000Z' }),
  );
  await mountAt(connection, '/portfolios', { render: () => h(CataloguePicker, { ...props, onPick: (value: unknown) => picks.push(value) }) });
  return picks;
}

describe('the catalogue picker’s details', () => {
  it('tell same-named items apart by family, specific weight and database', async () => {
    await mountWithOwnConcrete();
    await search('catalogue-picker', 'concrete');
    await eventually(() => expect(items()).toHaveLength(2));
    const details = Object.fromEntries(all('catalogue-picker-option').map((option) => [option.dataset['itemId'], option.querySelector('.picker__detail')?.textContent]));
    expect(details[CONCRETE]).toBe('Material · Stone · 2,400 kg/m³ · Platform');
    expect(details[BARE]).toBe('Material · Stone · no specific weight · Own database');
    expect(all('catalogue-picker-option').map((option) => option.dataset['database'])).toEqual(expect.arrayContaining(['own', 'platform']));
    await search('catalogue-picker', 'frame');
    await eventually(() => expect(items()).toEqual([WINDOW]));
    expect(all('catalogue-picker-option')[0]?.querySelector('.picker__detail')?.textContent).toBe('Quantity product · Acme · composition not in the app · Platform');
  });

  it('say before the edit that elements measured by volume will not count with a material without a specific weight', async () => {
    const picks = await mountWithOwnConcrete({ elements: [{ volume: 1 }, { volume: 2 }, { volume: 1, weight: 30 }] });
    await search('catalogue-picker', 'concrete');
    await eventually(() => expect(items()).toHaveLength(2));
    all('catalogue-picker-option').find((option) => option.dataset['itemId'] === BARE)?.click();
    await eventually(() => expect(byTestId('picker-confirm')).not.toBeNull());
    expect(document.body.textContent).toContain('2 of these 3 elements have no weight, and Concrete has no specific weight: they will not count.');
    click('picker-cancel');
    await flushPromises();
    expect(picks).toEqual([]);

    all('catalogue-picker-option').find((option) => option.dataset['itemId'] === BARE)?.click();
    await eventually(() => expect(byTestId('picker-confirm')).not.toBeNull());
    click('picker-confirm');
    await eventually(() => expect(picks).toEqual([{ id: BARE, kind: 'materials', name: 'Concrete', language: null }]));

    // A material that gives them a mass is picked at once.
    all('catalogue-picker-option').find((option) => option.dataset['itemId'] === CONCRETE)?.click();
    await eventually(() => expect(picks).toHaveLength(2));
  });
});


/** Platform materials as the server's seed holds them (server/store/seed/platform-materials.json), by id. */
const SEED = {
  pineGrenen: '38aa1a31-d170-4f6c-9536-079a5075b36d',
  pine: '5fbedd05-cbdf-4c36-b55a-dcecb55e69bb',
  pineDennen: 'aea97748-93c2-42c3-9352-08541b05b185',
  translucentGlass: '60000000-0000-4000-8000-000000000001',
  aluminium: '60000000-0000-4000-8000-000000000002',
  gypsum: '60000000-0000-4000-8000-000000000003',
  ownOak: '60000000-0000-4000-8000-000000000004',
};

function seedMaterial(id: string, name: Material['name'], elementFamily: string, specificWeight: number): Material {
  return { id, name, elementFamily, description: {}, supplier: null, specificWeight, lifeTime: null } as Material;
}

const SEED_MATERIALS = [
  seedMaterial(SEED.pineGrenen, { nl: 'Naaldhout - grenen', en: 'Pine wood', de: 'Pine wood' }, 'wood', 540),
  seedMaterial(SEED.pine, { nl: 'Naaldhout', en: 'Pine wood', de: 'Pine wood' }, 'wood', 550),
  seedMaterial(SEED.pineDennen, { nl: 'Naaldhout - dennen', en: 'Pine wood', de: 'Pine wood' }, 'wood', 540),
  seedMaterial(SEED.translucentGlass, { nl: 'Doorschijnend glas', en: 'Translucent glass' }, 'glass', 2500),
  seedMaterial(SEED.aluminium, { nl: 'Aluminium', en: 'Aluminum' }, 'metal', 2800),
  seedMaterial(SEED.gypsum, { nl: 'Gipsplaat', en: 'Plasterboard' }, 'stone', 1100),
  // An own material named in Dutch only.
  seedMaterial(SEED.ownOak, { nl: 'Eiken vloerdelen' }, 'wood', 720),
];

/** The test catalogue with the platform's three pine woods and materials doors, walls and floors are made of. */
async function mountWithSeedMaterials(locale: 'en' | 'nl' | 'de' | 'fr' = 'en') {
  const connection = await seedCache([]);
  const db = new CacheDb(connection.id);
  await applyServerList(db, 'materials', [...CATALOGUE.materials, ...SEED_MATERIALS]);
  db.close();
  await mountAt(connection, '/portfolios', { locale, render: () => h(CataloguePicker) });
  await eventually(() => expect(items().length).toBeGreaterThan(0));
}

const detailOf = (id: string): string | null | undefined =>
  all('catalogue-picker-option').find((option) => option.dataset['itemId'] === id)?.querySelector('.picker__detail')?.textContent;

describe('the catalogue picker finds what users search for', { timeout: 30_000 }, () => {
  it('tells the platform materials named “Pine wood” with the same details apart by their names in other languages', async () => {
    await mountWithSeedMaterials();
    await search('catalogue-picker', 'pine wood');
    await eventually(() => expect(items()).toEqual(expect.arrayContaining([SEED.pineGrenen, SEED.pine, SEED.pineDennen])));
    expect(detailOf(SEED.pineGrenen)).toBe('Material · Wood · 540 kg/m³ · Platform · Naaldhout - grenen (NL)');
    expect(detailOf(SEED.pineDennen)).toBe('Material · Wood · 540 kg/m³ · Platform · Naaldhout - dennen (NL)');
    // Its specific weight tells the third apart; a name no other item has needs nothing more either.
    expect(detailOf(SEED.pine)).toBe('Material · Wood · 550 kg/m³ · Platform');
    await search('catalogue-picker', 'translucent');
    await eventually(() => expect(items()).toEqual([SEED.translucentGlass]));
    expect(detailOf(SEED.translucentGlass)).toBe('Material · Glass · 2,500 kg/m³ · Platform');
  });

  it('finds for “door” what doors are made of, after what is named so, in every language', async () => {
    await mountWithSeedMaterials();
    await search('catalogue-picker', 'door');
    await eventually(() => expect(items()[0]).toBe(SEED.translucentGlass));
    expect(items()).toEqual(expect.arrayContaining([SEED.pineGrenen, SEED.ownOak, SEED.aluminium, STEEL]));
    expect(items()).not.toContain(CONCRETE);
    expect(items()).not.toContain(SEED.gypsum);
    for (const word of ['deur', 'Tür', 'porte', 'puerta']) {
      await search('catalogue-picker', word);
      await eventually(() => expect(items()).toEqual(expect.arrayContaining([SEED.pine, SEED.aluminium, STEEL])));
    }
    await search('catalogue-picker', 'wand');
    await eventually(() => expect(items()).toEqual(expect.arrayContaining([CONCRETE, SEED.gypsum, SEED.pine])));
    expect(items()).not.toContain(SEED.aluminium);
  });

  it('finds items by their family in any language of the app', async () => {
    await mountWithSeedMaterials('fr');
    await search('catalogue-picker', 'Holz');
    await eventually(() => expect(items()).toEqual(expect.arrayContaining([SEED.pineGrenen, SEED.pine, SEED.pineDennen, SEED.ownOak])));
    expect(items()).not.toContain(SEED.aluminium);
    await search('catalogue-picker', 'métal');
    await eventually(() => expect(items()).toEqual(expect.arrayContaining([SEED.aluminium, STEEL])));
  });
});
