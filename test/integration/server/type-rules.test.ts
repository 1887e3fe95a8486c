/**
 * A mapping kept as a match rule on a type name (decisions §9, the platform's IFC import document §2.6.5), as the app
 * keeps it for an item of the platform's read-only database: an own product named after the type, made of the chosen
 * material, holding an Equals rule on the type name. A second file with the same type names then maps by itself when
 * it is refined, if it matches against the account's database; one that does not is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileElementResponse, BuildingFileImportReport, BuildingFileStatusResponse, Material } from '../../../shared/api';
import { ElementType, MatchType, ProductType } from '../../../shared/api/enums';
import { createPortfolioWithBuilding, eventually, getJson, startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';
const TYPE = 'Single-Flush 0915 x 2134mm';

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

/** A spreadsheet of doors of the type, without a material name, and a concrete wall; ids start with `prefix`. */
function sheet(prefix: string): string {
  return [
    'Id,Name,Description,Material/Product,Classification code,Volume',
    `${prefix}-1,Door 1,${TYPE},,32.31,0.08`,
    `${prefix}-2,Door 2,${TYPE},,32.31,0.08`,
    `${prefix}-3,Door 3,${TYPE},,32.31,0.08`,
    `${prefix}-4,Wall 1,Basic Wall,Concrete,21.22,6.2`,
  ].join('\n');
}

/** A new source file of the building, uploaded with `content` and refined to Mapped. */
async function uploadSheet(buildingId: string, content: string, preferredAccountIds: string[] = []): Promise<string> {
  const created = await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files`, payload: { type: 0, preferredAccountIds } });
  const fileId = created.json<{ id: string }>().id;
  const upload = await test.request({
    method: 'POST',
    url: `${api}/buildings/${buildingId}/files/${fileId}/upload/doors.csv`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(content, 'utf8'),
  });
  expect(upload.statusCode, upload.body).toBe(201);
  await mapped(buildingId, fileId);
  return fileId;
}

function mapped(buildingId: string, fileId: string): Promise<BuildingFileStatusResponse> {
  return eventually(
    () => json<BuildingFileStatusResponse>(`${api}/buildings/${buildingId}/files/${fileId}/status`),
    (status) => status.status === 3,
    120_000,
  );
}

async function doors(buildingId: string, fileId: string): Promise<BuildingFileElementResponse[]> {
  return json<BuildingFileElementResponse[]>(`${api}/buildings/${buildingId}/files/${fileId}/elements?$filter=typeName eq '${TYPE}'`);
}

describe('a type-name rule kept on an own product for a platform material', () => {
  it('maps the same type names of a later file by itself', async () => {
    const own = (await json<{ id: string }>(`${api}/accounts/current`)).id;
    const { buildingId } = await createPortfolioWithBuilding(test);
    const first = await uploadSheet(buildingId, sheet('A'));
    const report = await json<BuildingFileImportReport>(`${api}/buildings/${buildingId}/files/${first}/report`);
    expect(report.unmappedMaterials).toContainEqual(expect.objectContaining({ materialName: null, typeName: TYPE, elements: 3 }));

    // What the app does: an own product named after the type, made of a platform material, holding the rule.
    const platform = await json<Material[]>(`${api}/materials`);
    const wood = platform.find((material) => (material.specificWeight ?? 0) > 0);
    if (wood === undefined) throw new Error('no platform material with a specific weight');
    const product = (await test.request({ method: 'POST', url: `${api}/products`, payload: { name: { en: TYPE }, type: ProductType.VolumeProduct } })).json<{ id: string }>();
    const children = await test.request({
      method: 'PUT',
      url: `${api}/products/${product.id}/children`,
      payload: [{ childId: wood.id, value: wood.specificWeight, circular: { inheritFeedstockPercentages: true, inheritEndOfLifePercentages: true, inheritEfficiencyPercentages: true } }],
    });
    expect(children.statusCode, children.body).toBe(200);
    const matches = await test.request({ method: 'PUT', url: `${api}/products/${product.id}/matches`, payload: [{ value: TYPE, matchType: MatchType.Equals }] });
    expect(matches.statusCode, matches.body).toBe(200);
    // The file matches against the account's database from now on, and its doors are mapped to the product.
    const settings = await test.request({ method: 'PUT', url: `${api}/buildings/${buildingId}/files/${first}/settings`, payload: { tags: [], preferredAccountIds: [own] } });
    expect(settings.statusCode, settings.body).toBe(200);
    await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files/${first}/setimporting` });
    for (const door of await doors(buildingId, first)) {
      const replaced = await test.request({
        method: 'PUT',
        url: `${api}/buildings/${buildingId}/files/${first}/elements/${door.id}`,
        payload: { id: door.id, name: door.name, typeName: door.typeName, volume: door.volume, classificationLookup: '32.31', materialId: product.id },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
    }
    await test.request({ method: 'POST', url: `${api}/buildings/${buildingId}/files/${first}/startrefinement` });
    await mapped(buildingId, first);
    expect((await doors(buildingId, first)).map((door) => door.mapping)).toEqual(Array(3).fill({ type: ElementType.VolumeProduct, id: product.id }));

    // A later file with the same type names, matching against the account's database: mapped by the rule alone.
    const second = await uploadSheet(buildingId, sheet('B'), [own]);
    expect((await doors(buildingId, second)).map((door) => door.mapping)).toEqual(Array(3).fill({ type: ElementType.VolumeProduct, id: product.id }));
    const secondReport = await json<BuildingFileImportReport>(`${api}/buildings/${buildingId}/files/${second}/report`);
    expect(secondReport.unmappedMaterials.filter((group) => group.typeName === TYPE)).toEqual([]);
    expect(secondReport.material.rule.elements).toBeGreaterThanOrEqual(3);
    // They weigh what the material gives them, so they count once the file is active.
    expect(secondReport.notCounted.find((group) => group.reason === 'no-mass')).toBeUndefined();

    // A file that matches against the platform's database only is left as the model is: the rule is the account's.
    const third = await uploadSheet(buildingId, sheet('C'));
    expect((await doors(buildingId, third)).map((door) => door.mapping)).toEqual([null, null, null]);
  }, 240_000);
});
