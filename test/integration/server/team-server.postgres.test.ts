/**
 * The team server as deployed: 2 API processes and 3 worker processes (`serve --api-only`, `serve --worker-only`, each
 * its own Node process) on one new PostgreSQL database and one blob folder. 20 IFC uploads in parallel through both API
 * processes all end Mapped, each import (which refines as it reads) done exactly once, with the element counts a single-process
 * import of the same model gives, although one worker is killed (SIGKILL) while every worker is running a job.
 * PostgreSQL only: SQLite is the embedded server's store and runs one process.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildingFileElementResponse, BuildingFileStatusResponse } from '../../../shared/api';
import { openDatabase, type Database } from '../../../server/store/store';
import { startTeamProcess, stopTeamProcess, type TeamProcess } from '../../bench/team-server';
import { createPortfolioWithBuilding, eventually, startTestServer } from './harness';
import { createTestDatabase, serverEnvironment, type TestDatabase } from './test-database';
import { IFC_FIXTURES } from '../../fixtures/files';

const api = '/api/v2.3';
const key = 'team-server-test-key-0123456789abcdefghij';
/** Small models, several elements each, so every worker is busy for a while. */
const models = ['example.ifc', 'duplex.ifc', 'SampleHouse4.ifc', 'AC20-FZK-Haus.ifc', 'ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc'];
const uploads = 20;

/** A request with the key against one of the API processes. */
async function call<T>(base: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Sorted element ids of each model, imported by one in-process server on SQLite (the embedded default). */
async function referenceImports(): Promise<Map<string, string[]>> {
  const reference = await startTestServer({ worker: true, sqlite: true });
  try {
    const { buildingId } = await createPortfolioWithBuilding(reference);
    const result = new Map<string, string[]>();
    for (const model of models) {
      const files = `${api}/buildings/${buildingId}/files`;
      const fileId = ((await reference.request({ method: 'POST', url: files, payload: { type: 0 } })).json() as { id: string }).id;
      await reference.request({
        method: 'POST',
        url: `${files}/${fileId}/upload/${model}`,
        headers: { 'content-type': 'application/octet-stream' },
        payload: await readFile(path.join(IFC_FIXTURES, model)),
      });
      await eventually(
        async () => (await reference.request({ method: 'GET', url: `${files}/${fileId}/status` })).json() as BuildingFileStatusResponse,
        (status) => status.status === 3,
      );
      const elements = (await reference.request({ method: 'GET', url: `${files}/${fileId}/elements?$select=id` })).json() as { id: string }[];
      result.set(model, elements.map((element) => element.id).sort());
    }
    return result;
  } finally {
    await reference.close();
  }
}

describe('a team server: 2 API and 3 worker processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  let dataDir: string;
  let store: Database;
  const members: TeamProcess[] = [];

  beforeAll(async () => {
    // A new, empty database: the five processes start together and migrate and seed it once between them.
    database = await createTestDatabase({ empty: true });
    dataDir = await mkdtemp(path.join(tmpdir(), 'cd-team-'));
    const teamStore = { databaseUrl: database.url ?? '', dataDir, key, env: serverEnvironment() as Record<string, string> };
    members.push(
      ...(await Promise.all([
        startTeamProcess('api', teamStore),
        startTeamProcess('api', teamStore),
        startTeamProcess('worker', teamStore),
        startTeamProcess('worker', teamStore),
        startTeamProcess('worker', teamStore),
      ])),
    );
    store = await openDatabase({ url: database.url ?? '' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(members.map((member) => stopTeamProcess(member, 'SIGKILL')));
    await store?.close();
    await database?.drop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('maps 20 parallel uploads exactly once with the right elements, though a worker dies mid-job', async () => {
    const [first, second] = members.filter((member) => member.role === 'api').map((member) => member.url);
    if (first === undefined || second === undefined) throw new Error('two API processes expected');
    const expected = await referenceImports();

    const portfolio = await call<{ id: string }>(first, 'POST', `${api}/portfolios`, { name: 'Team' });
    const building = await call<{ id: string }>(second, 'POST', `${api}/buildings`, { portfolioId: portfolio.id, name: 'Team building' });
    const files = `${api}/buildings/${building.id}/files`;
    const planned = await Promise.all(
      Array.from({ length: uploads }, async (_, index) => {
        const base = index % 2 === 0 ? first : second;
        const model = models[index % models.length] ?? '';
        const file = await call<{ id: string }>(base, 'POST', files, { type: 0 });
        return { base, model, fileId: file.id };
      }),
    );
    await Promise.all(
      planned.map(async ({ base, model, fileId }) => {
        const response = await fetch(`${base}${files}/${fileId}/upload/${model}`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/octet-stream' },
          body: await readFile(path.join(IFC_FIXTURES, model)),
        });
        expect(response.status, await response.text()).toBe(201);
      }),
    );

    // Each worker runs one job at a time: with three running, every worker is in the middle of one.
    await eventually(
      () => store.db.selectFrom('jobs').select('id').where('state', '=', 'running').execute(),
      (running) => running.length === 3,
      60_000,
    );
    const victim = members.find((member) => member.role === 'worker');
    if (victim === undefined) throw new Error('no worker');
    await stopTeamProcess(victim, 'SIGKILL');

    // The killed worker's job waits for its lease to expire (15 s), then another worker takes it.
    const statuses = await eventually(
      () => Promise.all(planned.map(({ base, fileId }) => call<BuildingFileStatusResponse>(base, 'GET', `${files}/${fileId}/status`))),
      (all) => all.every((status) => [0, 3, 99].includes(status.status)),
      90_000,
    );
    expect(statuses.map((status) => status.status)).toEqual(planned.map(() => 3));

    const jobs = await store.db.selectFrom('jobs').select(['kind', 'subjectId', 'state', 'attempts']).execute();
    for (const { fileId } of planned) {
      const ofFile = jobs.filter((job) => job.subjectId === fileId);
      expect(ofFile.map((job) => [job.kind, job.state]), `jobs of ${fileId}`).toEqual([['import-file', 'done']]);
    }
    expect(jobs.filter((job) => job.state === 'failed')).toEqual([]);
    // The killed worker's job was claimed again: the kill happened mid-job.
    expect(jobs.some((job) => job.attempts > 1 && job.state === 'done')).toBe(true);

    for (const [index, { base, model, fileId }] of planned.entries()) {
      const other = index % 2 === 0 ? second : first;
      const elements = await call<BuildingFileElementResponse[]>(base, 'GET', `${files}/${fileId}/elements`);
      const ids = elements.map((element) => element.id).sort();
      expect(ids, `${model} (${fileId})`).toEqual(expected.get(model));
      expect(statuses[index]?.elementCount).toBe(ids.length);
      // Both API processes answer the same elements.
      expect(await call<BuildingFileElementResponse[]>(other, 'GET', `${files}/${fileId}/elements`)).toEqual(elements);
    }
    const stored = await store.db.selectFrom('elements').select(({ fn }) => fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(Number(stored.count)).toBe(planned.reduce((sum, { model }) => sum + (expected.get(model)?.length ?? 0), 0));
  }, 180_000);
});
