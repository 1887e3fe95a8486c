import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import type { BuildingFileElementResponse, BuildingFileStatusResponse } from '../../../shared/api';
import { createPortfolioWithBuilding, eventually, startTestServer, type TestServer } from './harness';
import { IFC_FIXTURES } from '../../fixtures/files';

const api = '/api/v2.3';
const run = promisify(execFile);

let test: TestServer;
let scratch: string;
beforeAll(async () => {
  test = await startTestServer({ worker: true });
  scratch = await mkdtemp(path.join(tmpdir(), 'cd-passports-'));
});
afterAll(async () => {
  await test.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Waits for a file to end processing and answers its status. */
function endState(url: string): Promise<BuildingFileStatusResponse> {
  return eventually(
    async () => (await test.request({ method: 'GET', url })).json() as BuildingFileStatusResponse,
    (status) => [0, 1, 3, 99].includes(status.status) && status.status !== 1,
    120_000,
  );
}

/** Uploads an IFC fixture as a new source file and waits for it to end processing. */
async function importFixture(buildingId: string, name: string): Promise<{ fileId: string; status: BuildingFileStatusResponse }> {
  const created = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0 } });
  const fileId = (created.json() as { id: string }).id;
  const upload = await test.request({
    method: 'POST',
    url: `${api}/buildings/${buildingId}/files/${fileId}/upload/${name}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: await readFile(path.join(IFC_FIXTURES, name)),
  });
  expect(upload.statusCode).toBe(201);
  return { fileId, status: await endState(upload.headers.location as string) };
}

/** Elements per fixture after the assembly rule of server/imports/README.md (parts or their assembly, never both) and the
 * splitting of layered and composite materials (one element per layer or material). */
const expectedElements: Readonly<Record<string, number>> = {
  'AC20-FZK-Haus.ifc': 82,
  'ISSUE_021_Mini_Project.ifc': 2639,
  'ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc': 1,
  'SampleHouse4.ifc': 103,
  'duplex.ifc': 382,
  'example.ifc': 115,
};

describe('processing IFC models', async () => {
  const names = (await readdir(IFC_FIXTURES)).filter((name) => name.endsWith('.ifc')).sort();

  it('covers every fixture', () => {
    expect(names).toEqual(Object.keys(expectedElements).sort());
  });

  it.each(names)('%s imports to Mapped with every element refined', async (name) => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId, status } = await importFixture(buildingId, name);
    expect(status.status, status.statusMessage ?? '').toBe(3);
    expect(status.elementCount).toBe(expectedElements[name]);
    expect(status.elementProcessedCount).toBe(status.elementCount);
    const elements = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/elements` })).json() as BuildingFileElementResponse[];
    expect(elements).toHaveLength(status.elementCount);
    expect(elements.every((element) => element.phaseMatch !== null && element.brandLayerMatch !== null)).toBe(true);
    expect(elements.every((element) => element.elementClass?.startsWith('Ifc'))).toBe(true);
  });

  it('keeps the storey and converts lengths of the FZK house to metres', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId } = await importFixture(buildingId, 'AC20-FZK-Haus.ifc');
    const elements = (await test.request({ method: 'GET', url: `${api}/buildings/${buildingId}/files/${fileId}/elements` })).json() as BuildingFileElementResponse[];
    expect(elements.some((element) => element.floor !== null && element.floor !== '')).toBe(true);
    // A house's walls are metres long and centimetres thick, never millimetre figures.
    const lengths = elements.map((element) => element.length).filter((length): length is number => length !== null && length > 0);
    expect(lengths.length).toBeGreaterThan(0);
    expect(Math.max(...lengths)).toBeLessThan(100);
  });
});

/** Waits for a requested passport (its status address) to be generated and answers its signed download address. */
async function passportDownload(statusUrl: string): Promise<{ url: string }> {
  const status = await eventually(
    async () => (await test.request({ method: 'GET', url: statusUrl })).json() as BuildingFileStatusResponse,
    (value) => value.status === 1 || value.status === 0,
    120_000,
  );
  expect(status.status, status.statusMessage ?? '').toBe(1);
  return (await test.request({ method: 'GET', url: `${statusUrl.replace(/\/status$/, '')}/download` })).json() as { url: string };
}

describe('passports', () => {
  it('generates a PDF passport in the requested language, readable by poppler', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId } = await importFixture(buildingId, 'AC20-FZK-Haus.ifc');
    await test.request({
      method: 'POST',
      url: `${api}/buildings/${buildingId}/files/${fileId}/active`,
      headers: { 'content-type': 'application/json' },
      payload: 'true',
    });
    const requested = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/exportpassport`, headers: { 'accept-language': 'nl' } });
    expect(requested.statusCode).toBe(202);
    const download = await passportDownload(requested.headers.location as string);
    const pdf = await test.request({ method: 'GET', url: new URL(download.url).pathname, key: null });
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const file = path.join(scratch, 'passport.pdf');
    await writeFile(file, pdf.rawPayload);
    const info = await run('pdfinfo', [file]);
    expect(Number(/Pages:\s+(\d+)/.exec(info.stdout)?.[1])).toBeGreaterThanOrEqual(2);
    const text = await run('pdftotext', [file, '-']);
    expect(text.stdout).toContain('Building');
    await run('pdftoppm', ['-png', '-r', '30', '-f', '1', '-l', '1', file, path.join(scratch, 'page')]);
    expect((await readdir(scratch)).some((name) => name.startsWith('page'))).toBe(true);
  });

  it('generates a portfolio PDF passport', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const { fileId } = await importFixture(buildingId, 'SampleHouse4.ifc');
    await test.request({
      method: 'POST',
      url: `${api}/buildings/${buildingId}/files/${fileId}/active`,
      headers: { 'content-type': 'application/json' },
      payload: 'true',
    });
    const requested = await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/passport`, payload: { buildingIds: [buildingId] } });
    expect(requested.statusCode).toBe(202);
    const fileUrl = requested.headers.location as string;
    const status = await eventually(
      async () => (await test.request({ method: 'GET', url: `${fileUrl}/status` })).json() as { status: number; statusMessage: string | null },
      (value) => value.status === 1,
      120_000,
    );
    expect(status.statusMessage).toMatch(/1 buildings?/);
    const download = (await test.request({ method: 'GET', url: `${fileUrl}/download` })).json() as { url: string };
    const pdf = await test.request({ method: 'GET', url: new URL(download.url).pathname, key: null });
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('generates an Excel passport with one row per element', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const { fileId, status: imported } = await importFixture(buildingId, 'AC20-FZK-Haus.ifc');
    await test.request({
      method: 'POST',
      url: `${api}/buildings/${buildingId}/files/${fileId}/active`,
      headers: { 'content-type': 'application/json' },
      payload: 'true',
    });
    const requested = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/exportexcelpassport` });
    const download = await passportDownload(requested.headers.location as string);
    const xlsx = await test.request({ method: 'GET', url: new URL(download.url).pathname, key: null });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rowCounts = workbook.worksheets.map((sheet) => sheet.actualRowCount);
    // The element sheet has a header row and one row per element.
    expect(rowCounts).toContain(imported.elementCount + 1);
  });
});
