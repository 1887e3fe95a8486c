/**
 * No text of a request may hold U+0000: PostgreSQL cannot store it, and a local workspace must move to a team server
 * as it is. Both databases answer the same 400 naming the field, wherever the character comes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from './harness';
import { testDatabase } from './test-database';

const api = '/api/v2.3';
let test: TestServer;
beforeAll(async () => {
  test = await startTestServer();
});
afterAll(async () => {
  await test?.close();
});

describe(`text with U+0000 on ${testDatabase}`, () => {
  it('is refused in bodies, paths and queries with 400 naming where', async () => {
    const { portfolioId, buildingId } = await createPortfolioWithBuilding(test);
    const body = await test.request({ method: 'POST', url: `${api}/portfolios`, payload: { name: 'a\u0000b' } });
    expect(body.statusCode).toBe(400);
    expect(body.headers['content-type']).toContain('application/problem+json');
    expect(body.json()).toMatchObject({ errors: [{ path: 'name', message: 'must not contain U+0000' }] });

    const replaced = await test.request({ method: 'PUT', url: `${api}/buildings/${buildingId}`, payload: { portfolioId, name: 'B', addressCity: 'x\u0000' } });
    expect(replaced.statusCode).toBe(400);
    expect(replaced.json()).toMatchObject({ errors: [{ path: 'addressCity' }] });

    const inPath = await test.request({ method: 'DELETE', url: `${api}/buildings/%00` });
    expect(inPath.statusCode).toBe(400);
    expect(inPath.json()).toMatchObject({ errors: [{ path: 'params.id' }] });

    const inQuery = await test.request({ method: 'GET', url: `${api}/buildings?anything=%00` });
    expect(inQuery.statusCode).toBe(400);

    // Nothing was stored.
    const portfolios = (await test.request({ method: 'GET', url: `${api}/portfolios` })).json() as { name: string }[];
    expect(portfolios.map((portfolio) => portfolio.name)).toEqual(['Portfolio']);
  });
});
