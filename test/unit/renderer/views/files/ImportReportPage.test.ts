// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildingFileStatuses, BuildingLevel, ElementType, MatchType, ProductType } from '../../../../../shared/api/enums';
import type { ApiAnswer, ApiRequest } from '../../../../../shared/ipc';
import type { BuildingFileImportReport, Material } from '../../../../../shared/api/schemas';
import { applyServerList } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { elementKey, isLocalId } from '../../../../../renderer/db/schema';
import { OWN_DATABASE_STORAGE_PREFIX } from '../../../../../renderer/stores/catalogues';
import { all, byTestId, click, eventually, text } from '../../dom';
import { BUILDING, CATALOGUE, CONCRETE, element, FILE, mountAt, NO_ANSWER, releasePage, seedCache, STEEL } from './file-fixtures';

afterEach(releasePage);

const STRUCTURE = { id: BuildingLevel.Structure.id, name: 'Structure' };
const ELEMENTS = [
  element('E1', { materialName: 'Beton C20/25', volume: 2 }),
  element('E2', { materialName: 'Beton C20/25', volume: 2 }),
  element('E3', { materialName: 'Beton C20/25', volume: 2 }),
  element('E4', { materialName: 'Kalkzandsteen' }),
  element('E5', { materialName: 'Kalkzandsteen' }),
  element('E6', { materialName: 'Beton C20/25', mapping: { type: ElementType.Material, id: CONCRETE }, brandLayerMatch: STRUCTURE }),
  element('E7', { elementClass: 'IfcSlab' }),
  element('E8', { elementClass: 'IfcSlab', materialName: 'Staal', mapping: { type: ElementType.Material, id: CONCRETE } }),
];
const PATH = `/buildings/${BUILDING}/files/${FILE}/report`;

function share(elements: number, volumeShare = elements / 8) {
  return { elements, volume: volumeShare * 11, volumeShare };
}

function counted(elements: number, volumeShare: number) {
  return { ...share(elements, volumeShare), elementShare: elements / 8 };
}

const REPORT: BuildingFileImportReport = {
  buildingFileId: FILE,
  status: BuildingFileStatuses.Mapped,
  isActive: true,
  elementCount: 8,
  volume: 11,
  counted: counted(1, 0.09),
  material: { model: share(0), rule: share(1), keyword: share(1), none: share(6) },
  quantities: { model: share(6), geometry: share(1), none: share(1) },
  geometryIssues: { open: 1, empty: 0, failed: 0 },
  classification: { model: share(1), layer: share(0), inferred: share(0), none: share(7) },
  unmappedMaterials: [],
  unlayeredClasses: [],
  notCounted: [
    { reason: 'no-material', elements: 6, volume: 8, withoutVolume: 1, description: 'Not mapped to a material or product.', groups: [] },
    { reason: 'no-building-layer', elements: 1, volume: 1, withoutVolume: 0, description: 'No building layer: the classification is unknown.', groups: [] },
  ],
  rejected: { count: 0, rows: [] },
  summary: '1 of 8 elements count in the circularity index.',
};

/** A server that answers the report with `report` and gives no other answer (so nothing is pushed meanwhile). */
function serverAnswering(report: ApiAnswer) {
  return async (request: ApiRequest): Promise<ApiAnswer> => (request.operationId === 'getBuildingFileImportReport' ? report : NO_ANSWER);
}

const NOT_FOUND: ApiAnswer = {
  kind: 'problem',
  status: 404,
  problem: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Route GET:/api/v2.3/buildings/…/report not found', instance: '/api/v2.3', errors: [], message: '' },
};

/** The outbox entries as (element id, fields). */
async function entries(db: CacheDb): Promise<Array<[string, unknown]>> {
  return (await db.outbox.toArray()).map((entry) => [entry.key, entry.fields]);
}

function groups(testId: string, attribute: string): Array<[string, string]> {
  return all(testId).map((group) => [group.dataset[attribute] ?? '', group.dataset['elements'] ?? '']);
}

async function search(prefix: string, query: string): Promise<void> {
  const input = byTestId(`${prefix}-search`) as HTMLInputElement;
  input.value = query;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
}

function enter(prefix: string): void {
  byTestId(`${prefix}-search`)?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
}

describe('the import report', { timeout: 30_000 }, () => {
  it('on a server that gives no report, says so and maps a material name’s unmapped elements in one bulk edit', async () => {
    const connection = await seedCache(ELEMENTS);
    const { sync } = await mountAt(connection, PATH, { handle: serverAnswering(NOT_FOUND) });
    await eventually(() => expect(byTestId('report-unsupported')).not.toBeNull());
    await eventually(() =>
      expect(groups('report-unmapped-group', 'materialName')).toEqual([
        ['Beton C20/25', '3'],
        ['Kalkzandsteen', '2'],
        ['', '1'],
      ]),
    );
    expect(text('report-local-summary')).toBe('8 elements in the app: 2 mapped, 1 with a building layer.');
    expect(byTestId('report-pending')?.dataset['count']).toBe('0');
    expect((byTestId('report-refine') as HTMLButtonElement).disabled).toBe(true);

    all('report-unmapped-group')[0]?.querySelector<HTMLElement>('[data-testid="report-map"]')?.click();
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    await search('catalogue-picker', 'concrete');
    await eventually(() => expect(all('catalogue-picker-option').map((option) => option.dataset['itemId'])).toEqual([CONCRETE]));
    enter('catalogue-picker');

    await eventually(async () =>
      expect(await entries(sync.db!)).toEqual(['E1', 'E2', 'E3'].map((id) => [elementKey(FILE, id), { materialId: CONCRETE }])),
    );
    expect((await sync.db!.elements.get([FILE, 'E2']))?.mapping).toEqual({ type: ElementType.Material, id: CONCRETE });
    await eventually(() => expect(groups('report-unmapped-group', 'materialName').map(([name]) => name)).toEqual(['Kalkzandsteen', '']));
    await eventually(() => expect(byTestId('report-pending')?.dataset['count']).toBe('3'));
    expect((byTestId('report-refine') as HTMLButtonElement).disabled).toBe(false);
  });

  it('offline, says the report needs the server and classifies an IFC class’s elements without a building layer', async () => {
    const connection = await seedCache(ELEMENTS);
    const { sync } = await mountAt(connection, PATH);
    await eventually(() => expect(byTestId('report-refusal')).not.toBeNull());
    await eventually(() =>
      expect(groups('report-unlayered-group', 'elementClass')).toEqual([
        ['IfcWall', '5'],
        ['IfcSlab', '2'],
      ]),
    );
    all('report-unlayered-group')[1]?.querySelector<HTMLElement>('[data-testid="report-classify"]')?.click();
    await eventually(() => expect(byTestId('classification-picker-search')).not.toBeNull());
    await search('classification-picker', '23.2');
    await eventually(() => expect(all('classification-picker-option')[0]?.dataset['code']).toBe('23.2'));
    enter('classification-picker');

    await eventually(async () =>
      expect(await entries(sync.db!)).toEqual(['E7', 'E8'].map((id) => [elementKey(FILE, id), { classificationLookup: '23.2' }])),
    );
    expect((await sync.db!.elements.get([FILE, 'E7']))?.classificationLookup).toEqual(['23.2']);
    await eventually(() => expect(groups('report-unlayered-group', 'elementClass')).toEqual([['IfcWall', '5']]));
  });

  it('shows the server’s figures, with the reasons in the user’s language rather than the server’s words', async () => {
    const connection = await seedCache(ELEMENTS);
    await mountAt(connection, PATH, { locale: 'nl', handle: serverAnswering({ kind: 'ok', status: 200, value: REPORT, location: null }) });
    await eventually(() => expect(byTestId('report-figures')).not.toBeNull());
    expect(text('report-counted')).toContain('1 van 8 elementen tellen mee in de circulariteitsindex (13%)');
    // One element that does not count has no volume: the volume share says so rather than reading as the whole story.
    expect(text('report-counted-volume')).toBe('Ze hebben 9% van het volume van het bestand; één element dat niet meetelt heeft geen volume, dus het aandeel zegt er niets over.');
    const material = byTestId('report-breakdown');
    expect(material?.dataset['breakdown']).toBe('material');
    expect([...(material?.querySelectorAll<HTMLElement>('[data-testid="report-source"]') ?? [])].map((row) => [row.dataset['source'], row.dataset['elements']])).toEqual([
      ['model', '0'],
      ['rule', '1'],
      ['keyword', '1'],
      ['none', '6'],
    ]);
    expect(all('report-geometry-issue').map((issue) => issue.dataset['issue'])).toEqual(['open']);
    const reasons = all('report-not-counted');
    expect(reasons.map((reason) => reason.dataset['reason'])).toEqual(['no-material', 'no-building-layer']);
    expect(reasons[0]?.textContent).toContain('Niet gekoppeld aan een materiaal of product.');
    expect(reasons[0]?.querySelector('[data-testid="report-fix"]')?.textContent).toBe('Koppel ze hieronder, per materiaalnaam of per IFC-klasse en typenaam.');
    expect(document.body.textContent).not.toContain('Not mapped to a material or product.');
    expect(byTestId('report-rejected')).toBeNull();
  });

  it('lists first the rows the import left out, with the server’s reason for each', async () => {
    const connection = await seedCache(ELEMENTS);
    const rejected = { count: 3, rows: ['sheet Elements row 4: no id', 'sheet Elements row 9: quantity is not a number'] };
    await mountAt(connection, PATH, { handle: serverAnswering({ kind: 'ok', status: 200, value: { ...REPORT, rejected }, location: null }) });
    await eventually(() => expect(byTestId('report-rejected')?.dataset['count']).toBe('3'));
    expect(text('report-rejected')).toContain('The import left 3 rows of the file out');
    expect(all('report-rejected-row').map((row) => row.textContent)).toEqual(rejected.rows);
    expect(text('report-rejected')).toContain('and 1 more, not listed');
  });

  it('says how many elements were split into how many, and what was assumed or left out, only where there is any', async () => {
    const connection = await seedCache(ELEMENTS);
    const parts = { elementsSplit: 3, partsMade: 8, elementsWithAssumedShares: 1, layersLeftOut: 2, partsWithoutMaterial: 0, elementsWithFractionsNormalised: 0 };
    await mountAt(connection, PATH, { locale: 'nl', handle: serverAnswering({ kind: 'ok', status: 200, value: { ...REPORT, parts }, location: null }) });
    await eventually(() => expect(byTestId('report-parts')?.dataset['split']).toBe('3'));
    expect(byTestId('report-parts')?.dataset['parts']).toBe('8');
    expect(all('report-parts-line').map((line) => [line.dataset['line'], line.textContent])).toEqual([
      ['split', '3 elementen van gelaagde of samengestelde materialen werden 8 elementen, één per laag of materiaal.'],
      ['assumed', 'Voor één ervan zijn de aandelen aangenomen: gelijke delen van een materiaallijst, of van bestanddelen zonder fractie.'],
      ['layersLeftOut', '2 lagen zijn weggelaten om hun dikte (0, kleiner dan 0 of geen).'],
    ]);
  });

  it.each<[string, BuildingFileImportReport]>([
    [
      'nothing was split',
      { ...REPORT, parts: { elementsSplit: 0, partsMade: 0, elementsWithAssumedShares: 0, layersLeftOut: 0, partsWithoutMaterial: 0, elementsWithFractionsNormalised: 0 } },
    ],
    ['the server does not split', REPORT],
  ])('shows no split section when %s', async (_, report) => {
    const connection = await seedCache(ELEMENTS);
    await mountAt(connection, PATH, { handle: serverAnswering({ kind: 'ok', status: 200, value: report, location: null }) });
    await eventually(() => expect(byTestId('report-figures')).not.toBeNull());
    expect(byTestId('report-parts')).toBeNull();
  });

  it('opens from the file page', async () => {
    const connection = await seedCache(ELEMENTS);
    const { router } = await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
    await eventually(() => expect(byTestId('file-report-link')).not.toBeNull());
    click('file-report-link');
    await eventually(() => expect(router.currentRoute.value.name).toBe('file-report'));
    await eventually(() => expect(byTestId('import-report')?.dataset['fileId']).toBe(FILE));
  });

});

const TYPE = 'Single-Flush 0915 x 2134mm';
const BARE = '40000000-0000-4000-8000-000000000099';
const UNNAMED = [
  element('D1', { elementClass: 'IfcDoor', typeName: TYPE, volume: 0.1 }),
  element('D2', { elementClass: 'IfcDoor', typeName: TYPE, volume: 0.1 }),
  element('D3', { elementClass: 'IfcDoor', typeName: TYPE, materialName: ' ', volume: 0.1 }),
  element('G1', { elementClass: 'IfcPlate', typeName: 'Glass', volume: 0.01 }),
  element('B1', { materialName: 'Beton', volume: 0.05 }),
];

/** The account's own database as the app last read it: these materials are the account's. */
function ownDatabase(connectionId: string, materials: string[]): void {
  window.localStorage.setItem(OWN_DATABASE_STORAGE_PREFIX + connectionId, JSON.stringify({ id: 'own', name: 'Ours', materials, products: [], checkedAt: '2026-01-01T00:00:00.000Z' }));
}

function groupOf(testId: string, predicate: (group: HTMLElement) => boolean): HTMLElement {
  const found = all(testId).find(predicate);
  if (found === undefined) throw new Error(`no ${testId}`);
  return found;
}

describe('the import report of a model that names no materials', { timeout: 30_000 }, () => {
  it('groups unnamed elements by IFC class and type name, and maps a group with a rule on its type name', async () => {
    const connection = await seedCache(UNNAMED);
    const { sync } = await mountAt(connection, PATH, { handle: serverAnswering(NOT_FOUND) });
    await eventually(() => expect(all('report-unmapped-group')).toHaveLength(3));
    const doors = all('report-unmapped-group')[0]!;
    expect(doors.getAttribute('data-material-name')).toBe('');
    expect({ ...doors.dataset }).toMatchObject({ elementClass: 'IfcDoor', typeName: TYPE, elements: '3' });
    expect(doors.textContent).toContain(`IfcDoor · ${TYPE}`);
    expect(groupOf('report-unmapped-group', (group) => group.dataset['materialName'] === 'Beton').dataset['elementClass']).toBeUndefined();

    doors.querySelector<HTMLElement>('[data-testid="report-map"]')?.click();
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    expect(byTestId('group-picker-rule')?.querySelector('.n-checkbox')?.getAttribute('aria-checked') ?? byTestId('group-picker-rule')?.getAttribute('aria-checked')).toBe('true');
    await search('catalogue-picker', 'concrete');
    await eventually(() => expect(all('catalogue-picker-option').map((option) => option.dataset['itemId'])).toEqual([CONCRETE]));
    enter('catalogue-picker');

    // The platform's concrete cannot hold the rule: an own product of the type, made of it, does, and the doors map to it.
    const db = sync.db!;
    const product = await eventually(async () => {
      const made = (await db.products.toArray()).find((row) => row.name.en === TYPE);
      expect(made).toBeDefined();
      return made!;
    });
    expect(isLocalId(product.id)).toBe(true);
    expect(product.type).toBe(ProductType.VolumeProduct);
    expect((await db.productChildren.get(product.id))?.items).toMatchObject([{ childId: CONCRETE, value: 2400 }]);
    expect((await db.productMatches.get(product.id))?.items).toEqual([{ value: TYPE, matchType: MatchType.Equals }]);
    await eventually(async () =>
      expect((await entries(db)).filter(([key]) => key.startsWith(`${FILE}/`))).toEqual(['D1', 'D2', 'D3'].map((id) => [elementKey(FILE, id), { materialId: product.id }])),
    );
    await eventually(() => expect(all('report-unmapped-group').map((group) => group.dataset['typeName'] ?? group.dataset['materialName'])).toEqual(['Beton', 'Glass']));
    // Offline, the file cannot be made to match against the account's database now: the app says where to set it.
    await eventually(() => expect(document.body.textContent).toContain('set it under Tags and databases once the server can be reached'));
  });

  it('adds the rule to an item of the account’s own database instead', async () => {
    const connection = await seedCache(UNNAMED);
    ownDatabase(connection.id, [STEEL]);
    const seeded = new CacheDb(connection.id);
    await seeded.materialMatches.put({ ownerId: STEEL, items: [{ value: 'Staal', matchType: MatchType.Contains }], fetchedAt: '2026-01-01T00:00:00.000Z' });
    seeded.close();
    const { sync } = await mountAt(connection, PATH, { handle: serverAnswering(NOT_FOUND) });
    await eventually(() => expect(all('report-unmapped-group')).toHaveLength(3));
    all('report-unmapped-group')[0]?.querySelector<HTMLElement>('[data-testid="report-map"]')?.click();
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    await search('catalogue-picker', 'steel');
    await eventually(() => expect(all('catalogue-picker-option').map((option) => option.dataset['database'])).toEqual(['own']));
    enter('catalogue-picker');
    const db = sync.db!;
    await eventually(async () =>
      expect((await db.materialMatches.get(STEEL))?.items).toEqual([
        { value: 'Staal', matchType: MatchType.Contains },
        { value: TYPE, matchType: MatchType.Equals },
      ]),
    );
    await eventually(async () => expect((await db.elements.get([FILE, 'D1']))?.mapping).toEqual({ type: ElementType.Material, id: STEEL }));
    expect(await db.products.count()).toBe(CATALOGUE.products.length);
  });

  it('keeps no rule when the user leaves it off', async () => {
    const connection = await seedCache(UNNAMED);
    const { sync } = await mountAt(connection, PATH, { handle: serverAnswering(NOT_FOUND) });
    await eventually(() => expect(all('report-unmapped-group')).toHaveLength(3));
    all('report-unmapped-group')[0]?.querySelector<HTMLElement>('[data-testid="report-map"]')?.click();
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    byTestId('group-picker-rule')?.click();
    await flushPromises();
    await search('catalogue-picker', 'concrete');
    await eventually(() => expect(all('catalogue-picker-option')).toHaveLength(1));
    enter('catalogue-picker');
    await eventually(async () => expect((await sync.db!.elements.get([FILE, 'D2']))?.mapping).toEqual({ type: ElementType.Material, id: CONCRETE }));
    expect(await sync.db!.products.count()).toBe(CATALOGUE.products.length);
  });
});

describe('the reasons of the server’s report, each with its fix', { timeout: 30_000 }, () => {
  const mappedToBare = { type: ElementType.Material, id: BARE };
  const ELEMENTS_OF_REASONS = [
    element('M1', { mapping: mappedToBare, volume: 1 }),
    element('M2', { mapping: mappedToBare, volume: 2 }),
    element('M3', { mapping: mappedToBare, volume: 1, weight: 40 }),
    element('R1', { elementClass: 'IfcSlab', typeName: 'Roof', mapping: { type: ElementType.Material, id: CONCRETE }, volume: null }),
    element('C1', { mapping: { type: ElementType.Material, id: CONCRETE } }),
  ];
  const group = (reason: string, elements: number, groups: unknown[], withoutVolume = 0) => ({ reason, elements, volume: elements, withoutVolume, description: '', groups });
  const REASONS = {
    ...REPORT,
    isActive: false,
    elementCount: 5,
    counted: { elements: 0, elementShare: 0, volume: 0, volumeShare: 0 },
    notCounted: [
      group('no-quantity', 1, [{ materialName: null, elementClass: 'IfcSlab', typeName: 'Roof', mapping: null, elements: 1, volume: 0 }], 1),
      group('no-mass', 2, [{ materialName: null, elementClass: null, typeName: null, mapping: mappedToBare, elements: 2, volume: 3 }]),
      group('file-not-counted', 2, [{ materialName: null, elementClass: null, typeName: null, mapping: null, elements: 2, volume: 2 }]),
    ],
  } as BuildingFileImportReport;

  async function mountReasons(options: { locale?: 'en' | 'de'; report?: BuildingFileImportReport } = {}) {
    const connection = await seedCache(ELEMENTS_OF_REASONS);
    const db = new CacheDb(connection.id);
    await applyServerList(db, 'materials', [...CATALOGUE.materials, { ...CATALOGUE.materials[0], id: BARE, name: { en: 'Oak, own' }, specificWeight: null } as Material]);
    db.close();
    ownDatabase(connection.id, [BARE]);
    const handle = async (request: ApiRequest): Promise<ApiAnswer> => {
      if (request.operationId === 'getBuildingFileImportReport') return { kind: 'ok', status: 200, value: options.report ?? REASONS, location: null };
      if (request.operationId === 'setBuildingFileActive') return { kind: 'ok', status: 200, value: null, location: null };
      return NO_ANSWER;
    };
    return mountAt(connection, PATH, { handle, locale: options.locale ?? 'en' });
  }

  it('names the material without a specific weight, its database, and links to its page to give it one', async () => {
    await mountReasons();
    await eventually(() => expect(all('report-reason-group')).toHaveLength(2));
    const noMass = groupOf('report-reason-group', (part) => part.dataset['reason'] === 'no-mass');
    expect(noMass.dataset['itemId']).toBe(BARE);
    await eventually(() => expect(noMass.textContent).toContain('Oak, own · Own database · no specific weight'));
    expect(noMass.querySelector('[data-testid="report-give-weight"]')?.getAttribute('href')).toBe(`#/catalogues/materials/${BARE}`);
    const reason = groupOf('report-not-counted', (each) => each.dataset['reason'] === 'no-mass');
    expect(reason.querySelector('[data-testid="report-fix"]')?.textContent).toBe('Give their material a specific weight, map them to one that has it, or give them a weight.');
    const noQuantity = groupOf('report-reason-group', (part) => part.dataset['reason'] === 'no-quantity');
    expect(noQuantity.textContent).toContain('IfcSlab · Roof');
    expect(noQuantity.querySelector('[data-testid="report-remap"]')).toBeNull();
  });

  it('marks the name of an item shown in another language for want of one in the user’s', async () => {
    const concrete = { materialName: null, elementClass: null, typeName: null, mapping: { type: ElementType.Material, id: CONCRETE }, elements: 1, volume: 1 };
    await mountReasons({ locale: 'de', report: { ...REASONS, notCounted: [...REASONS.notCounted, group('no-circular-data', 1, [concrete])] } as BuildingFileImportReport });
    await eventually(() => expect(all('report-reason-group')).toHaveLength(3));
    const noMass = groupOf('report-reason-group', (part) => part.dataset['reason'] === 'no-mass');
    // The own material is named in English only; the platform's concrete has a German name.
    await eventually(() => expect(noMass.querySelector('[data-testid="language-mark"]')?.getAttribute('data-language')).toBe('en'));
    expect(noMass.querySelector('.reasons__name > span')?.textContent).toBe('Oak, own');
    const noCircular = groupOf('report-reason-group', (part) => part.dataset['reason'] === 'no-circular-data');
    await eventually(() => expect(noCircular.querySelector('.reasons__name')?.textContent).toContain('Beton'));
    expect(noCircular.querySelector('[data-testid="language-mark"]')).toBeNull();
  });

  it('maps the elements without a mass to another material in one bulk edit through the outbox', async () => {
    const { sync } = await mountReasons();
    await eventually(() => expect(all('report-reason-group')).toHaveLength(2));
    groupOf('report-reason-group', (part) => part.dataset['reason'] === 'no-mass').querySelector<HTMLElement>('[data-testid="report-remap"]')?.click();
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    await search('catalogue-picker', 'concrete');
    await eventually(() => expect(all('catalogue-picker-option').map((option) => option.dataset['itemId'])).toEqual([CONCRETE]));
    enter('catalogue-picker');
    // The element with a weight has a mass and is not one of them.
    await eventually(async () => expect(await entries(sync.db!)).toEqual(['M1', 'M2'].map((id) => [elementKey(FILE, id), { materialId: CONCRETE }])));
    await eventually(() => expect(byTestId('report-reason-changed')).not.toBeNull());
  });

  it('opens the grid on the elements that need a weight', async () => {
    const { router } = await mountReasons();
    await eventually(() => expect(all('report-reason-group')).toHaveLength(2));
    groupOf('report-reason-group', (part) => part.dataset['reason'] === 'no-mass').querySelector<HTMLElement>('[data-testid="report-enter-weight"]')?.click();
    await eventually(() => expect(router.currentRoute.value.name).toBe('file'));
    await eventually(() => expect(byTestId('element-focus')?.dataset['focus']).toBe('mapped-to'));
    await eventually(() => expect(text('element-focus')).toContain('Showing: mapped to Oak, own'));
    await eventually(() => expect(text('element-view-count')).toContain('3 of 5'));
  });

  it('marks the item the grid opened on when its name is in another language', async () => {
    await mountReasons({ locale: 'de' });
    await eventually(() => expect(all('report-reason-group')).toHaveLength(2));
    groupOf('report-reason-group', (part) => part.dataset['reason'] === 'no-mass').querySelector<HTMLElement>('[data-testid="report-enter-weight"]')?.click();
    await eventually(() => expect(byTestId('element-focus')?.dataset['focus']).toBe('mapped-to'));
    await eventually(() => expect(byTestId('element-focus')?.querySelector('[data-testid="language-mark"]')?.getAttribute('data-language')).toBe('en'));
  });

  it('activates a file that does not count', async () => {
    const { bridge } = await mountReasons();
    await eventually(() => expect(byTestId('report-activate')).not.toBeNull());
    expect(groupOf('report-not-counted', (each) => each.dataset['reason'] === 'file-not-counted').textContent).toContain('activate the file');
    click('report-activate');
    await eventually(() =>
      expect(bridge.requestsOf('api:request').find((request) => request.operationId === 'setBuildingFileActive')?.body).toBe(true),
    );
  });
});

