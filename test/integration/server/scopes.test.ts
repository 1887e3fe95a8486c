/**
 * The scopes matrix (decisions §4, §5): for a representative operation of each kind, the exact status every key kind
 * (account, portfolio P1, building B1) answers with at every level (Read 50, Write 70, Administrator 90), on a
 * resource in the key's scope (P1/B1) and on one outside it (P2/B2). The tables below are the specification; the tests
 * are generated from them.
 */
import { createHash } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';

// --- the world the matrix runs in --------------------------------------------------------------------------------------

/** One portfolio with one building in it. */
interface Pair {
  portfolioId: string;
  buildingId: string;
  /** A token on the building whose level `PUT …/users` sets (a right the request can name without side effects). */
  buildingTokenId: string;
}

/** P1 ∋ B1 (the keys' own) and P2 ∋ B2 (outside the portfolio and building keys). */
interface World {
  first: Pair;
  second: Pair;
  /** A source file in B1, read by the scope checks of file routes. */
  sourceFileId: string;
}

const levels = { Read: 50, Write: 70, Administrator: 90 } as const;
type LevelName = keyof typeof levels;
const levelNames = Object.keys(levels) as LevelName[];

/** The scope of a key: the whole account, portfolio P1 or building B1. */
type KeyScope = 'account' | 'portfolio' | 'building';
const keyScopes: readonly KeyScope[] = ['account', 'portfolio', 'building'];

// --- operations --------------------------------------------------------------------------------------------------------

/** What an operation acts on: a building or portfolio of either pair, or nothing in its path. */
type Target = 'B1' | 'B2' | 'P1' | 'P2' | '-';

/** Builds one request of an operation on a target; may first create what the request consumes (a file to delete). */
type RequestBuilder = (world: World, pair: Pair) => Promise<InjectOptions> | InjectOptions;

let test: TestServer;

/** A request with the administrator key that must succeed; used to set up what an operation consumes. */
async function adminCreate<T>(options: InjectOptions): Promise<T> {
  const response = await test.request(options);
  expect(response.statusCode, `setup ${options.method ?? ''} ${options.url?.toString() ?? ''}: ${response.body}`).toBe(201);
  return response.json<T>();
}

const operations = {
  'GET /buildings/{id}': (_world, pair) => ({ method: 'GET', url: `${api}/buildings/${pair.buildingId}` }),
  // The body keeps the building where it is: a replacement, not a move.
  'PUT /buildings/{id}': (_world, pair) => ({
    method: 'PUT',
    url: `${api}/buildings/${pair.buildingId}`,
    payload: { portfolioId: pair.portfolioId, name: 'Replaced by the scopes matrix' },
  }),
  // Every request deletes a file of its own, so a successful delete never changes what the next row sees.
  'DELETE /buildings/{id}/files/{fileId}': async (_world, pair) => {
    const file = await adminCreate<{ id: string }>({ method: 'POST', url: `${api}/buildings/${pair.buildingId}/files`, payload: {} });
    return { method: 'DELETE', url: `${api}/buildings/${pair.buildingId}/files/${file.id}` };
  },
  'POST /buildings/{id}/files': (_world, pair) => ({
    method: 'POST',
    url: `${api}/buildings/${pair.buildingId}/files`,
    payload: { name: 'model.ifc' },
  }),
  'GET /buildings/{id}/users': (_world, pair) => ({ method: 'GET', url: `${api}/buildings/${pair.buildingId}/users` }),
  // Sets the building's own token to the level it already has: allowed for every Administrator, changes nothing.
  'PUT /buildings/{id}/users': (_world, pair) => ({
    method: 'PUT',
    url: `${api}/buildings/${pair.buildingId}/users`,
    payload: [{ userId: pair.buildingTokenId, level: levels.Read }],
  }),
  'POST /buildings/{id}/tokens': (_world, pair) => ({
    method: 'POST',
    url: `${api}/buildings/${pair.buildingId}/tokens`,
    payload: { name: 'Made by the scopes matrix', level: levels.Read },
  }),
  'GET /portfolios/{id}': (_world, pair) => ({ method: 'GET', url: `${api}/portfolios/${pair.portfolioId}` }),
  'PUT /portfolios/{id}': (_world, pair) => ({
    method: 'PUT',
    url: `${api}/portfolios/${pair.portfolioId}`,
    payload: { name: 'Replaced by the scopes matrix' },
  }),
  'POST /portfolios': () => ({ method: 'POST', url: `${api}/portfolios`, payload: { name: 'Made by the scopes matrix' } }),
  // The portfolio is named in the body, not in the path.
  'POST /buildings into': (_world, pair) => ({
    method: 'POST',
    url: `${api}/buildings`,
    payload: { portfolioId: pair.portfolioId, name: 'Made by the scopes matrix' },
  }),
  'GET /materials': () => ({ method: 'GET', url: `${api}/materials` }),
  'POST /materials': () => ({
    method: 'POST',
    url: `${api}/materials`,
    payload: { name: { en: 'Scopes matrix timber' }, elementFamily: 'Wood', specificWeight: 500, lifeTime: 50 },
  }),
} as const satisfies Record<string, RequestBuilder>;

type OperationName = keyof typeof operations;

// --- the matrix --------------------------------------------------------------------------------------------------------

/** One row: an operation on a target with a key of one scope, and the status at each level. */
type Expectation = readonly [operation: OperationName, target: Target, key: KeyScope, read: number, write: number, administrator: number];

/*
 * Reading guide: P1/B1 are in scope for every key; P2/B2 only for the account key. Out of scope is 404 at every level
 * (existence is never revealed, so 404 comes before any 403); in scope, a level below the operation's is 403.
 * Read = GET, Write = changes, Administrator = users and tokens (decisions §5).
 */
const matrix: readonly Expectation[] = [
  // operation                                target  key          Read  Write  Admin
  ['GET /buildings/{id}',                     'B1',   'account',   200,  200,   200],
  ['GET /buildings/{id}',                     'B1',   'portfolio', 200,  200,   200],
  ['GET /buildings/{id}',                     'B1',   'building',  200,  200,   200],
  ['GET /buildings/{id}',                     'B2',   'account',   200,  200,   200],
  ['GET /buildings/{id}',                     'B2',   'portfolio', 404,  404,   404],
  ['GET /buildings/{id}',                     'B2',   'building',  404,  404,   404],

  ['PUT /buildings/{id}',                     'B1',   'account',   403,  200,   200],
  ['PUT /buildings/{id}',                     'B1',   'portfolio', 403,  200,   200],
  ['PUT /buildings/{id}',                     'B1',   'building',  403,  200,   200],
  ['PUT /buildings/{id}',                     'B2',   'account',   403,  200,   200],
  ['PUT /buildings/{id}',                     'B2',   'portfolio', 404,  404,   404],
  ['PUT /buildings/{id}',                     'B2',   'building',  404,  404,   404],

  ['DELETE /buildings/{id}/files/{fileId}',   'B1',   'account',   403,  204,   204],
  ['DELETE /buildings/{id}/files/{fileId}',   'B1',   'portfolio', 403,  204,   204],
  ['DELETE /buildings/{id}/files/{fileId}',   'B1',   'building',  403,  204,   204],
  ['DELETE /buildings/{id}/files/{fileId}',   'B2',   'account',   403,  204,   204],
  ['DELETE /buildings/{id}/files/{fileId}',   'B2',   'portfolio', 404,  404,   404],
  ['DELETE /buildings/{id}/files/{fileId}',   'B2',   'building',  404,  404,   404],

  ['POST /buildings/{id}/files',              'B1',   'account',   403,  201,   201],
  ['POST /buildings/{id}/files',              'B1',   'portfolio', 403,  201,   201],
  ['POST /buildings/{id}/files',              'B1',   'building',  403,  201,   201],
  ['POST /buildings/{id}/files',              'B2',   'account',   403,  201,   201],
  ['POST /buildings/{id}/files',              'B2',   'portfolio', 404,  404,   404],
  ['POST /buildings/{id}/files',              'B2',   'building',  404,  404,   404],

  ['GET /buildings/{id}/users',               'B1',   'account',   403,  403,   200],
  ['GET /buildings/{id}/users',               'B1',   'portfolio', 403,  403,   200],
  ['GET /buildings/{id}/users',               'B1',   'building',  403,  403,   200],
  ['GET /buildings/{id}/users',               'B2',   'account',   403,  403,   200],
  ['GET /buildings/{id}/users',               'B2',   'portfolio', 404,  404,   404],
  ['GET /buildings/{id}/users',               'B2',   'building',  404,  404,   404],

  ['PUT /buildings/{id}/users',               'B1',   'account',   403,  403,   200],
  ['PUT /buildings/{id}/users',               'B1',   'portfolio', 403,  403,   200],
  ['PUT /buildings/{id}/users',               'B1',   'building',  403,  403,   200],
  ['PUT /buildings/{id}/users',               'B2',   'account',   403,  403,   200],
  ['PUT /buildings/{id}/users',               'B2',   'portfolio', 404,  404,   404],
  ['PUT /buildings/{id}/users',               'B2',   'building',  404,  404,   404],

  ['POST /buildings/{id}/tokens',             'B1',   'account',   403,  403,   201],
  ['POST /buildings/{id}/tokens',             'B1',   'portfolio', 403,  403,   201],
  ['POST /buildings/{id}/tokens',             'B1',   'building',  403,  403,   201],
  ['POST /buildings/{id}/tokens',             'B2',   'account',   403,  403,   201],
  ['POST /buildings/{id}/tokens',             'B2',   'portfolio', 404,  404,   404],
  ['POST /buildings/{id}/tokens',             'B2',   'building',  404,  404,   404],

  // A building key sees no portfolio, not even its own building's.
  ['GET /portfolios/{id}',                    'P1',   'account',   200,  200,   200],
  ['GET /portfolios/{id}',                    'P1',   'portfolio', 200,  200,   200],
  ['GET /portfolios/{id}',                    'P1',   'building',  404,  404,   404],
  ['GET /portfolios/{id}',                    'P2',   'account',   200,  200,   200],
  ['GET /portfolios/{id}',                    'P2',   'portfolio', 404,  404,   404],
  ['GET /portfolios/{id}',                    'P2',   'building',  404,  404,   404],

  ['PUT /portfolios/{id}',                    'P1',   'account',   403,  200,   200],
  ['PUT /portfolios/{id}',                    'P1',   'portfolio', 403,  200,   200],
  ['PUT /portfolios/{id}',                    'P1',   'building',  404,  404,   404],
  ['PUT /portfolios/{id}',                    'P2',   'account',   403,  200,   200],
  ['PUT /portfolios/{id}',                    'P2',   'portfolio', 404,  404,   404],
  ['PUT /portfolios/{id}',                    'P2',   'building',  404,  404,   404],

  // Only an account key creates portfolios (spec §5.3); the others see the account's portfolios list, not its creation.
  ['POST /portfolios',                        '-',    'account',   403,  201,   201],
  ['POST /portfolios',                        '-',    'portfolio', 403,  403,   403],
  ['POST /portfolios',                        '-',    'building',  403,  403,   403],

  // A portfolio key may create buildings in its portfolio (spec §5.3), a building key nowhere. The portfolio comes in
  // the body, so a Read key is refused (403) before the body is looked at, and a portfolio outside the scope is a body
  // field naming no portfolio the key can see: 400 on `portfolioId`, exactly as for an unknown id (buildings.test.ts),
  // so existence is not revealed either.
  ['POST /buildings into',                    'P1',   'account',   403,  201,   201],
  ['POST /buildings into',                    'P1',   'portfolio', 403,  201,   201],
  ['POST /buildings into',                    'P1',   'building',  403,  403,   403],
  ['POST /buildings into',                    'P2',   'account',   403,  201,   201],
  ['POST /buildings into',                    'P2',   'portfolio', 403,  400,   400],
  ['POST /buildings into',                    'P2',   'building',  403,  403,   403],

  // The platform's database is readable by every key; the account's catalogue is changed by account keys only.
  ['GET /materials',                          '-',    'account',   200,  200,   200],
  ['GET /materials',                          '-',    'portfolio', 200,  200,   200],
  ['GET /materials',                          '-',    'building',  200,  200,   200],
  ['POST /materials',                         '-',    'account',   403,  201,   201],
  ['POST /materials',                         '-',    'portfolio', 403,  403,   403],
  ['POST /materials',                         '-',    'building',  403,  403,   403],
];

/** Which of the fixture's buildings and portfolios each key finds in the lists, at every level. */
const listContents: Readonly<Record<KeyScope, { buildings: readonly Target[]; portfolios: readonly Target[] }>> = {
  account: { buildings: ['B1', 'B2'], portfolios: ['P1', 'P2'] },
  portfolio: { buildings: ['B1'], portfolios: ['P1'] },
  building: { buildings: ['B1'], portfolios: [] },
};

// --- setup -------------------------------------------------------------------------------------------------------------

let world: World;
/** The keys of the matrix: scope × level. */
const keys = {} as Record<KeyScope, Record<LevelName, string>>;
/** Every key handed out in this file, for the clear-text check. */
const issuedKeys: string[] = [];

async function createPair(name: string): Promise<Pair> {
  const portfolio = await adminCreate<{ id: string }>({ method: 'POST', url: `${api}/portfolios`, payload: { name } });
  const building = await adminCreate<{ id: string }>({
    method: 'POST',
    url: `${api}/buildings`,
    payload: { portfolioId: portfolio.id, name: `${name} building` },
  });
  const token = await adminCreate<{ id: string; key: string }>({
    method: 'POST',
    url: `${api}/buildings/${building.id}/tokens`,
    payload: { name: 'Subject of PUT users', level: levels.Read },
  });
  issuedKeys.push(token.key);
  return { portfolioId: portfolio.id, buildingId: building.id, buildingTokenId: token.id };
}

async function issueKey(scope: KeyScope, level: number, expiresAt: string | null = null): Promise<string> {
  const scopeId = scope === 'account' ? null : scope === 'portfolio' ? world.first.portfolioId : world.first.buildingId;
  const key = await test.key(scope, scopeId, level, expiresAt);
  issuedKeys.push(key);
  return key;
}

beforeAll(async () => {
  test = await startTestServer();
  const first = await createPair('P1');
  const second = await createPair('P2');
  const sourceFile = await adminCreate<{ id: string }>({
    method: 'POST',
    url: `${api}/buildings/${first.buildingId}/files`,
    payload: { type: 0, name: 'model.ifc' },
  });
  world = { first, second, sourceFileId: sourceFile.id };
  for (const scope of keyScopes) {
    keys[scope] = {} as Record<LevelName, string>;
    for (const level of levelNames) keys[scope][level] = await issueKey(scope, levels[level]);
  }
});

afterAll(async () => {
  await test?.close();
});

// --- helpers -----------------------------------------------------------------------------------------------------------

function pairOf(target: Target): Pair {
  return target.endsWith('2') ? world.second : world.first;
}

function idOf(target: Target): string {
  const pair = pairOf(target);
  return target.startsWith('B') ? pair.buildingId : pair.portfolioId;
}

/** Every error answer is problem details with the status repeated in the body (decisions §4). */
function expectProblem(response: LightMyRequestResponse, status: number): void {
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json<{ status: number; title: string; detail: string }>();
  expect(body.status).toBe(status);
  expect(body.title).toEqual(expect.any(String));
  expect(body.detail).toEqual(expect.any(String));
}

/** Sends a request with a key and checks the status, with the body in the failure message. */
async function expectStatus(options: InjectOptions, key: string | null, status: number): Promise<LightMyRequestResponse> {
  const response = await test.request({ ...options, key });
  expect(response.statusCode, `${options.method ?? 'GET'} ${options.url?.toString() ?? ''} → ${response.body}`).toBe(status);
  if (status >= 400) expectProblem(response, status);
  return response;
}

// --- the tests ---------------------------------------------------------------------------------------------------------

describe('scopes matrix', () => {
  const cases = matrix.flatMap(([operation, target, scope, ...statuses]) =>
    levelNames.map((level, index) => ({ operation, target, scope, level, status: statuses[index] ?? Number.NaN })),
  );

  it.each(cases)('$operation on $target with a $scope $level key → $status', async ({ operation, target, scope, level, status }) => {
    const request = await operations[operation](world, pairOf(target));
    await expectStatus(request, keys[scope][level], status);
  });
});

describe('list contents per scope', () => {
  const cases = keyScopes.flatMap((scope) => levelNames.map((level) => ({ scope, level, ...listContents[scope] })));

  it.each(cases)('GET /buildings with a $scope $level key lists $buildings of the fixture', async ({ scope, level, buildings }) => {
    const response = await expectStatus({ method: 'GET', url: `${api}/buildings` }, keys[scope][level], 200);
    const listed = response.json<{ id: string; portfolioId: string }[]>();
    // Other tests of this file add buildings; the fixture's own are what the scope decides.
    const fixture = (['B1', 'B2'] as const).filter((target) => listed.some((building) => building.id === idOf(target)));
    expect(fixture).toEqual(buildings);
    // And nothing outside the scope slips in among the rest.
    if (scope === 'portfolio') expect(listed.every((building) => building.portfolioId === world.first.portfolioId)).toBe(true);
    if (scope === 'building') expect(listed.map((building) => building.id)).toEqual([world.first.buildingId]);
  });

  it.each(cases)('GET /portfolios with a $scope $level key lists $portfolios of the fixture', async ({ scope, level, portfolios }) => {
    const response = await expectStatus({ method: 'GET', url: `${api}/portfolios` }, keys[scope][level], 200);
    const listed = response.json<{ id: string }[]>();
    const fixture = (['P1', 'P2'] as const).filter((target) => listed.some((portfolio) => portfolio.id === idOf(target)));
    expect(fixture).toEqual(portfolios);
    if (scope !== 'account') expect(listed).toHaveLength(portfolios.length);
  });
});

describe('keys that do not authenticate or authorise', () => {
  /** How the key of a case is obtained. */
  type KeyKind = 'none' | 'unknown' | 'expired' | 'not yet expired' | 'level 0';
  interface AuthCase {
    key: KeyKind;
    scope: KeyScope;
    request: string;
    build: (world: World) => InjectOptions;
    status: number;
  }
  const getB1 = (w: World): InjectOptions => ({ method: 'GET', url: `${api}/buildings/${w.first.buildingId}` });
  const getB2 = (w: World): InjectOptions => ({ method: 'GET', url: `${api}/buildings/${w.second.buildingId}` });
  const getP1 = (w: World): InjectOptions => ({ method: 'GET', url: `${api}/portfolios/${w.first.portfolioId}` });
  const getP2 = (w: World): InjectOptions => ({ method: 'GET', url: `${api}/portfolios/${w.second.portfolioId}` });
  const getFile = (w: World): InjectOptions => ({ method: 'GET', url: `${api}/buildings/${w.first.buildingId}/files/${w.sourceFileId}` });
  const listB2Files = (w: World): InjectOptions => ({ method: 'GET', url: `${api}/buildings/${w.second.buildingId}/files` });
  // Authentication comes before the body is read: an invalid body without a valid key is still 401.
  const invalidPost = (): InjectOptions => ({ method: 'POST', url: `${api}/portfolios`, payload: { name: 42 } });
  const unknownBuilding = (): InjectOptions => ({ method: 'GET', url: `${api}/buildings/00000000-0000-4000-8000-000000000000` });

  const authCases: readonly AuthCase[] = [
    // key                 scope        request                     status
    { key: 'none',              scope: 'account',   request: 'GET B1',                 build: getB1,           status: 401 },
    { key: 'none',              scope: 'account',   request: 'GET unknown building',   build: unknownBuilding, status: 401 },
    { key: 'none',              scope: 'account',   request: 'POST invalid portfolio', build: invalidPost,     status: 401 },
    { key: 'unknown',           scope: 'account',   request: 'GET B1',                 build: getB1,           status: 401 },
    { key: 'unknown',           scope: 'account',   request: 'POST invalid portfolio', build: invalidPost,     status: 401 },
    { key: 'expired',           scope: 'account',   request: 'GET B1',                 build: getB1,           status: 401 },
    { key: 'expired',           scope: 'building',  request: 'GET B1',                 build: getB1,           status: 401 },
    { key: 'expired',           scope: 'account',   request: 'POST invalid portfolio', build: invalidPost,     status: 401 },
    { key: 'not yet expired',   scope: 'building',  request: 'GET B1',                 build: getB1,           status: 200 },
    // Level 0 (None) sees what its scope covers but may do nothing: 403 in scope, 404 outside.
    { key: 'level 0',           scope: 'account',   request: 'GET B1',                 build: getB1,           status: 403 },
    { key: 'level 0',           scope: 'account',   request: 'GET B2',                 build: getB2,           status: 403 },
    { key: 'level 0',           scope: 'account',   request: 'GET unknown building',   build: unknownBuilding, status: 404 },
    { key: 'level 0',           scope: 'portfolio', request: 'GET B1',                 build: getB1,           status: 403 },
    { key: 'level 0',           scope: 'portfolio', request: 'GET P1',                 build: getP1,           status: 403 },
    { key: 'level 0',           scope: 'portfolio', request: 'GET B2',                 build: getB2,           status: 404 },
    { key: 'level 0',           scope: 'portfolio', request: 'GET P2',                 build: getP2,           status: 404 },
    { key: 'level 0',           scope: 'building',  request: 'GET B1',                 build: getB1,           status: 403 },
    { key: 'level 0',           scope: 'building',  request: 'GET B1 source file',     build: getFile,         status: 403 },
    { key: 'level 0',           scope: 'building',  request: 'GET B2',                 build: getB2,           status: 404 },
    { key: 'level 0',           scope: 'building',  request: 'GET B2 files',           build: listB2Files,     status: 404 },
    { key: 'level 0',           scope: 'building',  request: 'GET P1',                 build: getP1,           status: 404 },
  ];

  async function keyFor(kind: KeyKind, scope: KeyScope): Promise<string | null> {
    switch (kind) {
      case 'none':
        return null;
      case 'unknown':
        return 'this-key-was-never-issued-0123456789abcdefghijk';
      case 'expired':
        return issueKey(scope, levels.Administrator, new Date(Date.now() - 60_000).toISOString());
      case 'not yet expired':
        return issueKey(scope, levels.Administrator, new Date(Date.now() + 3_600_000).toISOString());
      case 'level 0':
        return issueKey(scope, 0);
    }
  }

  it.each(authCases)('$request with a $key $scope key → $status', async ({ key, scope, build, status }) => {
    await expectStatus(build(world), await keyFor(key, scope), status);
  });
});

describe('key storage', () => {
  it('keeps only the SHA-256 of each key, never the key in clear text', async () => {
    // A key made through the API as well as the ones made directly: both paths must hash.
    const viaApi = await adminCreate<{ key: string }>({
      method: 'POST',
      url: `${api}/buildings/${world.first.buildingId}/tokens`,
      payload: { name: 'Storage check', level: levels.Read },
    });
    const allKeys = [...issuedKeys, viaApi.key];
    const rows = await test.server.context.db.selectFrom('tokens').selectAll().execute();
    const stored = JSON.stringify(rows);
    const hashes = new Set(rows.map((row) => row.keyHash));
    for (const key of allKeys) {
      // Keys are ≥ 32 random bytes, base64url (decisions §5).
      expect(key).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(stored).not.toContain(key);
      expect(hashes.has(createHash('sha256').update(key, 'utf8').digest('hex'))).toBe(true);
    }
    for (const row of rows) expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
