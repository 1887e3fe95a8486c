// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildingFileImportReport } from '../../../../../shared/api/schemas';
import type { ApiAnswer, ApiRequest } from '../../../../../shared/ipc';
import { all, byTestId, click, eventually } from '../../dom';
import { BUILDING, element, FILE, mountAt, NO_ANSWER, releasePage, seedCache } from '../files/file-fixtures';

afterEach(releasePage);

function share(elements: number) {
  return { elements, volume: elements, volumeShare: elements / 2 };
}

function counted(elements: number) {
  return { ...share(elements), elementShare: elements / 2 };
}

/** The report of a file of two elements whose import left three rows out. */
const REPORT: BuildingFileImportReport = {
  buildingFileId: FILE,
  status: 3,
  isActive: true,
  elementCount: 2,
  volume: 2,
  counted: counted(0),
  material: { model: share(0), rule: share(0), keyword: share(0), none: share(2) },
  quantities: { model: share(2), geometry: share(0), none: share(0) },
  geometryIssues: { open: 0, empty: 0, failed: 0 },
  classification: { model: share(0), layer: share(0), inferred: share(0), none: share(2) },
  unmappedMaterials: [],
  unlayeredClasses: [],
  notCounted: [],
  rejected: { count: 3, rows: ['sheet Elements row 4: no id', 'sheet Elements row 6: duplicate id X-001', 'sheet Elements row 8: quantity is not a number'] },
  summary: '0 of 2 elements count in the circularity index.',
};

function reportOnly(report: BuildingFileImportReport) {
  return async (request: ApiRequest): Promise<ApiAnswer> =>
    request.operationId === 'getBuildingFileImportReport' ? { kind: 'ok', status: 200, value: report, location: null } : NO_ANSWER;
}

describe('the rows a mapped file’s import left out', { timeout: 30_000 }, () => {
  it('show as a warning with their count on the building’s file row, one click from their reasons', async () => {
    const connection = await seedCache([element('E1'), element('E2')]);
    const { router } = await mountAt(connection, `/buildings/${BUILDING}`, { handle: reportOnly(REPORT) });

    await eventually(() => expect(byTestId('file-rejected')?.dataset['count']).toBe('3'));
    expect(byTestId('file-rejected')?.textContent).toContain('3 rows left out');
    expect(byTestId('file-row')?.dataset['fileStatus']).toBeDefined();

    click('file-rejected');
    await eventually(() => expect(router.currentRoute.value.name).toBe('file-report'));
    await eventually(() => expect(all('report-rejected-row').map((row) => row.textContent)).toEqual(REPORT.rejected.rows));
  });

  it('say nothing for a file whose import took every row', async () => {
    const connection = await seedCache([element('E1'), element('E2')]);
    await mountAt(connection, `/buildings/${BUILDING}`, { handle: reportOnly({ ...REPORT, rejected: { count: 0, rows: [] } }) });
    await eventually(() => expect(byTestId('file-row')).not.toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(byTestId('file-rejected')).toBeNull();
  });
});
