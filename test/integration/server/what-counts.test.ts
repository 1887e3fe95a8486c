/**
 * What counts in the circularity index, said the same everywhere (shared/counting.ts): after some elements of a real
 * model are mapped to an own material without a specific weight, the file's import report, its status message, its
 * building's figures and an Excel passport give the same counts and the same reasons; once the material has a specific
 * weight, all of them count the elements again without a new refinement.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BuildingFileElementResponse,
  BuildingFileImportReport,
  BuildingFileStatusResponse,
  BuildingResponse,
  BuildingValidation,
  Material,
} from '../../../shared/api';
import { ElementType } from '../../../shared/api/enums';
import { parseStatusMessage, type ReportSummary } from '../../../shared/status-messages';
import { IFC_FIXTURES } from '../../fixtures/files';
import { createPortfolioWithBuilding, eventually, getJson, startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer({ worker: true });
});
afterAll(async () => {
  await test.close();
});

function json<T>(url: string): Promise<T> {
  return getJson<T>(test, url);
}

function fileStatus(buildingId: string, fileId: string): Promise<BuildingFileStatusResponse> {
  return eventually(
    () => json<BuildingFileStatusResponse>(`${api}/buildings/${buildingId}/files/${fileId}/status`),
    (status) => [0, 3, 99].includes(status.status),
    120_000,
  );
}

/** The building once its recalculation is done. */
function settledBuilding(buildingId: string): Promise<BuildingResponse> {
  return eventually(() => json<BuildingResponse>(`${api}/buildings/${buildingId}`), (building) => !building.isDirty, 120_000);
}

/** The counts of a status message, as the file row reads them. */
function summaryOf(status: BuildingFileStatusResponse): ReportSummary {
  const sentence = parseStatusMessage(status.statusMessage ?? '')?.find((each) => each.kind === 'report-summary');
  if (sentence?.kind !== 'report-summary') throw new Error(`no report summary in ${String(status.statusMessage)}`);
  return sentence;
}

/** The counts of the Excel passport: its summary's lines, and its element rows by their "In the index" cell. */
async function excelPassportCounts(buildingId: string): Promise<{ summary: Map<string, unknown>; rows: Map<string, number> }> {
  const requested = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/exportexcelpassport` });
  expect(requested.statusCode).toBe(202);
  const statusUrl = requested.headers.location as string;
  await eventually(() => json<BuildingFileStatusResponse>(statusUrl), (status) => status.status === 1, 120_000);
  const { url } = await json<{ url: string }>(statusUrl.replace(/\/status$/u, '/download'));
  const xlsx = await test.request({ method: 'GET', url: new URL(url).pathname, key: null });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
  const summary = new Map<string, unknown>();
  workbook.getWorksheet('Summary')?.eachRow((row) => summary.set(String(row.getCell(1).value), row.getCell(2).value));
  const rows = new Map<string, number>();
  const elements = workbook.getWorksheet('Elements');
  const column = (elements?.getRow(1).values as unknown[]).indexOf('In the index');
  elements?.eachRow((row, number) => {
    if (number === 1) return;
    const value = String(row.getCell(column).value);
    rows.set(value, (rows.get(value) ?? 0) + 1);
  });
  return { summary, rows };
}

/** The words the English passport uses for each reason. */
const passportWords: Readonly<Record<string, string>> = {
  'no-material': 'No material',
  'no-quantity': 'No volume or weight',
  'no-mass': 'No mass (no specific weight)',
  'no-building-layer': 'No building layer',
  'no-circular-data': 'No circular data',
};

describe('the counts of a model after a remapping to a material without a specific weight', () => {
  it('agree in the report, the status message, the building’s figures and the passport, and follow the catalogue', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const created = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0 } });
    const fileId = created.json<{ id: string }>().id;
    const files = `${api}/buildings/${buildingId}/files/${fileId}`;
    const upload = await test.request({
      method: 'POST',
      url: `${files}/upload/SampleHouse4.ifc`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: await readFile(path.join(IFC_FIXTURES, 'SampleHouse4.ifc')),
    });
    expect(upload.statusCode).toBe(201);
    expect((await fileStatus(buildingId, fileId)).status).toBe(3);
    await test.request({ method: 'POST', url: `${files}/active`, headers: { 'content-type': 'application/json' }, payload: 'true' });
    await settledBuilding(buildingId);
    const before = await json<BuildingFileImportReport>(`${files}/report`);

    // An own material with circular data but no specific weight, and eight measured, mapped elements moved onto it.
    const material = (
      await test.request({
        method: 'POST',
        url: `${api}/materials`,
        payload: { name: { en: 'Timber, no weight yet' }, elementFamily: 'wood', circular: { recycledPercentageFeedstock: 0.3 } },
      })
    ).json<Material>();
    const measured = (await json<BuildingFileElementResponse[]>(`${files}/elements?$filter=volume gt 0 and mapping/id ne null&$orderby=id`)).slice(0, 8);
    expect(measured).toHaveLength(8);
    await test.request({ method: 'POST', url: `${files}/setimporting` });
    for (const element of measured) {
      const replaced = await test.request({
        method: 'PUT',
        url: `${files}/elements/${encodeURIComponent(element.id)}`,
        payload: {
          id: element.id,
          name: element.name,
          materialName: element.materialName,
          materialId: material.id,
          typeName: element.typeName,
          elementClass: element.elementClass,
          volume: element.volume,
          area: element.area,
          length: element.length,
          floor: element.floor,
        },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
    }
    await test.request({ method: 'POST', url: `${files}/startrefinement` });
    const status = await fileStatus(buildingId, fileId);
    expect(status.status).toBe(3);
    await settledBuilding(buildingId);

    // The report: the eight have no mass, grouped under the material that lacks the specific weight.
    const report = await json<BuildingFileImportReport>(`${files}/report`);
    const noMass = report.notCounted.find((group) => group.reason === 'no-mass');
    expect(noMass?.groups).toContainEqual(expect.objectContaining({ mapping: { type: ElementType.Material, id: material.id }, elements: 8 }));
    expect(report.counted.elements).toBeLessThanOrEqual(before.counted.elements - 8);
    expect(report.counted.elementShare).toBeCloseTo(report.counted.elements / report.elementCount, 12);

    // The status message: the same counts and reasons, in the same order.
    const summary = summaryOf(status);
    expect(summary).toMatchObject({ counted: report.counted.elements, elements: report.elementCount, active: true });
    expect(summary.notCounted).toEqual(report.notCounted.map(({ reason, elements }) => ({ reason, elements })));

    // The building's figures: the corrections keep their meaning (the material is known), the known mass drops by the eight.
    const validation = await json<BuildingValidation>(`${api}/buildings/${buildingId}/validation`);
    const withoutMass = report.notCounted
      .filter((group) => ['no-material', 'no-quantity', 'no-mass'].includes(group.reason))
      .reduce((sum, group) => sum + group.elements, 0);
    expect(validation.percentageElementsWithKnownMassByNumber * report.elementCount).toBeCloseTo(report.elementCount - withoutMass, 6);

    // The passport: its summary and its element rows say the same.
    const passport = await excelPassportCounts(buildingId);
    expect(passport.summary.get('Count in the index')).toBe(report.counted.elements);
    expect(passport.rows.get('Yes') ?? 0).toBe(report.counted.elements);
    for (const group of report.notCounted) {
      expect(passport.summary.get(passportWords[group.reason] ?? group.reason)).toBe(group.elements);
      expect(passport.rows.get(passportWords[group.reason] ?? group.reason)).toBe(group.elements);
    }

    // The fix: the material gets a specific weight; the file and its building are counted again, without a refinement.
    const fixed = await test.request({
      method: 'PUT',
      url: `${api}/materials/${material.id}`,
      payload: { name: { en: 'Timber, no weight yet' }, elementFamily: 'wood', specificWeight: 500, circular: { recycledPercentageFeedstock: 0.3 } },
    });
    expect(fixed.statusCode).toBe(200);
    const recounted = await eventually(
      () => json<BuildingFileStatusResponse>(`${files}/status`),
      (value) => summaryOf(value).counted === report.counted.elements + 8,
    );
    expect(summaryOf(recounted).notCounted.find((count) => count.reason === 'no-mass')).toBeUndefined();
    const after = await json<BuildingFileImportReport>(`${files}/report`);
    expect(after.counted.elements).toBe(report.counted.elements + 8);
    await settledBuilding(buildingId);
    const revalidated = await json<BuildingValidation>(`${api}/buildings/${buildingId}/validation`);
    expect(revalidated.percentageElementsWithKnownMassByNumber * report.elementCount).toBeCloseTo(report.elementCount - withoutMass + 8, 6);
  }, 240_000);
});
