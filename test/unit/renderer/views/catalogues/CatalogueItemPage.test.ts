// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { MatchType, PriceUnit } from '../../../../../shared/api/enums';
import { applyServerList, writeCatalogueLists } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { isLocalId } from '../../../../../renderer/db/schema';
import { settle, allByTestId, byTestId, click, material, mountApp, product, rememberOwnDatabase, text, type, typeInto, unmountApp, uuid } from './catalogue-harness';

let run = 0;
afterEach(unmountApp);

async function seeded(seed: (db: CacheDb) => Promise<void>): Promise<string> {
  run += 1;
  const connectionId = `catalogue-item-${run}`;
  const db = new CacheDb(connectionId);
  await seed(db);
  db.close();
  return connectionId;
}

function saveButton(): HTMLButtonElement {
  return byTestId<HTMLButtonElement>('catalogue-save');
}

async function openTab(name: string): Promise<void> {
  await click(`catalogue-tab-${name}`);
}

function entriesOf(db: CacheDb) {
  return db.outbox.toArray().then((entries) => entries.map((entry) => [entry.entity, entry.op, entry.fields]));
}

const M1 = uuid(1);
const M2 = uuid(2);
const P1 = uuid(11);
const P2 = uuid(12);

describe('a new material', { timeout: 30_000 }, () => {
  it('is created offline with a match, its limits checked as the user types', async () => {
    const id = await seeded(async () => {});
    const { router, sync } = await mountApp(id, '/catalogues/materials/new');
    await settle(() => expect(byTestId('catalogue-name-en')).toBeTruthy());
    expect(allByTestId('catalogue-name-missing')).toHaveLength(0);
    expect(document.querySelectorAll('.n-input--error-status')).toHaveLength(0);
    expect(allByTestId('catalogue-invalid')).toHaveLength(0);
    expect(saveButton().disabled).toBe(true);

    await typeInto('catalogue-figure-specificWeight', '1850');
    expect(text('catalogue-name-missing')).toContain('at least one language');
    await typeInto('catalogue-name-en', 'Sand-lime brick');
    await openTab('circular');
    await typeInto('catalogue-figure-circular-recycledPercentageFeedstock', '101');
    expect(text('catalogue-figure-item-circular-recycledPercentageFeedstock')).toContain('Must be at most 100 %.');
    expect(text('catalogue-tab-errors-circular')).toBe('1');
    expect(text('catalogue-invalid')).toContain('Correct the values marked in red');
    expect(saveButton().disabled).toBe(true);
    await typeInto('catalogue-figure-circular-recycledPercentageFeedstock', '35,5');
    expect(text('catalogue-figure-item-circular-recycledPercentageFeedstock')).not.toContain('Must');
    await typeInto('catalogue-figure-circular-virginPercentageFeedstock', '70');
    expect(text('catalogue-sum-warning')).toContain('105.5 %');

    await openTab('matches');
    await click('catalogue-match-add');
    expect(text('catalogue-match-error')).toBe('Enter the name to match.');
    expect(saveButton().disabled).toBe(true);
    await typeInto('catalogue-match-value', 'Kalkzandsteen');
    expect(allByTestId('catalogue-match-error')).toHaveLength(0);
    expect(saveButton().disabled).toBe(false);
    saveButton().click();

    await settle(() => expect(isLocalId(String(router.currentRoute.value.params['itemId']))).toBe(true));
    const localId = String(router.currentRoute.value.params['itemId']);
    const db = sync.db!;
    const row = await db.materials.get(localId);
    expect(row?.name).toMatchObject({ en: 'Sand-lime brick' });
    expect(row?.specificWeight).toBe(1850);
    expect(row?.circular).toMatchObject({ recycledPercentageFeedstock: 0.355, virginPercentageFeedstock: 0.7 });
    expect((await db.materialMatches.get(localId))?.items).toEqual([{ value: 'Kalkzandsteen', matchType: MatchType.Equals }]);
    expect((await db.outbox.toArray()).map((entry) => [entry.entity, entry.op, entry.key])).toEqual([
      ['materials', 'create', localId],
      ['materialMatches', 'update', localId],
    ]);
    // The saved item opens as the account's own, waiting to be sent.
    await settle(() => expect(text('catalogue-item-pending')).toBe('Not sent yet'));
    expect(allByTestId('catalogue-read-only')).toHaveLength(0);
  });
});

describe('an item of the platform’s database', { timeout: 30_000 }, () => {
  it('is read-only, shows its details from the cache offline, and can be copied into the account’s database', async () => {
    const id = await seeded(async (db) => {
      await applyServerList(db, 'materials', [material(M1, 'Gold', { supplier: 'LBMA' })]);
      await writeCatalogueLists(
        db,
        [
          { table: 'materialMatches', ownerId: M1, items: [{ value: 'Goud', matchType: MatchType.Equals }] },
          { table: 'materialFinancialValues', ownerId: M1, items: [{ value: 57770, valueDate: '2023-07-01T00:00:00.000Z', currency: 'EUR', unit: PriceUnit.kg }] },
        ],
        '2026-02-03T10:00:00.000Z',
      );
    });
    rememberOwnDatabase(id, {});
    const { router, sync } = await mountApp(id, `/catalogues/materials/${M1}`);
    await settle(() => expect(text('catalogue-read-only')).toBe('Read-only'));
    expect(text('catalogue-read-only-notice')).toContain('none can change it');
    expect(byTestId<HTMLInputElement>('catalogue-name-en').readOnly).toBe(true);
    expect(byTestId('catalogue-name-en')?.closest('.item-page')?.classList.contains('item-page--read-only')).toBe(true);
    expect(allByTestId('catalogue-save')).toHaveLength(0);
    // Opening it asked the server for its details, which could not be reached: the cache's are shown, and when.
    await settle(() => expect(text('catalogue-details-status')).toContain('The server cannot be reached. Shown: the details as read on'));
    await openTab('matches');
    expect(byTestId<HTMLInputElement>('catalogue-match-value').value).toBe('Goud');
    expect(allByTestId('catalogue-match-add')).toHaveLength(0);
    await openTab('financial');
    expect(allByTestId('catalogue-value')).toHaveLength(1);
    expect(byTestId<HTMLInputElement>('catalogue-value-amount').value).toBe('57770');
    expect(allByTestId('catalogue-value-chart')).toHaveLength(1);

    await click('catalogue-copy');
    await settle(() => expect(isLocalId(String(router.currentRoute.value.params['itemId']))).toBe(true));
    const copyId = String(router.currentRoute.value.params['itemId']);
    const db = sync.db!;
    expect((await db.materials.get(copyId))?.supplier).toBe('LBMA');
    expect((await db.materialMatches.get(copyId))?.items).toEqual([{ value: 'Goud', matchType: MatchType.Equals }]);
    expect((await db.outbox.toArray()).map((entry) => [entry.entity, entry.op])).toEqual([
      ['materials', 'create'],
      ['materialMatches', 'update'],
      ['materialFinancialValues', 'update'],
    ]);
    await settle(() => expect(allByTestId('catalogue-read-only')).toHaveLength(0));
  });
});

describe('an item’s title', { timeout: 30_000 }, () => {
  it('marks a name shown in another language for want of one in the user’s, and no name of the user’s own', async () => {
    const id = await seeded(async (db) => {
      await applyServerList(db, 'materials', [material(M1, 'Gold'), material(M2, 'Silver', { name: { en: 'Silver', de: 'Silber' } })]);
    });
    const heading = () => document.querySelector('h1');
    const { router } = await mountApp(id, `/catalogues/materials/${M1}`, undefined, 'de');
    await settle(() => expect(heading()?.textContent).toContain('Gold'));
    expect(heading()?.querySelector('[data-testid="language-mark"]')?.getAttribute('data-language')).toBe('en');
    await router.push(`/catalogues/materials/${M2}`);
    await settle(() => expect(heading()?.textContent).toBe('Silber'));
    expect(heading()?.querySelector('[data-testid="language-mark"]')).toBeNull();
  });
});

/** A cache holding `item` as a material of the account's own database, with empty lists; answers the connection id. */
async function ownMaterial(item: ReturnType<typeof material>): Promise<string> {
  const id = await seeded(async (db) => {
    await applyServerList(db, 'materials', [item]);
    await writeCatalogueLists(
      db,
      [
        { table: 'materialMatches', ownerId: item.id, items: [] },
        { table: 'materialFinancialValues', ownerId: item.id, items: [] },
      ],
      '2026-02-03T10:00:00.000Z',
    );
  });
  rememberOwnDatabase(id, { materials: [item.id] });
  return id;
}

describe('an item of the account’s database', { timeout: 30_000 }, () => {
  it('saves only the changed fields and lists, refusing a bad currency as it is typed', async () => {
    const id = await ownMaterial(material(M1, 'Oak', { name: { en: 'Oak', nl: 'Eik' } }));
    const { sync } = await mountApp(id, `/catalogues/materials/${M1}`);
    await settle(() => expect(byTestId<HTMLInputElement>('catalogue-name-nl').value).toBe('Eik'));
    expect(allByTestId('catalogue-read-only')).toHaveLength(0);
    expect(saveButton().disabled).toBe(true);

    await typeInto('catalogue-name-nl', 'Eikenhout');
    await openTab('financial');
    await typeInto('catalogue-figure-financial-transportCosts', '0,02');
    await click('catalogue-value-add');
    await typeInto('catalogue-value-amount', '180');
    await typeInto('catalogue-value-currency', 'EU');
    expect(text('catalogue-currency-error')).toBe('Three letters, such as EUR.');
    expect(text('catalogue-tab-errors-financial')).toBe('1');
    expect(saveButton().disabled).toBe(true);
    await typeInto('catalogue-value-currency', 'eur');
    expect(allByTestId('catalogue-currency-error')).toHaveLength(0);
    saveButton().click();

    const db = sync.db!;
    await settle(async () => expect(await db.outbox.count()).toBe(2));
    const entries = await entriesOf(db);
    expect(entries[0]).toEqual(['materials', 'update', { 'name.nl': 'Eikenhout', 'financial.transportCosts': 0.02 }]);
    expect(entries[1]?.[0]).toBe('materialFinancialValues');
    const values = (await db.materialFinancialValues.get(M1))?.items;
    expect(values).toHaveLength(1);
    expect(values?.[0]).toMatchObject({ value: 180, currency: 'EUR', unit: PriceUnit.mt });
    const row = await db.materials.get(M1);
    expect(row?.name).toEqual({ en: 'Oak', nl: 'Eikenhout' });
    expect(row?.base?.name).toEqual({ en: 'Oak', nl: 'Eik' });
    await settle(() => expect(saveButton().disabled).toBe(true));
  });
});

describe('a price’s date', { timeout: 30_000 }, () => {
  /** The date field's input of the only price. */
  const dateInput = (): HTMLInputElement => byTestId('catalogue-value-date').querySelector('input')!;

  async function typeDate(value: string): Promise<void> {
    dateInput().value = value;
    dateInput().dispatchEvent(new Event('input'));
    dateInput().dispatchEvent(new Event('blur'));
    await flushPromises();
  }

  it('takes a typed ISO date in English, and names a text that is no date without saving anything', async () => {
    const id = await ownMaterial(material(M1, 'Oak'));
    const { sync } = await mountApp(id, `/catalogues/materials/${M1}`);
    await settle(() => expect(byTestId<HTMLInputElement>('catalogue-name-en').value).toBe('Oak'));
    await openTab('financial');
    await click('catalogue-value-add');
    await typeInto('catalogue-value-amount', '180');
    expect(dateInput().placeholder).toBe('MM/DD/YYYY or YYYY-MM-DD');

    await typeDate('2019-05-01');
    await settle(() => expect(dateInput().value).toBe('05/01/2019'));
    expect(saveButton().disabled).toBe(false);

    await typeDate('2019-13-45');
    await settle(() => expect(text('catalogue-value')).toContain('“2019-13-45” is not a date: type MM/DD/YYYY or YYYY-MM-DD.'));
    expect(dateInput().value).toBe('05/01/2019');
    expect(text('catalogue-tab-errors-financial')).toBe('1');
    expect(saveButton().disabled).toBe(true);
    const db = sync.db!;
    expect(await db.outbox.count()).toBe(0);

    await typeDate('2019-05-01');
    await settle(() => expect(saveButton().disabled).toBe(false));
    expect(text('catalogue-value')).not.toContain('is not a date');
    saveButton().click();
    await settle(async () => expect(await db.outbox.count()).toBe(1));
    const values = (await db.materialFinancialValues.get(M1))?.items;
    expect(values).toEqual([expect.objectContaining({ value: 180, valueDate: new Date(2019, 4, 1).toISOString() })]);
  });
});

describe('a product', { timeout: 30_000 }, () => {
  async function productCache() {
    return seeded(async (db) => {
      await applyServerList(db, 'materials', [material(M1, 'Glass'), material(M2, 'Aluminium')]);
      await applyServerList(db, 'products', [product(P1, 'Facade panel'), product(P2, 'Window')]);
      await writeCatalogueLists(
        db,
        [
          { table: 'productChildren', ownerId: P1, items: [{ childId: P2, value: 4, circular: product(P2, '').circular && childCircular() }] },
          { table: 'productMatches', ownerId: P1, items: [] },
          { table: 'productFinancialValues', ownerId: P1, items: [] },
          { table: 'productChildren', ownerId: P2, items: [{ childId: M1, value: 0.5, circular: childCircular() }] },
          { table: 'productMatches', ownerId: P2, items: [] },
          { table: 'productFinancialValues', ownerId: P2, items: [] },
        ],
        '2026-02-03T10:00:00.000Z',
      );
    });
  }

  function childCircular() {
    return {
      inheritFeedstockPercentages: true,
      recycledPercentageFeedstock: null,
      rapidRenewablesPercentageFeedstock: null,
      inheritEndOfLifePercentages: true,
      recycledPercentageEndOfLife: null,
      landfillPercentageEndOfLife: null,
      inheritEfficiencyPercentages: true,
      efficiencyPercentageRecyclingFeedstock: null,
      efficiencyPercentageRecyclingEndOfLife: null,
    };
  }

  it('shows its parts as a tree that opens into the parts of its parts', async () => {
    const id = await productCache();
    rememberOwnDatabase(id, { products: [P1, P2] });
    await mountApp(id, `/catalogues/products/${P1}`);
    await settle(() => expect(byTestId<HTMLInputElement>('catalogue-name-en').value).toBe('Facade panel'));
    await openTab('children');
    await settle(() => expect(allByTestId('catalogue-child-name').map((each) => each.textContent)).toEqual(['Window']));
    expect(byTestId<HTMLInputElement>('catalogue-child-amount').value).toBe('4');
    await click('catalogue-child-expand');
    await settle(() => expect(allByTestId('catalogue-child-node')).toHaveLength(1));
    const node = byTestId('catalogue-child-node');
    expect(node.dataset['childId']).toBe(M1);
    expect(node.textContent).toContain('Glass');
    expect(node.textContent).toContain('0.5');
  });

  it('marks the names of its parts, of their parts and of the items it offers that are shown in another language', async () => {
    const id = await seeded(async (db) => {
      await applyServerList(db, 'materials', [material(M1, 'Glass'), material(M2, 'Aluminium', { name: { en: 'Aluminium', de: 'Aluminium' } })]);
      await applyServerList(db, 'products', [product(P1, 'Facade panel', { name: { en: 'Facade panel', de: 'Fassadenplatte' } }), product(P2, 'Window')]);
      await writeCatalogueLists(
        db,
        [
          { table: 'productChildren', ownerId: P1, items: [{ childId: P2, value: 4, circular: childCircular() }, { childId: M2, value: 1, circular: childCircular() }] },
          { table: 'productChildren', ownerId: P2, items: [{ childId: M1, value: 0.5, circular: childCircular() }] },
        ],
        '2026-02-03T10:00:00.000Z',
      );
    });
    rememberOwnDatabase(id, { products: [P1, P2] });
    await mountApp(id, `/catalogues/products/${P1}`, undefined, 'de');
    await settle(() => expect(document.querySelector('h1')?.textContent).toBe('Fassadenplatte'));
    await openTab('children');
    await settle(() => expect(allByTestId('catalogue-child-name').map((each) => each.textContent)).toEqual(['Window', 'Aluminium']));
    // Window has no German name, Aluminium has one (no part is open yet: a row holds only its own mark).
    expect(allByTestId('catalogue-child').map((row) => row.querySelector('[data-testid="language-mark"]')?.getAttribute('data-language') ?? null)).toEqual(['en', null]);
    await click('catalogue-child-expand');
    await settle(() => expect(allByTestId('catalogue-child-node')).toHaveLength(1));
    expect(byTestId('catalogue-child-node').querySelector('[data-testid="language-mark"]')?.getAttribute('data-language')).toBe('en');
    await typeInto('catalogue-child-search', 'glass');
    expect(allByTestId('catalogue-child-option').map((each) => each.querySelector('[data-testid="language-mark"]')?.getAttribute('data-language'))).toEqual(['en']);
    await typeInto('catalogue-child-search', 'alu');
    expect(allByTestId('catalogue-child-option').map((each) => each.querySelector('[data-testid="language-mark"]'))).toEqual([null]);
  });

  it('offers no part that would make it contain itself, and saves the parts it gets', async () => {
    const id = await productCache();
    rememberOwnDatabase(id, { products: [P1, P2] });
    const { sync } = await mountApp(id, `/catalogues/products/${P2}`);
    await settle(() => expect(byTestId<HTMLInputElement>('catalogue-name-en').value).toBe('Window'));
    await openTab('children');
    await typeInto('catalogue-child-search', 'facade');
    expect(allByTestId('catalogue-child-option')).toHaveLength(0);
    expect(document.body.textContent).toContain('or it would contain this product');
    await typeInto('catalogue-child-search', 'alu');
    expect(allByTestId('catalogue-child-option').map((each) => each.dataset['childId'])).toEqual([M2]);
    await click('catalogue-child-option');
    expect(allByTestId('catalogue-child-name').map((each) => each.textContent)).toEqual(['Glass', 'Aluminium']);
    const amounts = allByTestId('catalogue-child-amount') as HTMLInputElement[];
    await type(amounts[1]!, '0.2');
    allByTestId('catalogue-child-inheritEndOfLifePercentages')[1]?.click();
    await flushPromises();
    await typeInto('catalogue-child-recycledPercentageEndOfLife', '90');
    saveButton().click();

    const db = sync.db!;
    await settle(async () => expect(await db.outbox.count()).toBe(1));
    const children = (await db.productChildren.get(P2))?.items;
    expect(children?.map((child) => [child.childId, child.value])).toEqual([[M1, 0.5], [M2, 0.2]]);
    expect(children?.[1]?.circular).toMatchObject({ inheritEndOfLifePercentages: false, recycledPercentageEndOfLife: 0.9, inheritFeedstockPercentages: true });
    expect((await db.outbox.toArray())[0]).toMatchObject({ entity: 'productChildren', key: P2, op: 'update' });
  });

  it('must get its type when it is created', async () => {
    const id = await seeded(async () => {});
    await mountApp(id, '/catalogues/products/new');
    await settle(() => expect(byTestId('catalogue-name-en')).toBeTruthy());
    await typeInto('catalogue-name-en', 'Door');
    expect(document.body.textContent).toContain('Choose the product type.');
    expect(saveButton().disabled).toBe(true);
  });
});
