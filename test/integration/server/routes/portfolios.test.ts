import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_USER_ID } from '../../../../server/store/seed/local-account';
import { tinyJpeg, tinyPng } from '../../../fixtures/images';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from '../harness';

const api = '/api/v2.3';

interface Portfolio {
  id: string;
  name: string;
  logo: string | null;
}
interface Building {
  id: string;
  portfolioId: string;
}
interface UserRight {
  userId: string;
  name: string;
  level: number;
  userType: number;
  isInvite: boolean;
}
interface Token {
  id: string;
  name: string;
  level: number;
  expirationDateTime: string | null;
  key: string;
}
interface PortfolioFile {
  portfolioId: string;
  fileName: string | null;
  fileSize: number | null;
  status: number;
  type: number;
  lastModifiedDate: string;
  tags: string[];
  id: string;
}
interface Problem {
  status: number;
  detail: string;
  errors: { path: string; message: string }[];
}

/** The first bytes of a PNG file and a little more: enough for a stored logo. */
const pngBytes = Buffer.from(tinyPng(4, 3));

let test: TestServer;

beforeAll(async () => {
  test = await startTestServer();
});

afterAll(async () => {
  await test.close();
});

async function createPortfolio(name = 'Portfolio'): Promise<Portfolio> {
  const response = await test.request({ method: 'POST', url: `${api}/portfolios`, payload: { name } });
  expect(response.statusCode).toBe(201);
  return response.json<Portfolio>();
}

async function createBuilding(portfolioId: string, name = 'Building'): Promise<Building> {
  const response = await test.request({ method: 'POST', url: `${api}/buildings`, payload: { portfolioId, name } });
  expect(response.statusCode).toBe(201);
  return response.json<Building>();
}

async function createToken(portfolioId: string, level: number, name = 'Desk'): Promise<Token> {
  const response = await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/tokens`, payload: { name, level } });
  expect(response.statusCode).toBe(201);
  return response.json<Token>();
}

/** The names of the blobs under a folder of the blob store, empty when it does not exist. */
async function blobsUnder(folder: string): Promise<string[]> {
  try {
    return await readdir(path.join(test.dataDir, 'blobs', folder));
  } catch {
    return [];
  }
}

describe('portfolio CRUD', () => {
  it('creates a portfolio with 201, its body and Location, and reads it back', async () => {
    const response = await test.request({ method: 'POST', url: `${api}/portfolios`, payload: { name: 'North' } });
    expect(response.statusCode).toBe(201);
    const created = response.json<Portfolio>();
    expect(created).toEqual({ id: expect.any(String), name: 'North', logo: null });
    expect(response.headers.location).toBe(`${api}/portfolios/${created.id}`);

    const read = await test.request({ method: 'GET', url: `${api}/portfolios/${created.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);

    const list = await test.request({ method: 'GET', url: `${api}/portfolios` });
    expect(list.statusCode).toBe(200);
    expect(list.json<Portfolio[]>()).toContainEqual(created);
  });

  it('replaces a portfolio entirely with PUT', async () => {
    const portfolio = await createPortfolio('Before');
    const response = await test.request({ method: 'PUT', url: `${api}/portfolios/${portfolio.id}`, payload: { name: 'After' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: portfolio.id, name: 'After', logo: null });
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}` })).json<Portfolio>().name).toBe('After');
  });

  it('refuses a blank name with 400', async () => {
    const portfolio = await createPortfolio();
    const response = await test.request({ method: 'PUT', url: `${api}/portfolios/${portfolio.id}`, payload: { name: '  ' } });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });

  it('answers 404 for an unknown portfolio', async () => {
    const unknown = '5b7a3c1e-0000-4000-8000-000000000000';
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${unknown}` })).statusCode).toBe(404);
    expect((await test.request({ method: 'PUT', url: `${api}/portfolios/${unknown}`, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await test.request({ method: 'DELETE', url: `${api}/portfolios/${unknown}` })).statusCode).toBe(404);
  });

  it('refuses to delete a portfolio that holds buildings (409), then deletes it with its files once empty (204)', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const file = (
      await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/files`, payload: { name: 'notes.txt' } })
    ).json<PortfolioFile>();
    const upload = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolioId}/files/${file.id}/upload/notes.txt`,
      headers: { 'content-type': 'text/plain' },
      payload: 'some notes',
    });
    expect(upload.statusCode).toBe(204);
    expect(await blobsUnder(`portfolios/${portfolioId}/files/${file.id}`)).toHaveLength(1);

    const refused = await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolioId}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Problem>().detail).toContain('1 building');
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}` })).statusCode).toBe(200);

    expect((await test.request({ method: 'DELETE', url: `${api}/buildings/${buildingId}` })).statusCode).toBe(204);
    const deleted = await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolioId}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}` })).statusCode).toBe(404);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}` })).statusCode).toBe(404);
    expect(await blobsUnder(`portfolios/${portfolioId}`)).toEqual([]);
    const rows = await test.server.context.db.selectFrom('portfolio_files').select('id').where('portfolioId', '=', portfolioId).execute();
    expect(rows).toEqual([]);
  });

  it('lists the buildings of a portfolio and its available databases', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    await createPortfolioWithBuilding(test);
    const buildings = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/buildings` });
    expect(buildings.statusCode).toBe(200);
    expect(buildings.json<Building[]>().map((building) => building.id)).toEqual([buildingId]);

    const databases = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/availabledatabases` });
    expect(databases.statusCode).toBe(200);
    expect(databases.json()).toEqual(
      (await test.request({ method: 'GET', url: `${api}/accounts/availabledatabases` })).json(),
    );
    expect(databases.json<unknown[]>().length).toBeGreaterThan(0);
  });
});

describe('portfolio users and tokens', () => {
  it('creates a token (201, key shown once) that appears in the users list as userType 1', async () => {
    const portfolio = await createPortfolio();
    const response = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/tokens`,
      payload: { name: 'Desk app', level: 70 },
    });
    expect(response.statusCode).toBe(201);
    const token = response.json<Token>();
    expect(token).toEqual({ id: expect.any(String), name: 'Desk app', level: 70, expirationDateTime: null, key: expect.any(String) });
    expect(token.key.length).toBeGreaterThanOrEqual(43);
    expect(response.headers.location).toBe(`${api}/portfolios/${portfolio.id}/tokens/${token.id}`);

    const users = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}/users` });
    expect(users.statusCode).toBe(200);
    expect(users.json<UserRight[]>()).toEqual([{ userId: token.id, name: 'Desk app', level: 70, userType: 1, isInvite: false }]);
  });

  it("gives a portfolio token that portfolio and its buildings only", async () => {
    const mine = await createPortfolioWithBuilding(test);
    const other = await createPortfolioWithBuilding(test);
    const token = await createToken(mine.portfolioId, 50);

    const portfolios = await test.request({ method: 'GET', url: `${api}/portfolios`, key: token.key });
    expect(portfolios.statusCode).toBe(200);
    expect(portfolios.json<Portfolio[]>().map((portfolio) => portfolio.id)).toEqual([mine.portfolioId]);
    const buildings = await test.request({ method: 'GET', url: `${api}/portfolios/${mine.portfolioId}/buildings`, key: token.key });
    expect(buildings.json<Building[]>().map((building) => building.id)).toEqual([mine.buildingId]);
    const allBuildings = await test.request({ method: 'GET', url: `${api}/buildings`, key: token.key });
    expect(allBuildings.json<Building[]>().map((building) => building.id)).toEqual([mine.buildingId]);
    expect((await test.request({ method: 'GET', url: `${api}/buildings/${mine.buildingId}`, key: token.key })).statusCode).toBe(200);

    for (const url of [
      `${api}/portfolios/${other.portfolioId}`,
      `${api}/portfolios/${other.portfolioId}/buildings`,
      `${api}/portfolios/${other.portfolioId}/files`,
      `${api}/buildings/${other.buildingId}`,
    ]) {
      expect((await test.request({ method: 'GET', url, key: token.key })).statusCode, url).toBe(404);
    }
  });

  it('deletes a token (204); its key then answers 401 and a second delete 404', async () => {
    const portfolio = await createPortfolio();
    const token = await createToken(portfolio.id, 50);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}`, key: token.key })).statusCode).toBe(200);

    const deleted = await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolio.id}/tokens/${token.id}` });
    expect(deleted.statusCode).toBe(204);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}`, key: token.key })).statusCode).toBe(401);
    expect((await test.request({ method: 'DELETE', url: `${api}/portfolios/${portfolio.id}/tokens/${token.id}` })).statusCode).toBe(404);
  });

  it('refuses a token whose expiry lies in the past (400) and keeps a future one', async () => {
    const portfolio = await createPortfolio();
    const past = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/tokens`,
      payload: { name: 'Old', level: 50, expirationDateTime: '2001-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json<Problem>().errors).toContainEqual(expect.objectContaining({ path: 'expirationDateTime' }));

    const future = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/tokens`,
      payload: { name: 'New', level: 50, expirationDateTime: '2999-01-01T00:00:00Z' },
    });
    expect(future.statusCode).toBe(201);
    expect(future.json<Token>().expirationDateTime).toBe('2999-01-01T00:00:00.000Z');
  });

  it("PUT users changes a token's level (200 with one UserRightResponse) and level 0 removes it", async () => {
    const portfolio = await createPortfolio();
    const token = await createToken(portfolio.id, 70, 'Writer');
    const rename = { method: 'PUT' as const, url: `${api}/portfolios/${portfolio.id}`, payload: { name: 'Renamed' } };
    expect((await test.request({ ...rename, key: token.key })).statusCode).toBe(200);

    const lowered = await test.request({
      method: 'PUT',
      url: `${api}/portfolios/${portfolio.id}/users`,
      payload: [{ userId: token.id, level: 50 }],
    });
    expect(lowered.statusCode).toBe(200);
    expect(lowered.json()).toEqual({ userId: token.id, name: 'Writer', level: 50, userType: 1, isInvite: false });
    expect((await test.request({ ...rename, key: token.key })).statusCode).toBe(403);

    const removed = await test.request({
      method: 'PUT',
      url: `${api}/portfolios/${portfolio.id}/users`,
      payload: [{ userId: token.id, level: 0 }],
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<UserRight>().level).toBe(0);
    const users = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}/users` });
    expect(users.json<UserRight[]>()).toEqual([]);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}`, key: token.key })).statusCode).toBe(401);
  });

  it('PUT users gives a user a right next to the tokens; users not listed keep theirs', async () => {
    const portfolio = await createPortfolio();
    const token = await createToken(portfolio.id, 50, 'Reader');
    const response = await test.request({
      method: 'PUT',
      url: `${api}/portfolios/${portfolio.id}/users`,
      payload: [{ userId: LOCAL_USER_ID, level: 'Write' }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<UserRight>()).toMatchObject({ userId: LOCAL_USER_ID, level: 70, userType: 0, isInvite: false });
    const users = (await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}/users` })).json<UserRight[]>();
    expect(users).toEqual([
      expect.objectContaining({ userId: LOCAL_USER_ID, level: 70, userType: 0 }),
      { userId: token.id, name: 'Reader', level: 50, userType: 1, isInvite: false },
    ]);
  });
});

describe('portfolio access', () => {
  it('answers 401 without a key or with an unknown one', async () => {
    const missing = await test.request({ method: 'GET', url: `${api}/portfolios`, key: null });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect((await test.request({ method: 'GET', url: `${api}/portfolios`, key: 'not-a-key' })).statusCode).toBe(401);
  });

  it('shows a building key no portfolio', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const key = await test.key('building', buildingId, 90);
    const list = await test.request({ method: 'GET', url: `${api}/portfolios`, key });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}`, key })).statusCode).toBe(404);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/users`, key })).statusCode).toBe(404);
  });

  it('answers 403 to a Read key that writes and 404 when the portfolio is outside its scope', async () => {
    const mine = await createPortfolio();
    const other = await createPortfolio();
    const key = await test.key('portfolio', mine.id, 50);
    expect((await test.request({ method: 'PUT', url: `${api}/portfolios/${mine.id}`, payload: { name: 'x' }, key })).statusCode).toBe(403);
    expect((await test.request({ method: 'DELETE', url: `${api}/portfolios/${mine.id}`, key })).statusCode).toBe(403);
    expect(
      (await test.request({ method: 'POST', url: `${api}/portfolios/${mine.id}/files`, payload: { name: 'a.txt' }, key })).statusCode,
    ).toBe(403);
    expect((await test.request({ method: 'PUT', url: `${api}/portfolios/${other.id}`, payload: { name: 'x' }, key })).statusCode).toBe(404);
  });

  it('answers 403 to a Write key that manages users or tokens', async () => {
    const portfolio = await createPortfolio();
    const key = await test.key('portfolio', portfolio.id, 70);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}/users`, key })).statusCode).toBe(403);
    const put = await test.request({
      method: 'PUT',
      url: `${api}/portfolios/${portfolio.id}/users`,
      payload: [{ userId: LOCAL_USER_ID, level: 50 }],
      key,
    });
    expect(put.statusCode).toBe(403);
    const token = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/tokens`,
      payload: { name: 'x', level: 50 },
      key,
    });
    expect(token.statusCode).toBe(403);
  });

  it('lets only an account key create portfolios', async () => {
    const portfolio = await createPortfolio();
    const key = await test.key('portfolio', portfolio.id, 90);
    expect((await test.request({ method: 'POST', url: `${api}/portfolios`, payload: { name: 'x' }, key })).statusCode).toBe(403);
  });
});

describe('portfolio logo', () => {
  it('stores a PNG logo under a fresh key, answers the file name as a JSON string and replaces an earlier logo', async () => {
    const portfolio = await createPortfolio();
    const response = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/logo/logo.png`,
      headers: { 'content-type': 'image/png' },
      payload: pngBytes,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.body).toBe('"logo.png"');
    expect(response.json()).toBe('logo.png');
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}` })).json<Portfolio>().logo).toBe('logo.png');
    const [first] = await blobsUnder(`portfolios/${portfolio.id}/logo`);
    expect(first).toBeDefined();
    expect(await readFile(path.join(test.dataDir, 'blobs', 'portfolios', portfolio.id, 'logo', first ?? ''))).toEqual(pngBytes);

    const jpeg = Buffer.from(tinyJpeg());
    const replaced = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/logo/brand.jpg`,
      headers: { 'content-type': 'image/jpeg' },
      payload: jpeg,
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toBe('brand.jpg');
    const blobs = await blobsUnder(`portfolios/${portfolio.id}/logo`);
    expect(blobs).toHaveLength(1);
    expect(blobs[0]).not.toBe(first);
    expect(await readFile(path.join(test.dataDir, 'blobs', 'portfolios', portfolio.id, 'logo', blobs[0] ?? ''))).toEqual(jpeg);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}` })).json<Portfolio>().logo).toBe('brand.jpg');
  });

  it('refuses a logo that is not PNG or JPEG (415), a path for a name (400) and an empty logo (400)', async () => {
    const portfolio = await createPortfolio();
    const text = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/logo/logo.txt`,
      headers: { 'content-type': 'text/plain' },
      payload: 'not an image',
    });
    expect(text.statusCode).toBe(415);
    const pathName = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/logo/..%2Flogo.png`,
      headers: { 'content-type': 'image/png' },
      payload: pngBytes,
    });
    expect(pathName.statusCode).toBe(400);
    const empty = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolio.id}/logo/logo.png`,
      headers: { 'content-type': 'image/png' },
    });
    expect(empty.statusCode).toBe(400);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolio.id}` })).json<Portfolio>().logo).toBeNull();
    expect(await blobsUnder(`portfolios/${portfolio.id}/logo`)).toEqual([]);
  });
});

describe('portfolio passport', () => {
  it('answers 202 with the new passport file in Creating and its Location, and schedules the job', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const second = await createBuilding(portfolioId, 'Second');
    const response = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolioId}/passport`,
      headers: { 'accept-language': 'nl' },
      payload: { buildingIds: [second.id] },
    });
    expect(response.statusCode).toBe(202);
    const file = response.json<PortfolioFile>();
    expect(file).toEqual({
      portfolioId,
      fileName: 'Portfolio - passport.pdf',
      fileSize: null,
      status: 6,
      type: 1000,
      lastModifiedDate: expect.any(String),
      tags: [],
      id: expect.any(String),
    });
    expect(response.headers.location).toBe(`${api}/portfolios/${portfolioId}/files/${file.id}`);

    const read = await test.request({ method: 'GET', url: response.headers.location as string });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(file);
    const status = await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}/status` });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({ status: 6, statusMessage: expect.any(String), id: file.id });
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files/${file.id}/download` })).statusCode).toBe(409);

    const job = await test.server.context.db
      .selectFrom('jobs')
      .select(['kind', 'payload', 'state'])
      .where('subjectId', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(job.kind).toBe('portfolio-passport');
    expect(job.state).toBe('queued');
    expect(JSON.parse(job.payload)).toEqual({ buildingIds: [second.id], language: 'nl' });
    expect(buildingId).not.toBe(second.id);
  });

  it('covers every building of the portfolio for an empty list, in English by default', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const second = await createBuilding(portfolioId, 'Second');
    for (const payload of [{ buildingIds: [] }, {}]) {
      const response = await test.request({ method: 'POST', url: `${api}/portfolios/${portfolioId}/passport`, payload });
      expect(response.statusCode).toBe(202);
      const job = await test.server.context.db
        .selectFrom('jobs')
        .select('payload')
        .where('subjectId', '=', response.json<PortfolioFile>().id)
        .executeTakeFirstOrThrow();
      // Buildings made in the same millisecond have no defined order between them: compare as sets.
      const { buildingIds, language } = JSON.parse(job.payload) as { buildingIds: string[]; language: string };
      expect({ buildingIds: [...buildingIds].sort(), language }).toEqual({ buildingIds: [buildingId, second.id].sort(), language: 'en' });
    }
  });

  it('names a building id that is not of the portfolio (400) and creates nothing', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const other = await createPortfolioWithBuilding(test);
    const response = await test.request({
      method: 'POST',
      url: `${api}/portfolios/${portfolioId}/passport`,
      payload: { buildingIds: [buildingId, other.buildingId] },
    });
    expect(response.statusCode).toBe(400);
    const problem = response.json<Problem>();
    expect(problem.detail).toContain('buildingIds[1]');
    expect(problem.errors).toEqual([{ path: 'buildingIds.1', message: expect.any(String) }]);
    expect((await test.request({ method: 'GET', url: `${api}/portfolios/${portfolioId}/files` })).json()).toEqual([]);
  });

  it('makes a file name of a portfolio name that looks like a path', async () => {
    const portfolio = await createPortfolio('Sites/North..East');
    const response = await test.request({ method: 'POST', url: `${api}/portfolios/${portfolio.id}/passport`, payload: {} });
    expect(response.statusCode).toBe(202);
    expect(response.json<PortfolioFile>().fileName).toBe('Sites-North.East - passport.pdf');
  });

  it('answers 403 to a Read key and 404 to a key of another portfolio', async () => {
    const portfolio = await createPortfolio();
    const other = await createPortfolio();
    const reader = await test.key('portfolio', portfolio.id, 50);
    const writer = await test.key('portfolio', other.id, 70);
    const url = `${api}/portfolios/${portfolio.id}/passport`;
    expect((await test.request({ method: 'POST', url, payload: {}, key: reader })).statusCode).toBe(403);
    expect((await test.request({ method: 'POST', url, payload: {}, key: writer })).statusCode).toBe(404);
  });
});
