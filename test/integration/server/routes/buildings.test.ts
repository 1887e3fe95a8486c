import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { BuildingResponse, BuildingCircularInformation, BuildingFinancialInformation, BuildingValidation } from '../../../../shared/api';
import { NL_SFB_CLASSIFICATION_METHOD_ID } from '../../../../shared/api';
import { tinyPng } from '../../../fixtures/images';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from '../harness';

let test: TestServer;
beforeEach(async () => {
  test = await startTestServer();
});
afterEach(async () => {
  await test.close();
});

describe('buildings', () => {
  it('creates a building with 201, Location and every documented field', async () => {
    const portfolio = await test.request({ method: 'POST', url: '/api/v2.3/portfolios', payload: { name: 'P' } });
    const portfolioId = (portfolio.json() as { id: string }).id;
    const created = await test.request({
      method: 'POST',
      url: '/api/v2.3/buildings',
      payload: { portfolioId, name: 'Office', grossSurfaceArea: 1200.5, expectedLifespan: 75, unknownField: 'ignored' },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json() as BuildingResponse;
    expect(created.headers.location).toBe(`/api/v2.3/buildings/${body.id}`);
    expect(Value.Check(BuildingResponse, body)).toBe(true);
    expect(body).toMatchObject({ name: 'Office', grossSurfaceArea: 1200.5, expectedLifespan: 75, isDirty: false, images: [] });
    expect(body.classificationType).toBe(NL_SFB_CLASSIFICATION_METHOD_ID);
    expect(body.energyLabel).toBeNull();
    const read = await test.request({ method: 'GET', url: created.headers.location as string });
    expect(read.json()).toEqual(body);
  });

  it('answers dates in UTC with Z, whatever offset they were sent with (decisions §1)', async () => {
    const { portfolioId } = await createPortfolioWithBuilding(test);
    const created = await test.request({
      method: 'POST',
      url: '/api/v2.3/buildings',
      payload: { portfolioId, name: 'Office', completionDate: '2019-06-28T00:00:00+02:00', lastRenovationDate: '2023-01-15T12:30:00-05:00' },
    });
    expect(created.statusCode).toBe(201);
    const expected = { completionDate: '2019-06-27T22:00:00.000Z', lastRenovationDate: '2023-01-15T17:30:00.000Z' };
    expect(created.json()).toMatchObject(expected);
    const read = await test.request({ method: 'GET', url: created.headers.location as string });
    expect(read.json()).toMatchObject(expected);
  });

  it('accepts every JSON content type of the spec and refuses others with 415', async () => {
    const { portfolioId } = await createPortfolioWithBuilding(test);
    for (const type of ['application/json', 'text/json', 'application/json-patch+json', 'application/vnd.x+json']) {
      const response = await test.request({
        method: 'POST',
        url: '/api/v2.3/buildings',
        headers: { 'content-type': type },
        payload: JSON.stringify({ portfolioId, name: type }),
      });
      expect(response.statusCode, type).toBe(201);
    }
    const xml = await test.request({
      method: 'POST',
      url: '/api/v2.3/buildings',
      headers: { 'content-type': 'application/xml' },
      payload: '<building/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.headers['content-type']).toContain('application/problem+json');
  });

  it('replaces a building entirely: absent fields become null', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    await test.request({
      method: 'PUT',
      url: `/api/v2.3/buildings/${buildingId}`,
      payload: { portfolioId, name: 'First', energyLabel: 'A', addressCity: 'Utrecht' },
    });
    const replaced = await test.request({ method: 'PUT', url: `/api/v2.3/buildings/${buildingId}`, payload: { portfolioId, name: 'Second' } });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ name: 'Second', energyLabel: null, addressCity: null });
  });

  it('answers 400 naming the field for invalid bodies', async () => {
    const { portfolioId } = await createPortfolioWithBuilding(test);
    const missing = await test.request({ method: 'POST', url: '/api/v2.3/buildings', payload: { portfolioId } });
    expect(missing.statusCode).toBe(400);
    expect((missing.json() as { errors: { path: string }[] }).errors[0]?.path).toBe('name');
    const wrongClassification = await test.request({
      method: 'POST',
      url: '/api/v2.3/buildings',
      payload: { portfolioId, name: 'X', classificationType: '00000000-0000-4000-8000-000000000000' },
    });
    expect(wrongClassification.statusCode).toBe(400);
    const unknownPortfolio = await test.request({
      method: 'POST',
      url: '/api/v2.3/buildings',
      payload: { portfolioId: '00000000-0000-4000-8000-000000000000', name: 'X' },
    });
    expect(unknownPortfolio.statusCode).toBe(400);
    const notJson = await test.request({
      method: 'POST',
      url: '/api/v2.3/buildings',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ status: 400, title: 'Bad Request', type: 'about:blank' });
  });

  it('reads ids in any letter case, as the platform does', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const response = await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId.toUpperCase()}` });
    expect(response.statusCode).toBe(200);
    expect((response.json() as BuildingResponse).id).toBe(buildingId);
  });

  it('404s unknown and malformed ids', async () => {
    expect((await test.request({ method: 'GET', url: '/api/v2.3/buildings/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await test.request({ method: 'GET', url: '/api/v2.3/buildings/not-a-uuid' })).statusCode).toBe(400);
  });

  it('answers figures with every field before any recalculation', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const circular = await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}/circular` });
    expect(Value.Check(BuildingCircularInformation, circular.json())).toBe(true);
    expect(circular.json()).toMatchObject({ madasterCiScore: null });
    const financial = await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}/financial?inflation=&discountRate=0.04` });
    expect(financial.statusCode).toBe(200);
    const figures = financial.json() as BuildingFinancialInformation;
    expect(Value.Check(BuildingFinancialInformation, figures)).toBe(true);
    expect(figures.ncwValuePerBuildingLevel.map((level) => level.label)).toEqual([
      'Site', 'Structure', 'Skin', 'Services', 'Space plan', 'Stuff', 'Unknown',
    ]);
    const validation = await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}/validation` });
    expect(Value.Check(BuildingValidation, validation.json())).toBe(true);
    const badRate = await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}/financial?inflation=abc` });
    expect(badRate.statusCode).toBe(400);
  });

  it('schedules recalculation and passports with 202 and a Location, creating a truthful passport file', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const processed = await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/process` });
    expect(processed.statusCode).toBe(202);
    expect(processed.headers.location).toBe(`/api/v2.3/buildings/${buildingId}`);
    expect(((await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}` })).json() as BuildingResponse).isDirty).toBe(true);

    const passport = await test.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/exportpassport`,
      headers: { 'accept-language': 'nl' },
    });
    expect(passport.statusCode).toBe(202);
    const status = await test.request({ method: 'GET', url: passport.headers.location as string });
    expect(status.json()).toMatchObject({ status: 6 });
    const excel = await test.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/exportexcelpassport`,
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' },
    });
    expect(excel.statusCode).toBe(202);
    const files = (await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}/files` })).json() as { type: number; status: number }[];
    expect(files.map((file) => [file.type, file.status]).sort()).toEqual([[1000, 6], [1001, 6]]);
    const jobs = await test.server.context.db.selectFrom('jobs').select(['kind', 'payload']).execute();
    expect(jobs.map((job) => job.kind).sort()).toEqual(['building-passport-excel', 'building-passport-pdf', 'process-building']);
    // A browser's full Accept-Language header picks the best supported language.
    expect(JSON.parse(jobs.find((job) => job.kind === 'building-passport-excel')?.payload ?? '{}')).toEqual({ language: 'de' });
  });

  it('stores images and lists them on the building', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const png = Buffer.from(tinyPng());
    const stored = await test.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/images/front.png`,
      headers: { 'content-type': 'image/png' },
      payload: png,
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toBe('front.png');
    const building = (await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}` })).json() as BuildingResponse;
    expect(building.images).toEqual(['front.png']);
    const wrongType = await test.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/images/front.png`,
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(wrongType.statusCode).toBe(415);
  });

  it('deletes a building with all its data', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const file = await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/files`, payload: { type: 0, name: 'model.csv' } });
    const fileId = (file.json() as { id: string }).id;
    await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/files/${fileId}/setimporting` });
    await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/files/${fileId}/elements`, payload: { id: 'W1' } });
    await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/tokens`, payload: { name: 'b', level: 50 } });
    const deleted = await test.request({ method: 'DELETE', url: `/api/v2.3/buildings/${buildingId}` });
    expect(deleted.statusCode).toBe(204);
    const db = test.server.context.db;
    expect(await db.selectFrom('building_files').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('elements').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('tokens').selectAll().where('scopeKind', '=', 'building').execute()).toEqual([]);
    expect((await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}` })).statusCode).toBe(404);
  });

  it('lists users and tokens and lets an administrator change a token level', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const token = await test.request({
      method: 'POST',
      url: `/api/v2.3/buildings/${buildingId}/tokens`,
      payload: { name: 'reader', level: 'Read' },
    });
    expect(token.statusCode).toBe(201);
    const { id, key, level } = token.json() as { id: string; key: string; level: number };
    expect(level).toBe(50);
    expect((await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}`, key })).statusCode).toBe(200);
    const users = await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}/users` });
    expect(users.json()).toEqual([{ userId: id, name: 'reader', level: 50, userType: 1, isInvite: false }]);
    const changed = await test.request({ method: 'PUT', url: `/api/v2.3/buildings/${buildingId}/users`, payload: [{ userId: id, level: 70 }] });
    expect(changed.json()).toMatchObject({ userId: id, level: 70 });
    await test.request({ method: 'PUT', url: `/api/v2.3/buildings/${buildingId}/users`, payload: [{ userId: id, level: 0 }] });
    expect((await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}`, key })).statusCode).toBe(401);
  });

  it('v2.1 accepts any classification method', async () => {
    const { portfolioId } = await createPortfolioWithBuilding(test);
    const created = await test.request({
      method: 'POST',
      url: '/api/v2.1/buildings',
      payload: { portfolioId, name: 'Old', classificationType: NL_SFB_CLASSIFICATION_METHOD_ID },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toMatch(/^\/api\/v2\.1\/buildings\//);
  });
});
