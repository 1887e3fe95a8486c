/**
 * Passport requests of one building are de-duplicated: a request for a passport (format and language) that is still
 * waiting for a worker joins it, so a building has at most one such passport waiting besides the one being made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioWithBuilding, startTestServer, type TestServer } from '../harness';

let test: TestServer;
beforeAll(async () => {
  // No worker: requested passports stay queued, and the test says which one runs.
  test = await startTestServer();
});
afterAll(async () => {
  await test.close();
});

async function request(buildingId: string, format: 'exportpassport' | 'exportexcelpassport', language: string): Promise<string> {
  const answer = await test.request({ method: 'POST', url: `/api/v2.3/buildings/${buildingId}/${format}`, headers: { 'accept-language': language } });
  expect(answer.statusCode).toBe(202);
  return answer.headers.location as string;
}

async function passportFiles(buildingId: string): Promise<number> {
  return (await test.request({ method: 'GET', url: `/api/v2.3/buildings/${buildingId}/files` })).json<unknown[]>().length;
}

describe('passport requests of one building', () => {
  it('join the same passport while it waits, and make one more once it runs', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const first = await request(buildingId, 'exportpassport', 'nl');
    const again = await Promise.all(Array.from({ length: 10 }, () => request(buildingId, 'exportpassport', 'nl')));
    expect(new Set(again)).toEqual(new Set([first]));
    expect(await passportFiles(buildingId)).toBe(1);

    // Another format or language is another passport.
    const english = await request(buildingId, 'exportpassport', 'en');
    const excel = await request(buildingId, 'exportexcelpassport', 'nl');
    expect(new Set([first, english, excel]).size).toBe(3);

    // Once the first runs, the next request waits as a new passport, and the ones after it join that one.
    const fileId = first.split('/').at(-2) ?? '';
    await test.server.context.db.updateTable('jobs').set({ state: 'running', leaseUntil: new Date(Date.now() + 60_000).toISOString() }).where('subjectId', '=', fileId).execute();
    const waiting = await request(buildingId, 'exportpassport', 'nl');
    expect(waiting).not.toBe(first);
    expect(await Promise.all(Array.from({ length: 5 }, () => request(buildingId, 'exportpassport', 'nl')))).toEqual(Array.from({ length: 5 }, () => waiting));
    expect(await passportFiles(buildingId)).toBe(4);
    const jobs = await test.server.context.db.selectFrom('jobs').select('kind').where('kind', 'like', 'building-passport-%').execute();
    expect(jobs).toHaveLength(4);
  });

  it('of different buildings are never joined', async () => {
    const one = await createPortfolioWithBuilding(test);
    const other = await createPortfolioWithBuilding(test);
    expect(await request(one.buildingId, 'exportpassport', 'fr')).not.toBe(await request(other.buildingId, 'exportpassport', 'fr'));
  });
});
