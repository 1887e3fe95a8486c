/**
 * A body nested deeper than 64 levels is refused with a 400 problem, however deep: the walks that look for U+0000 and
 * numbers that are not finite keep their own stack. The building's schema lets a property it does not know through,
 * whatever it holds, so the walks meet the nesting before any handler does.
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

/** A building's body whose unknown property `extra` holds arrays nested `depth` deep. */
function buildingWithNesting(portfolioId: string, name: string, depth: number): string {
  return `{"portfolioId":"${portfolioId}","name":"${name}","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

describe(`nesting of a body on ${testDatabase}`, () => {
  it('takes 64 levels and refuses 65 and 200,000 with a 400 naming where', async () => {
    const { portfolioId } = await createPortfolioWithBuilding(test);
    const post = (payload: string) =>
      test.request({ method: 'POST', url: `${api}/buildings`, payload, headers: { 'content-type': 'application/json' } });

    expect((await post(buildingWithNesting(portfolioId, 'At the limit', 63))).statusCode).toBe(201);

    const oneTooDeep = await post(buildingWithNesting(portfolioId, 'One too deep', 64));
    expect(oneTooDeep.statusCode).toBe(400);
    expect(oneTooDeep.headers['content-type']).toContain('application/problem+json');
    expect(oneTooDeep.json()).toMatchObject({
      detail: expect.stringContaining('deeper than 64 levels'),
      errors: [{ path: `extra${'.0'.repeat(63)}`, message: 'must not nest deeper than 64 levels' }],
    });

    const veryDeep = await post(buildingWithNesting(portfolioId, 'Very deep', 200_000));
    expect(veryDeep.statusCode).toBe(400);
    expect(veryDeep.json()).toMatchObject({ errors: [{ message: 'must not nest deeper than 64 levels' }] });

    const buildings = (await test.request({ method: 'GET', url: `${api}/buildings` })).json() as { name: string }[];
    expect(buildings.map((building) => building.name).sort()).toEqual(['At the limit', 'Building']);
  });
});
