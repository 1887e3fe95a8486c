// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildingFileStatuses, BuildingLevel, ElementType } from '../../../../../shared/api/enums';
import type { BuildingFileImportReport } from '../../../../../shared/api/schemas';
import type { ApiAnswer, ApiRequest } from '../../../../../shared/ipc';
import type { CacheDb } from '../../../../../renderer/db/cache-db';
import { elementKey } from '../../../../../renderer/db/schema';
import { all, byTestId, click, eventually, text } from '../../dom';
import { BUILDING, CONCRETE, element, FILE, mountAt, NO_ANSWER, releasePage, seedCache } from './file-fixtures';

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

const REPORT: BuildingFileImportReport = {
  buildingFileId: FILE,
  status: BuildingFileStatuses.Mapped,
  isActive: true,
  elementCount: 8,
  volume: 11,
  counted: share(1, 0.09),
  material: { model: share(0), rule: share(1), keyword: share(1), none: share(6) },
  quantities: { model: share(6), geometry: share(1), none: share(1) },
  geometryIssues: { open: 1, empty: 0, failed: 0 },
  classification: { model: share(1), layer: share(0), inferred: share(0), none: share(7) },
  unmappedMaterials: [],
  unlayeredClasses: [],
  notCounted: [
    { reason: 'no-material', elements: 6, volume: 8, description: 'Not mapped to a material or product.' },
    { reason: 'no-building-layer', elements: 1, volume: 1, description: 'No building layer: the classification is unknown.' },
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
    expect(text('report-counted')).toContain('1 van 8 elementen tellen mee in de circulariteitsindex');
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
