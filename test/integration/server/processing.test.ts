import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildingCircularInformation, BuildingFileElementResponse, BuildingFileStatusResponse, BuildingResponse } from '../../../shared/api';
import { createPortfolioWithBuilding, eventually, startTestServer, type TestServer } from './harness';
import { FIXTURES_DIRECTORY } from '../../fixtures/files';

const api = '/api/v2.3';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer({ worker: true });
});
afterAll(async () => {
  await test.close();
});

/** Creates a source file in a building, uploads a fixture to it and waits until processing ends. */
async function uploadAndProcess(buildingId: string, fixture: string): Promise<{ fileId: string; status: BuildingFileStatusResponse }> {
  const created = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0 } });
  const fileId = (created.json() as { id: string }).id;
  return { fileId, status: await uploadVersion(buildingId, fileId, fixture) };
}

/** Uploads a fixture as the file's content and waits for an end state (Mapped, Error, UnknownImportFile). */
async function uploadVersion(buildingId: string, fileId: string, fixture: string): Promise<BuildingFileStatusResponse> {
  const upload = await test.request({
    method: 'POST',
    url: `${api}/buildings/${buildingId}/files/${fileId}/upload/${path.basename(fixture)}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: await readFile(path.join(FIXTURES_DIRECTORY, fixture)),
  });
  expect(upload.statusCode).toBe(201);
  return eventually(
    async () => (await test.request({ method: 'GET', url: upload.headers.location as string })).json() as BuildingFileStatusResponse,
    (status) => [0, 3, 99].includes(status.status),
  );
}

/** The elements of a file. */
async function elementsOf(buildingId: string, fileId: string): Promise<BuildingFileElementResponse[]> {
  return (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/elements` })).json() as BuildingFileElementResponse[];
}

describe('processing spreadsheets', () => {
  it('imports, refines and maps a spreadsheet, and reports the outcome', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId, status } = await uploadAndProcess(buildingId, 'sheets/office-en.xlsx');
    expect(status).toMatchObject({ status: 3, elementCount: 80, elementProcessedCount: 80 });
    expect(status.statusMessage).toMatch(/80 elements imported/);
    const elements = await elementsOf(buildingId, fileId);
    expect(elements).toHaveLength(80);
    expect(elements.filter((element) => element.phaseMatch !== null)).toHaveLength(80);
    expect(elements.some((element) => element.mapping !== null)).toBe(true);
    expect(elements.some((element) => element.classificationMatch !== null && element.brandLayerMatch !== null)).toBe(true);
    const file = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}` })).json() as {
      validation: { percentageElementsMappedByNumber: number };
    };
    expect(file.validation.percentageElementsMappedByNumber).toBeGreaterThan(0);
  });

  it('refines as it imports: a refinement run afterwards finds the same elements and figures', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId } = await uploadAndProcess(buildingId, 'sheets/office-en.xlsx');
    const fileUrl = `${api}/buildings/${buildingId}/files/${fileId}`;
    const imported = await elementsOf(buildingId, fileId);
    const importedFile = (await test.request({ method: 'GET', url: fileUrl })).json() as { validation: unknown };
    const importedStatus = (await test.request({ method: 'GET', url: `${fileUrl}/status` })).json() as BuildingFileStatusResponse;
    await test.request({ method: 'POST', url: `${fileUrl}/setimporting` });
    const started = await test.request({ method: 'POST', url: `${fileUrl}/startrefinement` });
    expect(started.statusCode).toBe(202);
    const refinedStatus = await eventually(
      async () => (await test.request({ method: 'GET', url: `${fileUrl}/status` })).json() as BuildingFileStatusResponse,
      (status) => status.status === 3,
    );
    expect(await elementsOf(buildingId, fileId)).toEqual(imported);
    const refinedFile = (await test.request({ method: 'GET', url: fileUrl })).json() as { validation: unknown };
    expect(refinedFile.validation).toEqual(importedFile.validation);
    // The import's line says what was imported, then what the refinement's line says.
    expect(importedStatus.statusMessage).toMatch(/80 elements imported/);
    expect(refinedStatus.statusMessage).toMatch(/count in the circularity index/);
    expect(importedStatus.statusMessage?.endsWith(refinedStatus.statusMessage ?? '')).toBe(true);
  });
  it('maps by the Material/Product id column as by an element’s own materialId; an id naming nothing readable is ignored', async () => {
    const concrete = 'f042f35e-5baf-47bd-9603-2a2e079f06cc';
    const aeratedConcrete = 'a351f70a-47f7-4dc4-91eb-53ebbdbb7922';
    const { buildingId } = await createPortfolioWithBuilding(test);
    const created = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0 } });
    const fileId = (created.json() as { id: string }).id;
    const csv = [
      'Id,Material/Product,Material/Product id,Volume,IFC class',
      `by-id,Gasbeton,${concrete.toUpperCase()},1,IfcWall`,
      `unknown-id,Gasbeton,${crypto.randomUUID()},1,IfcWall`,
      'no-id,Gasbeton,,1,IfcSlab',
    ].join('\n');
    const upload = await test.request({
      method: 'POST',
      url: `${api}/buildings/${buildingId}/files/${fileId}/upload/ids.csv`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from(csv),
    });
    expect(upload.statusCode).toBe(201);
    const status = await eventually(
      async () => (await test.request({ method: 'GET', url: upload.headers.location as string })).json() as BuildingFileStatusResponse,
      (value) => [0, 3, 99].includes(value.status),
    );
    expect(status).toMatchObject({ status: 3, elementCount: 3 });
    const byId = new Map((await elementsOf(buildingId, fileId)).map((element) => [element.id, element]));
    expect(byId.get('by-id')?.mapping).toEqual({ type: 10, id: concrete });
    expect(byId.get('unknown-id')?.mapping).toEqual({ type: 10, id: aeratedConcrete });
    expect(byId.get('no-id')?.mapping).toEqual({ type: 10, id: aeratedConcrete });
    // The IFC class column: classified by class where no code is given.
    expect(byId.get('by-id')?.elementClass).toBe('IfcWall');
    expect(byId.get('by-id')?.classificationMatch?.code).toBe('22');
    const report = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/report` })).json() as {
      material: { model: { elements: number }; rule: { elements: number } };
    };
    expect(report.material.model.elements).toBe(1);
    expect(report.material.rule.elements).toBe(2);

    // A refinement run afterwards keeps the mapping the sheet named: the id is the element's own materialId now.
    await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files/${fileId}/setimporting` });
    await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files/${fileId}/startrefinement` });
    await eventually(
      async () => (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/status` })).json() as BuildingFileStatusResponse,
      (value) => value.status === 3,
    );
    const refined = new Map((await elementsOf(buildingId, fileId)).map((element) => [element.id, element]));
    expect(refined.get('by-id')?.mapping).toEqual({ type: 10, id: concrete });
  });

  it('names rejected rows in the status message and imports the rest', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId, status } = await uploadAndProcess(buildingId, 'sheets/bad-rows.xlsx');
    expect(status.status).toBe(3);
    expect(status.elementCount).toBe(8);
    for (const row of ['row 4', 'row 6', 'row 8', 'row 12']) expect(status.statusMessage).toContain(row);
    // The import report keeps how many rows were left out and why, for the app to show next to the file.
    const report = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/report` })).json() as {
      rejected: { count: number; rows: string[] };
    };
    expect(report.rejected.count).toBe(4);
    expect(report.rejected.rows.map((row) => row.replace(/^sheet \S+ (row \d+):.*$/, '$1'))).toEqual(['row 4', 'row 6', 'row 8', 'row 12']);
    // The unknown code 99.99 has no listed level down to two digits: unclassified, not the main group 9-.
    const unknownCode = await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/elements/X-009` });
    expect(unknownCode.json<BuildingFileElementResponse>()).toMatchObject({ classificationLookup: ['99.99'], classificationMatch: null });
  });

  it('answers UnknownImportFile for a file that is no source at all', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { status } = await uploadAndProcess(buildingId, 'sheets/README.md');
    expect(status.status).toBe(99);
    expect(status.statusMessage).toBeTruthy();
  });

  it('activating a mapped file recalculates the building: figures appear and isDirty clears', async () => {
    const { buildingId, portfolioId } = await createPortfolioWithBuilding(test);
    await test.request({
      method: 'PUT',
      url: `${api}/buildings/${buildingId}`,
      payload: { portfolioId, name: 'Office', grossSurfaceArea: 1000, expectedLifespan: 75 },
    });
    const { fileId } = await uploadAndProcess(buildingId, 'sheets/office-en.xlsx');
    await test.request({
      method: 'POST',
      url: `${api}/buildings/${buildingId}/files/${fileId}/active`,
      headers: { 'content-type': 'application/json' },
      payload: 'true',
    });
    const building = await eventually(
      async () => (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}` })).json() as BuildingResponse,
      (value) => !value.isDirty,
    );
    expect(building.hasDirtyElements).toBe(false);
    const circular = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/circular` })).json() as BuildingCircularInformation;
    expect(circular.correctionUnknownMaterials).toBeGreaterThan(0);
    expect(circular.correctionUnknownMaterials).toBeLessThanOrEqual(1);
    const validation = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/validation` })).json() as Record<string, number>;
    expect(validation['percentageElementsMappedByNumber']).toBeGreaterThan(0);
    const defaults = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/financial` })).json() as { ncwValue: number };
    const other = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/financial?discountRate=0.1&inflation=` })).json() as {
      ncwValue: number;
    };
    expect(defaults.ncwValue).not.toBe(other.ncwValue);
  });

  it('a new version keeps what a user set on elements whose id did not change', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId } = await uploadAndProcess(buildingId, 'sheets/elements-en.csv');
    const [first] = await elementsOf(buildingId, fileId);
    if (first === undefined) throw new Error('no elements');
    const elementUrl = `${api}/buildings/${buildingId}/files/${fileId}/elements/${encodeURIComponent(first.id)}`;
    await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files/${fileId}/setimporting` });
    const edited = await test.request({ method: 'PUT', url: elementUrl, payload: { id: first.id, classificationLookup: '22.1', phaseLookup: 'sloop' } });
    expect(edited.statusCode).toBe(200);
    // Back to Mapped through refinement, then the same source again as a new version.
    await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files/${fileId}/startrefinement` });
    await eventually(
      async () => (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/status` })).json() as BuildingFileStatusResponse,
      (status) => status.status === 3,
    );
    const status = await uploadVersion(buildingId, fileId, 'sheets/elements-en.csv');
    expect(status).toMatchObject({ status: 3, elementCount: 15 });
    const after = (await test.request({ method: 'GET', url: elementUrl })).json() as BuildingFileElementResponse;
    expect(after.classificationLookup).toEqual(['22.1']);
    expect(after.phaseMatch?.name).toBe('Demolition');
  });
});
