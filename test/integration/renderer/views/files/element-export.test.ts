/**
 * The grid's export round-trips: a real model through the real server (uploaded, Mapped, active, some elements mapped
 * by hand through the API as the app sends them), its elements read into the app's cache as the app pulls them, the
 * export built by the app's own code (XLSX and CSV) and uploaded as a new spreadsheet source file of another building:
 * the same elements (ids, names, quantities), the same mappings, classifications and phases, and the same counted
 * elements and circularity index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BuildingCircularInformation,
  BuildingFileElementResponse,
  BuildingFileImportReport,
  BuildingFileStatusResponse,
  BuildingResponse,
  Material,
} from '../../../../../shared/api/schemas';
import type { CacheDb } from '../../../../../renderer/db/cache-db';
import { replaceBody } from '../../../../../renderer/db/edit-shapes';
import { scanElements } from '../../../../../renderer/db/reads';
import { pull } from '../../../../../renderer/sync/pull';
import { elementsCsv, elementsXlsx } from '../../../../../renderer/views/files/element-export';
import { createBuilding, freshIndexedDb, importIfc, openCache, queuedPort, serverElements, startSyncServer, type SyncServer } from '../../sync/harness';

const FIXTURE = 'duplex.ifc';

let server: SyncServer;
let source: { buildingId: string; fileId: string };
let db: CacheDb;

/** Waits until a condition on an answer of the server holds. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function fileStatus(buildingId: string, fileId: string): Promise<BuildingFileStatusResponse> {
  return (await server.request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`)).json;
}

/** Activates a Mapped file and waits until its building's figures are recalculated. */
async function activate(buildingId: string, fileId: string): Promise<void> {
  expect((await server.request('POST', `/buildings/${buildingId}/files/${fileId}/active`, true)).status).toBeLessThan(300);
  await recalculated(buildingId);
}

async function recalculated(buildingId: string): Promise<void> {
  await until(async () => (await server.request<BuildingResponse>('GET', `/buildings/${buildingId}`)).json, (building) => !building.isDirty, 'building recalculated');
}

/** The figures a consultant signs: the file's counted elements and the building's circularity index. */
async function figures(buildingId: string, fileId: string): Promise<{ elements: number; counted: number; ci: number | null }> {
  const report = (await server.request<BuildingFileImportReport>('GET', `/buildings/${buildingId}/files/${fileId}/report`)).json;
  const circular = (await server.request<BuildingCircularInformation>('GET', `/buildings/${buildingId}/circular`)).json;
  return { elements: report.elementCount, counted: report.counted.elements, ci: circular.madasterCiScore };
}

/** Maps elements by hand as the app sends such an edit: the file set importing, each element replaced with its new materialId, refined. */
async function mapByHand(buildingId: string, fileId: string, mappings: ReadonlyMap<string, string>): Promise<void> {
  const base = `/buildings/${buildingId}/files/${fileId}`;
  expect((await server.request('POST', `${base}/setimporting`)).status).toBe(204);
  for (const [id, materialId] of mappings) {
    const url = `${base}/elements/${encodeURIComponent(id)}`;
    const current = (await server.request<BuildingFileElementResponse>('GET', url)).json;
    const replaced = await server.request('PUT', url, replaceBody('elements', current, { materialId }));
    expect(replaced.status, JSON.stringify(replaced.json)).toBe(200);
  }
  expect((await server.request('POST', `${base}/startrefinement`)).status).toBe(202);
  await until(() => fileStatus(buildingId, fileId), (status) => status.status === 3, 'refined');
  await recalculated(buildingId);
}

/** Uploads a file's content as a new source file of a new building, waits until it is Mapped and activates it. */
async function uploadAsSource(name: string, content: Blob): Promise<{ buildingId: string; fileId: string; status: BuildingFileStatusResponse }> {
  const { buildingId } = await createBuilding(server, `Re-import of ${name}`);
  const created = await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0 });
  const fileId = created.json.id;
  const upload = await server.request('POST', `/buildings/${buildingId}/files/${fileId}/upload/${encodeURIComponent(name)}`, new Uint8Array(await content.arrayBuffer()));
  expect(upload.status).toBe(201);
  const status = await until(() => fileStatus(buildingId, fileId), (value) => [0, 3, 99].includes(value.status), 'imported');
  expect(status.status, status.statusMessage ?? '').toBe(3);
  await activate(buildingId, fileId);
  return { buildingId, fileId, status };
}

/** What an element is, for the comparison: every field a source file gives and refinement derives. */
function comparable(element: BuildingFileElementResponse) {
  const quantity = (value: number | null) => (value === null ? null : Number(value.toPrecision(15)));
  return {
    id: element.id,
    name: element.name,
    typeName: element.typeName,
    materialName: element.materialName,
    elementClass: element.elementClass,
    floor: element.floor,
    volume: quantity(element.volume),
    area: quantity(element.area),
    length: quantity(element.length),
    width: quantity(element.width),
    height: quantity(element.height),
    weight: quantity(element.weight),
    mapping: element.mapping,
    classification: element.classificationMatch?.code ?? null,
    brandLayer: element.brandLayerMatch?.name ?? null,
    phase: element.phaseMatch?.name ?? null,
  };
}

let sourceFigures: { elements: number; counted: number; ci: number | null };
let sourceElements: BuildingFileElementResponse[];
let mappedByHand: Map<string, string>;

beforeAll(async () => {
  server = await startSyncServer();
  const { buildingId } = await createBuilding(server, 'Duplex');
  source = { buildingId, fileId: await importIfc(server, buildingId, FIXTURE) };
  await activate(source.buildingId, source.fileId);

  // A material with a specific weight, and a product of the account's own with it as its child.
  const materials = (await server.request<Material[]>('GET', '/materials')).json;
  const [brick, steel] = materials.filter((material) => (material.specificWeight ?? 0) > 0);
  if (brick === undefined || steel === undefined) throw new Error('The platform has no materials with a specific weight.');
  const product = await server.request<{ id: string }>('POST', '/products', { type: 'VolumeProduct', name: { en: 'Window, triple glazed', nl: 'Raam, triple glas' } });
  expect(product.status).toBe(201);
  expect((await server.request('POST', `/products/${product.json.id}/children`, { value: 1, childId: steel.id })).status).toBeLessThan(300);

  // What a consultant fixes by hand: unmapped elements to the material or the product, and a mapped one to another.
  const before = await serverElements(server, source.buildingId, source.fileId);
  const unmapped = before.filter((element) => element.mapping === null && (element.volume ?? 0) > 0);
  const mapped = before.filter((element) => element.mapping !== null);
  expect(unmapped.length).toBeGreaterThan(6);
  mappedByHand = new Map([
    ...unmapped.slice(0, 4).map((element): [string, string] => [element.id, brick.id]),
    ...unmapped.slice(4, 6).map((element): [string, string] => [element.id, product.json.id]),
    ...mapped.slice(0, 1).map((element): [string, string] => [element.id, steel.id]),
  ]);
  await mapByHand(source.buildingId, source.fileId, mappedByHand);
  sourceElements = await serverElements(server, source.buildingId, source.fileId);
  sourceFigures = await figures(source.buildingId, source.fileId);

  // The app's cache, filled as the app pulls.
  db = openCache(freshIndexedDb());
  expect(await pull({ db, api: queuedPort(server), pageSize: 100 })).toMatchObject({ status: 'complete', issues: [] });
}, 300_000);

afterAll(async () => {
  db?.close();
  await server?.close();
});

/** The file's ids as the grid lists them before the user sorts: the cache's order. */
async function viewIds(fileId: string): Promise<string[]> {
  const ids: string[] = [];
  await scanElements(db, fileId, (rows) => ids.push(...rows.map((row) => row.id)));
  return ids;
}

describe('an export of the elements grid, uploaded as a spreadsheet source file', () => {
  it('starts from a model mapped in part by hand, whose figures count', () => {
    expect(sourceFigures.elements).toBe(sourceElements.length);
    expect(sourceFigures.counted).toBeGreaterThan(0);
    expect(sourceFigures.ci).not.toBeNull();
    const byId = new Map(sourceElements.map((element) => [element.id, element]));
    for (const [id, materialId] of mappedByHand) expect(byId.get(id)?.mapping?.id, id).toBe(materialId);
  });

  it.each([
    ['xlsx', 'en'],
    ['csv', 'nl'],
  ] as const)('%s (headers in %s) gives the same elements, mappings and counted figures', { timeout: 300_000 }, async (format, language) => {
    const ids = await viewIds(source.fileId);
    expect(ids).toHaveLength(sourceElements.length);
    const exported =
      format === 'xlsx'
        ? await elementsXlsx(db, source.fileId, ids, language, 'duplex')
        : await elementsCsv(db, source.fileId, ids, language);

    const reimport = await uploadAsSource(`duplex - elements.${format}`, exported);
    expect(reimport.status).toMatchObject({ elementCount: sourceElements.length });
    expect(reimport.status.statusMessage).not.toMatch(/rejected|left out/iu);

    const elements = await serverElements(server, reimport.buildingId, reimport.fileId);
    expect(elements.map(comparable)).toEqual(sourceElements.map(comparable));

    const reimported = await figures(reimport.buildingId, reimport.fileId);
    expect(reimported.elements).toBe(sourceFigures.elements);
    expect(reimported.counted).toBe(sourceFigures.counted);
    expect(reimported.ci).not.toBeNull();
    expect(reimported.ci).toBeCloseTo(sourceFigures.ci ?? Number.NaN, 9);
  });
});
