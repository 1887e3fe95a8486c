import 'fake-indexeddb/auto';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { BuildingFileElementResponse, BuildingFileResponse } from '../../../../../shared/api/schemas';
import { applyServerBuildings, applyServerFiles, beginElementPull, finishElementPull, writeElementPage } from '../../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { elementColumn } from '../../../../../renderer/views/files/element-columns';
import { elementsCsv, elementsXlsx } from '../../../../../renderer/views/files/element-export';

const BUILDING = '11111111-1111-4111-8111-111111111111';
const FILE = '22222222-2222-4222-8222-222222222222';
const columns = (['id', 'name', 'volume'] as const).map(elementColumn);
const labels = { id: 'Id', name: 'Name', volume: 'Volume (m³)' } as Record<Parameters<typeof elementColumn>[0], string>;

function element(index: number, name: string, volume: number | null): BuildingFileElementResponse {
  return { id: `E${index}`, buildingFileId: FILE, name, volume } as BuildingFileElementResponse;
}

async function cacheWith(elements: BuildingFileElementResponse[]): Promise<CacheDb> {
  const db = new CacheDb(`export-${Math.random()}`);
  await applyServerBuildings(db, [{ id: BUILDING, portfolioId: BUILDING, name: 'School' } as never]);
  const stamp = '2026-01-01T00:00:00.000Z';
  await applyServerFiles(db, BUILDING, [{ id: FILE, buildingId: BUILDING, type: 0, status: 3, lastModifiedDate: stamp } as BuildingFileResponse]);
  const cursor = await beginElementPull(
    db,
    { key: `elements:${FILE}`, kind: 'element-cursor', buildingId: BUILDING, fileId: FILE, stamp, pageSize: 10, nextSkip: 3, pagesDone: 1, expectedCount: 3, startedAt: stamp },
    null,
  );
  await writeElementPage(db, cursor, elements, { phase: 'lists', collection: 'x' });
  await finishElementPull(db, cursor);
  return db;
}

describe('exporting the view', () => {
  it('writes the view in its order to XLSX, with the header and quantities as numbers', async () => {
    const db = await cacheWith([element(1, 'Wall', 1.5), element(2, 'Slab', null), element(3, 'Beam', 0.25)]);
    const written: number[] = [];
    const blob = await elementsXlsx(db, FILE, ['E3', 'E1'], columns, labels, 'school.ifc', (done) => written.push(done));

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await blob.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('school.ifc');
    expect(sheet?.getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1))).toEqual([
      ['Id', 'Name', 'Volume (m³)'],
      ['E3', 'Beam', 0.25],
      ['E1', 'Wall', 1.5],
    ]);
    expect(written).toEqual([2]);
  });

  it('writes CSV with a byte order mark, quoting where needed', async () => {
    const db = await cacheWith([element(1, 'Wall, east', 1.5), element(2, 'Slab', null)]);
    const bytes = new Uint8Array(await (await elementsCsv(db, FILE, ['E1', 'E2'], columns, labels)).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe('\uFEFFId,Name,Volume (m³)\r\nE1,"Wall, east",1.5\r\nE2,Slab,\r\n');
  });
});
