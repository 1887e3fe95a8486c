/**
 * The sample data shows the product working (server/store/seed/demo-model.ts): the demo building gets its model,
 * processed like any upload, active, with figures and a passport of each kind made once the figures are there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingCircularInformation, BuildingFileResponse, BuildingResponse } from '../../../shared/api';
import { BuildingFileStatuses, BuildingFileType } from '../../../shared/api';
import { seedDemoModel } from '../../../server/store/seed/demo-model';
import { eventually, startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';

let test: TestServer;
beforeAll(async () => {
  test = await startTestServer({ worker: true, demo: true });
});
afterAll(async () => {
  await test.close();
});

async function demoBuilding(): Promise<BuildingResponse> {
  const buildings = (await test.request({ method: 'GET', url: `${api}/buildings` })).json<BuildingResponse[]>();
  const demo = buildings.find((building) => building.name === 'Demo office, Utrecht');
  if (demo === undefined) throw new Error('no demo building');
  return demo;
}

describe('the demo building', () => {
  it('holds a processed, active model, a circularity index and a PDF and an Excel passport made after the figures', async () => {
    const building = await demoBuilding();
    const files = await eventually(
      async () => (await test.request({ method: 'GET', url: `${api}/buildings/${building.id}/files` })).json<BuildingFileResponse[]>(),
      (list) => list.filter((file) => file.type !== BuildingFileType.Source && file.status === BuildingFileStatuses.Uploaded).length === 2,
      120_000,
    );
    const source = files.filter((file) => file.type === BuildingFileType.Source);
    expect(source).toEqual([expect.objectContaining({ fileName: 'demo-office.ifc', status: BuildingFileStatuses.Mapped, isActive: true, tags: ['demo'] })]);
    expect(files.map((file) => file.type).sort()).toEqual([BuildingFileType.Source, BuildingFileType.PassportPdf, BuildingFileType.PassportExcel]);
    const circular = (await test.request({ method: 'GET', url: `${api}/buildings/${building.id}/circular` })).json<BuildingCircularInformation>();
    expect(circular.madasterCiScore).toBeGreaterThan(0);
    // The passports were asked for once the building's figures were computed, not before.
    const { db } = test.server.context;
    const figures = await db.selectFrom('building_figures').select('computedAt').where('buildingId', '=', building.id).executeTakeFirstOrThrow();
    const passports = await db.selectFrom('building_files').select('createdAt').where('buildingId', '=', building.id).where('type', '!=', BuildingFileType.Source).execute();
    expect(passports).toHaveLength(2);
    for (const passport of passports) expect(passport.createdAt >= figures.computedAt).toBe(true);
  }, 180_000);

  it('gets no second model when it holds a file already', async () => {
    const building = await demoBuilding();
    const before = (await test.request({ method: 'GET', url: `${api}/buildings/${building.id}/files` })).json<BuildingFileResponse[]>();
    await seedDemoModel(test.server.context, test.server.localAccountId);
    const after = (await test.request({ method: 'GET', url: `${api}/buildings/${building.id}/files` })).json<BuildingFileResponse[]>();
    expect(after).toHaveLength(before.length);
  });
});
