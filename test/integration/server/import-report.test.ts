/**
 * The import report and the circularity score of real models (server/imports/README.md, "What counts"): the public
 * fixtures carry no NL-SfB codes, and most elements no volume or a material name no rule knows; classification from
 * their classes, volumes from their geometry and materials by keyword make most of them count. Broken models import
 * without failing, and the report says what is missing.
 */
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLASSIFICATION_SOURCES,
  MAPPING_SOURCES,
  QUANTITY_SOURCES,
  type BuildingCircularInformation,
  type BuildingFileElementResponse,
  type BuildingFileImportReport,
  type BuildingFileStatusResponse,
  type BuildingResponse,
  type BuildingValidation,
  type Material,
} from '../../../shared/api';
import { ifcFixture, type IfcFixtureName } from '../../fixtures/files';
import { smallIfc, type SmallIfcElement } from '../../fixtures/small-ifc';
import { createPortfolioWithBuilding, eventually, startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer({ worker: true });
});
afterAll(async () => {
  await test.close();
});

/** Uploads a model as a new source file of a new building and waits until it is Mapped (or failed). */
async function importModel(name: string, content: Uint8Array): Promise<{ buildingId: string; fileId: string; status: BuildingFileStatusResponse }> {
  const { buildingId } = await createPortfolioWithBuilding(test);
  const created = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0 } });
  const fileId = (created.json() as { id: string }).id;
  return { buildingId, fileId, status: await uploadVersion(buildingId, fileId, name, content) };
}

/** Uploads a model as the file's content and waits until it is Mapped (or failed). */
async function uploadVersion(buildingId: string, fileId: string, name: string, content: Uint8Array): Promise<BuildingFileStatusResponse> {
  const upload = await test.request({
    method: 'POST',
    url: `${api}/buildings/${buildingId}/files/${fileId}/upload/${name}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(content),
  });
  expect(upload.statusCode).toBe(201);
  return eventually(
    async () => (await test.request({ method: 'GET', url: upload.headers.location as string })).json() as BuildingFileStatusResponse,
    (value) => [0, 3, 99].includes(value.status),
    120_000,
  );
}

async function report(buildingId: string, fileId: string): Promise<BuildingFileImportReport> {
  const response = await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/report` });
  expect(response.statusCode).toBe(200);
  return response.json<BuildingFileImportReport>();
}

/** Activates a Mapped file and waits for its building's figures. */
async function activate(buildingId: string, fileId: string): Promise<BuildingCircularInformation> {
  await test.request({
    method: 'POST',
    url: `${api}/buildings/${buildingId}/files/${fileId}/active`,
    headers: { 'content-type': 'application/json' },
    payload: 'true',
  });
  await eventually(
    async () => (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}` })).json<BuildingResponse>(),
    (building) => !building.isDirty,
  );
  return (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/circular` })).json<BuildingCircularInformation>();
}

/** Every breakdown of a report covers each element once. */
function expectGroupsAddUp(value: BuildingFileImportReport): void {
  const sum = (groups: readonly { elements: number }[]) => groups.reduce((total, group) => total + group.elements, 0);
  expect(sum(MAPPING_SOURCES.map((key) => value.material[key]))).toBe(value.elementCount);
  expect(sum(QUANTITY_SOURCES.map((key) => value.quantities[key]))).toBe(value.elementCount);
  expect(sum(CLASSIFICATION_SOURCES.map((key) => value.classification[key]))).toBe(value.elementCount);
  expect(value.counted.elements + sum(value.notCounted)).toBe(value.elementCount);
  expect(sum(value.unmappedMaterials)).toBe(value.material.none.elements);
}

describe('a score from the public models', () => {
  const models: readonly IfcFixtureName[] = ['AC20-FZK-Haus.ifc', 'duplex.ifc', 'SampleHouse4.ifc', 'ISSUE_021_Mini_Project.ifc'];

  it.each(models)('%s: at least 60% of its elements count, and the building gets a circularity index', async (name) => {
    const { buildingId, fileId, status } = await importModel(name, await readFile(ifcFixture(name)));
    expect(status.status, status.statusMessage ?? '').toBe(3);
    expect(status.statusMessage).toMatch(/elements will count in the circularity index once the file is active/u);

    const before = await report(buildingId, fileId);
    // Inactive, its elements that would count are left out for the file; the others already say what they lack.
    expect(before.counted.elements).toBe(0);
    expect(before.notCounted.at(-1)?.reason).toBe('file-not-counted');
    expectGroupsAddUp(before);

    const circular = await activate(buildingId, fileId);
    const after = await report(buildingId, fileId);
    expectGroupsAddUp(after);
    expect(after.elementCount).toBe(status.elementCount);
    expect(after.counted.elements / after.elementCount, JSON.stringify(after.notCounted)).toBeGreaterThanOrEqual(0.6);
    expect(after.counted.elements).toBe(before.notCounted.at(-1)?.elements);
    expect(after.notCounted).toEqual(before.notCounted.slice(0, -1));
    const active = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/status` })).json<BuildingFileStatusResponse>();
    expect(active.statusMessage).toContain(`${after.counted.elements} of ${after.elementCount} elements count in the circularity index`);
    expect(circular.madasterCiScore).not.toBeNull();
    expect(circular.madasterCiScore).toBeGreaterThan(0);
  });

  it('reports nothing for a file outside the key’s scope', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const response = await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${crypto.randomUUID()}/report` });
    expect(response.statusCode).toBe(404);
  });
});

describe('models with what real exports get wrong', () => {
  const importSmall = (elements: readonly SmallIfcElement[]) => importModel('small.ifc', Buffer.from(smallIfc(elements), 'latin1'));

  it('a broken geometry gives no volume, is counted as such, and fails nothing', async () => {
    const { buildingId, fileId, status } = await importSmall([
      { entity: 'IFCWALL', name: 'Good wall', material: 'Beton', body: 'box', size: [4, 0.2, 3], isExternal: true },
      { entity: 'IFCWALL', name: 'Broken wall', material: 'Beton', body: 'broken' },
      { entity: 'IFCSLAB', name: 'Slab without a body', material: 'Beton', body: 'none', predefinedType: 'FLOOR' },
    ]);
    expect(status.status, status.statusMessage ?? '').toBe(3);
    const value = await report(buildingId, fileId);
    expectGroupsAddUp(value);
    expect(value.quantities.geometry.elements).toBe(1);
    expect(value.quantities.geometry.volume).toBeCloseTo(2.4, 6);
    expect(value.quantities.none.elements).toBe(2);
    expect(value.geometryIssues.open + value.geometryIssues.empty + value.geometryIssues.failed).toBe(2);
    expect(value.classification.inferred.elements).toBe(3);
    await activate(buildingId, fileId);
    const active = await report(buildingId, fileId);
    expect(active.counted.elements).toBe(1);
    expect(active.notCounted).toEqual([
      expect.objectContaining({ reason: 'no-quantity', elements: 2, withoutVolume: 2, groups: [expect.objectContaining({ elementClass: 'IfcSlab' }), expect.objectContaining({ elementClass: 'IfcWall' })] }),
    ]);
  });

  it('a model of proxies only imports; none gets a building layer, and the report groups them by class', async () => {
    const { buildingId, fileId, status } = await importSmall([
      { entity: 'IFCBUILDINGELEMENTPROXY', name: 'Thing 1', material: 'Beton', body: 'box' },
      { entity: 'IFCBUILDINGELEMENTPROXY', name: 'Thing 2', material: 'Beton', body: 'box' },
    ]);
    expect(status.status, status.statusMessage ?? '').toBe(3);
    const value = await report(buildingId, fileId);
    expectGroupsAddUp(value);
    expect(value.classification.none.elements).toBe(2);
    expect(value.unlayeredClasses).toEqual([{ elementClass: 'IfcBuildingElementProxy', elements: 2, volume: expect.closeTo(4.8, 6) as number }]);
    await activate(buildingId, fileId);
    expect((await report(buildingId, fileId)).notCounted).toEqual([expect.objectContaining({ reason: 'no-building-layer', elements: 2 })]);
  });

  it('a material called "Default" maps to nothing, and the report names it', async () => {
    const { buildingId, fileId, status } = await importSmall([
      { entity: 'IFCWALL', name: 'Wall', material: 'Default', body: 'box' },
      { entity: 'IFCCOLUMN', name: 'Column', material: 'Default', body: 'box', size: [0.3, 0.3, 3] },
      { entity: 'IFCWALL', name: 'Brick wall', material: 'Hochlochziegel', body: 'box' },
    ]);
    expect(status.status, status.statusMessage ?? '').toBe(3);
    const value = await report(buildingId, fileId);
    expectGroupsAddUp(value);
    expect(value.material.keyword.elements).toBe(1);
    expect(value.unmappedMaterials).toEqual([{ materialName: 'Default', elementClass: null, typeName: null, elements: 2, volume: expect.closeTo(2.67, 6) as number }]);
    expect(value.summary).toMatch(/^1 of 3 elements will count in the circularity index once the file is active: 2 have no material\. Assumed: 1 mapped by keyword,/u);
  });
});

describe('layered and composite elements (server/imports/README.md, "Materials")', () => {
  const importSmall = (elements: readonly SmallIfcElement[]) => importModel('layers.ifc', Buffer.from(smallIfc(elements), 'latin1'));

  it('a layered wall counts by its layers: each mapped by its own material, with its own mass in the figures and the passport', async () => {
    const { buildingId, fileId, status } = await importSmall([
      {
        entity: 'IFCWALL',
        name: 'Cavity wall',
        body: 'box',
        isExternal: true,
        netSideArea: 10,
        materials: { kind: 'layers', on: 'element', usage: true, layers: [{ material: 'Beton', thickness: 0.2 }, { material: 'Minerale wol', thickness: 0.1 }] },
      },
      { entity: 'IFCSLAB', name: 'Listed', body: 'box', netVolume: 4, predefinedType: 'FLOOR', materials: { kind: 'list', materials: ['Beton', 'Hout'] } },
      { entity: 'IFCSLAB', name: 'Whole', body: 'box', netVolume: 1, predefinedType: 'FLOOR', material: 'Beton' },
    ]);
    expect(status.status, status.statusMessage ?? '').toBe(3);
    expect(status.elementCount).toBe(5);

    const before = await report(buildingId, fileId);
    expectGroupsAddUp(before);
    expect(before.elementCount).toBe(5);
    expect(before.parts).toEqual({
      elementsSplit: 2,
      partsMade: 4,
      elementsWithAssumedShares: 1,
      layersLeftOut: 0,
      partsWithoutMaterial: 0,
      elementsWithFractionsNormalised: 0,
    });

    const elements = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/elements` })).json<BuildingFileElementResponse[]>();
    const wall = elements.filter((element) => element.name === 'Cavity wall').sort((a, b) => a.id.localeCompare(b.id));
    expect(wall.map((part) => [part.id.slice(-3), part.materialName, part.volume, part.width])).toEqual([
      ['-L1', 'Beton', 2, 0.2],
      ['-L2', 'Minerale wol', 1, 0.1],
    ]);
    // Each layer is mapped by its own name, to a material of its own.
    const [concrete, wool] = wall.map((part) => part.mapping?.id);
    expect(concrete).toBeDefined();
    expect(wool).toBeDefined();
    expect(concrete).not.toBe(wool);
    const specificWeight = async (id: string | undefined) =>
      (await test.request({ method: 'GET', url: `${api}/materials/${id ?? ''}` })).json<Material>().specificWeight ?? 0;
    const concreteWeight = await specificWeight(concrete);
    const woolWeight = await specificWeight(wool);
    expect(concreteWeight).toBeGreaterThan(woolWeight);

    await activate(buildingId, fileId);
    const after = await report(buildingId, fileId);
    expectGroupsAddUp(after);
    expect(after.counted.elements).toBe(5);
    const validation = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/validation` })).json<BuildingValidation>();
    expect(validation.percentageElementsWithKnownMassByNumber).toBe(1);
    expect(validation.percentageMaterialSpecifiedByNumber).toBe(1);

    // The Excel passport has a row per part, each with the mass of its own layer: 2 m³ of concrete and 1 m³ of wool,
    // not 3 m³ of the first material the wall's joined name would have been mapped to.
    const requested = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/exportexcelpassport` });
    expect(requested.statusCode).toBe(202);
    const passport = await eventually(
      async () => (await test.request({ method: 'GET', url: requested.headers.location as string })).json<BuildingFileStatusResponse>(),
      (value) => value.status === 1 || value.status === 0,
      120_000,
    );
    expect(passport.status, passport.statusMessage ?? '').toBe(1);
    const download = (await test.request({ method: 'GET', url: (requested.headers.location as string).replace(/\/status$/, '/download') })).json<{ url: string }>();
    const xlsx = await test.request({ method: 'GET', url: new URL(download.url).pathname, key: null });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets.find((candidate) => candidate.getRow(1).values.toString().includes('Mass (kg)') && candidate.actualRowCount === 6);
    if (sheet === undefined) throw new Error('no element sheet of 5 rows');
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const massOf = new Map<string, number>();
    sheet.eachRow((row, index) => {
      if (index > 1) massOf.set(String(row.getCell(header.indexOf('ID')).value), Number(row.getCell(header.indexOf('Mass (kg)')).value));
    });
    const [layer1, layer2] = wall.map((part) => part.id);
    expect(massOf.get(layer1 ?? '')).toBeCloseTo(2 * concreteWeight, 6);
    expect(massOf.get(layer2 ?? '')).toBeCloseTo(1 * woolWeight, 6);
  });

  it('a new version of the model finds a part by its id: what a user set on it is kept', async () => {
    const model = Buffer.from(
      smallIfc([
        {
          entity: 'IFCWALL',
          name: 'Cavity wall',
          body: 'box',
          netSideArea: 10,
          materials: { kind: 'layers', on: 'element', usage: true, layers: [{ material: 'Baksteen', thickness: 0.1 }, { material: 'Minerale wol', thickness: 0.1 }] },
        },
      ]),
      'latin1',
    );
    const { buildingId, fileId } = await importModel('layers.ifc', model);
    const files = `${api}/buildings/${buildingId}/files/${fileId}`;
    const parts = (await test.request({ method: 'GET', url: `${files}/elements` })).json<BuildingFileElementResponse[]>().map((part) => part.id).sort();
    expect(parts).toHaveLength(2);
    const edited = `${files}/elements/${encodeURIComponent(parts[1] ?? '')}`;
    await test.request({ method: 'POST', url: `${files}/setimporting` });
    expect((await test.request({ method: 'PUT', url: edited, payload: { id: parts[1], classificationLookup: '21.1', phaseLookup: 'sloop' } })).statusCode).toBe(200);
    await test.request({ method: 'POST', url: `${files}/startrefinement` });
    await eventually(
      async () => (await test.request({ method: 'GET', url: `${files}/status` })).json<BuildingFileStatusResponse>(),
      (status) => status.status === 3,
    );

    expect(await uploadVersion(buildingId, fileId, 'layers.ifc', model)).toMatchObject({ status: 3, elementCount: 2 });
    expect((await test.request({ method: 'GET', url: `${files}/elements` })).json<BuildingFileElementResponse[]>().map((part) => part.id).sort()).toEqual(parts);
    const after = (await test.request({ method: 'GET', url: edited })).json<BuildingFileElementResponse>();
    expect(after.classificationLookup).toEqual(['21.1']);
    expect(after.phaseMatch?.name).toBe('Demolition');
  });
});
