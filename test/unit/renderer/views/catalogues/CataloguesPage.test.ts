// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { applyServerList } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { createMaterial, editMaterial } from '../../../../../renderer/db/edits';
import { settle, allByTestId, byTestId, click, material, mountApp, product, rememberOwnDatabase, text, typeInto, unmountApp, uuid } from './catalogue-harness';

let run = 0;
afterEach(unmountApp);

function rows(): HTMLElement[] {
  return allByTestId('catalogue-row');
}

function names(): string[] {
  return rows().map((row) => row.querySelector('.row__name')?.textContent?.trim() ?? '');
}

/** A connection whose cache holds the given catalogues, seeded before the page opens. */
async function seeded(seed: (db: CacheDb) => Promise<void>): Promise<string> {
  run += 1;
  const connectionId = `catalogues-page-${run}`;
  const db = new CacheDb(connectionId);
  await seed(db);
  db.close();
  return connectionId;
}

describe('the catalogues page', { timeout: 30_000 }, () => {
  it('lists the cached materials by name, searchable in any language without accents, offline', async () => {
    const id = await seeded(async (db) => {
      await applyServerList(db, 'materials', [
        material(uuid(1), 'Steel'),
        material(uuid(2), 'Concrete', { name: { en: 'Concrete', fr: 'Béton' }, supplier: 'Mebin' }),
        material(uuid(3), 'Aluminium'),
      ]);
    });
    await mountApp(id, '/catalogues/materials');
    await settle(() => expect(names()).toEqual(['Aluminium', 'Concrete', 'Steel']));
    // Nothing says these are the account's, so they are the platform's until the server says otherwise.
    expect(text('catalogue-databases-unknown')).toContain('checked once the server can be reached');
    expect(byTestId('catalogue-database-platform').textContent).toContain('Platform database · 3');
    expect(text('catalogue-count')).toBe('3, by name');

    await typeInto('catalogue-search', 'beton');
    await settle(() => expect(names()).toEqual(['Concrete']));
    await typeInto('catalogue-search', 'mebin CONC');
    await settle(() => expect(names()).toEqual(['Concrete']));
    await typeInto('catalogue-search', 'timber');
    await settle(() => expect(text('catalogue-empty')).toContain('Nothing matches “timber”'));
  });

  it('shows the account’s own items apart from the platform’s, with what is not sent yet', async () => {
    let localId = '';
    const id = await seeded(async (db) => {
      await applyServerList(db, 'materials', [material(uuid(1), 'Platform steel'), material(uuid(2), 'Our concrete'), material(uuid(3), 'Our timber')]);
      await editMaterial(db, uuid(3), { supplier: 'Houthandel' });
      localId = await createMaterial(db, { name: { en: 'Reclaimed brick' } });
    });
    rememberOwnDatabase(id, { materials: [uuid(2), uuid(3)] });
    await mountApp(id, '/catalogues/materials');
    // The account's database is chosen first when it holds anything.
    await settle(() => expect(names()).toEqual(['Our concrete', 'Our timber', 'Reclaimed brick']));
    expect(byTestId('catalogue-database-own').textContent).toContain('Acme (your account) · 3');
    const [, timber, brick] = rows();
    expect(timber?.querySelector('[data-testid="catalogue-row-changed"]')).not.toBeNull();
    expect(brick?.dataset['itemId']).toBe(localId);
    expect(brick?.querySelector('[data-testid="catalogue-row-new"]')).not.toBeNull();

    byTestId('catalogue-database-platform').querySelector('input')?.click();
    await settle(() => expect(names()).toEqual(['Platform steel']));
    expect(text('catalogue-platform-note')).toContain('none can change it');
  });

  it('shows long lists a page at a time', async () => {
    const id = await seeded(async (db) => {
      await applyServerList(db, 'materials', Array.from({ length: 250 }, (_, index) => material(uuid(index + 1), `Material ${String(index).padStart(3, '0')}`)));
    });
    await mountApp(id, '/catalogues/materials');
    await settle(() => expect(rows()).toHaveLength(200));
    expect(text('catalogue-count')).toBe(
      'The first 200 of 250, by name. The list shows 200 at a time to stay quick: the button at its end shows the next.',
    );
    await click('catalogue-show-more');
    await settle(() => expect(rows()).toHaveLength(250));
    expect(names()[249]).toBe('Material 249');
  });

  it('tells apart items of the same name by what differs between them', async () => {
    const id = await seeded(async (db) => {
      await applyServerList(db, 'materials', [
        material(uuid(1), 'Plywood', { name: { en: 'Plywood', nl: 'Triplex' }, elementFamily: 'wood' }),
        material(uuid(2), 'Plywood', { name: { en: 'Plywood', nl: 'Multiplex' }, elementFamily: 'wood' }),
        material(uuid(3), 'Adhesive', { elementFamily: 'plastic', supplier: 'Bostik' }),
        material(uuid(4), 'Adhesive', { elementFamily: 'plastic', supplier: 'Sika' }),
        material(uuid(5), 'Steel'),
      ]);
    });
    await mountApp(id, '/catalogues/materials');
    await settle(() => expect(names()).toEqual(['Adhesive', 'Adhesive', 'Plywood', 'Plywood', 'Steel']));
    const distinctions = rows().map((row) => row.querySelector('[data-testid="catalogue-row-distinction"]')?.textContent?.trim() ?? null);
    expect(distinctions).toEqual(['from Bostik', 'from Sika', 'in Dutch: Triplex', 'in Dutch: Multiplex', null]);
  });

  it('lists products by type, says what to do when the account has none, and opens a new one', async () => {
    const id = await seeded(async (db) => {
      await applyServerList(db, 'products', [product(uuid(7), 'Window frame')]);
    });
    rememberOwnDatabase(id, {});
    const { router } = await mountApp(id, '/catalogues/products');
    // With nothing of its own, the account sees the platform's products first.
    await settle(() => expect(names()).toEqual(['Window frame']));
    byTestId('catalogue-database-own').querySelector('input')?.click();
    await settle(() => expect(text('catalogue-empty')).toContain('holds no products yet'));
    byTestId('catalogue-database-platform').querySelector('input')?.click();
    await settle(() => expect(names()).toEqual(['Window frame']));
    expect(rows()[0]?.textContent).toContain('Quantity product');

    rows()[0]?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await settle(() => expect(router.currentRoute.value.fullPath).toBe(`/catalogues/products/${uuid(7)}`));
    await router.back();
    await settle(() => expect(rows()).toHaveLength(1));
    await click('catalogue-new');
    await settle(() => expect(router.currentRoute.value.fullPath).toBe('/catalogues/products/new'));
  });
});
