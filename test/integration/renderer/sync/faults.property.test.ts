/**
 * Property: whatever the network, the server and the sync process do in between, once the faults stop and the engine
 * has pushed and pulled until nothing is left, the cache equals the server, every local edit is on the server exactly
 * once and the outbox is empty (design `sync.md`, "What the tests must be able to break").
 *
 * One real server with its job worker serves every run; each run gets its own portfolio, building and element file,
 * a key scoped to that portfolio (so a pull sees only the run's data, however many runs came before) and its own
 * cache. A run is a random sequence of local edits (element creates, bulk edits, deletes, building edits) and sync
 * steps (push, then pull) under a random fault plan, one fault per request: the answer lost after the server applied
 * it, 503 before it, no connection, a short delay. A sync step may kill the sync process at its n-th request (before
 * the request, or after the server answered): the step is abandoned there and the run goes on with a new `CacheDb` on
 * the same IndexedDB, as an app started again. Some runs restart the server on its data folder; the port follows its
 * new address.
 *
 * Runs: FC_NUM_RUNS, else 200 in CI and 25 elsewhere. Reproduce a failure: fast-check prints `{ seed, path }`; run with
 * FC_SEED=<seed> (and FC_PATH=<path> to replay only the shrunk counterexample).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApiCall } from '../../../../electron/http/api-request';
import { createQueuedClient } from '../../../../electron/http/queued-client';
import { CacheDb } from '../../../../renderer/db/cache-db';
import { createElement, deleteElements, editBuilding, editElements } from '../../../../renderer/db/edits';
import type { ApiPort } from '../../../../renderer/api/port';
import { pull } from '../../../../renderer/sync/pull';
import { push } from '../../../../renderer/sync/push';
import { startServer, type RunningServer } from '../../../../server/server';
import { BuildingFileStatuses } from '../../../../shared/api/enums';
import type { BuildingFileElementResponse, BuildingFileStatusResponse, BuildingResponse } from '../../../../shared/api/schemas';
import { cachedElements, expectNoStrayBlocks, KEY, type Answer } from './harness';

const numRuns = Number(process.env['FC_NUM_RUNS'] ?? (process.env['CI'] === undefined ? 25 : 200));
const seed = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED']);
const replayPath = process.env['FC_PATH'];

// --- the server -------------------------------------------------------------------------------------------------------

let dataDir: string;
let server: RunningServer;

// A short lease: a refinement the restart cut off is claimed again soon after the server is back.
const workerOptions = { pollMs: 50, leaseMs: 2_000, heartbeatMs: 500 };

async function start(): Promise<void> {
  server = await startServer({ dataDir, port: 0, bootstrapKey: KEY, logger: false, worker: workerOptions });
}

/** Closes the server and starts it again on the same data; its address may change. */
async function restartServer(): Promise<void> {
  await server.close();
  await start();
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cd-faults-'));
  await start();
});

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** One request straight to the server, with the administrator key unless another is given. */
async function request<T = unknown>(method: string, route: string, body?: unknown, key = KEY): Promise<Answer<T>> {
  const response = await fetch(`${server.url}/api/v2.3${route}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: (text === '' ? null : JSON.parse(text)) as T };
}

async function expectStatus<T>(answer: Promise<Answer<T>>, status: number): Promise<T> {
  const { status: actual, json } = await answer;
  expect(actual, JSON.stringify(json)).toBe(status);
  return json;
}

// --- faults -----------------------------------------------------------------------------------------------------------

/** What the network does to one request. */
type Fault = 'pass' | 'drop' | 'unavailable' | 'network' | 'delay';

const fault: fc.Arbitrary<Fault> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Fault>('pass') },
  { weight: 3, arbitrary: fc.constant<Fault>('drop') },
  { weight: 1, arbitrary: fc.constant<Fault>('unavailable') },
  { weight: 1, arbitrary: fc.constant<Fault>('network') },
  { weight: 2, arbitrary: fc.constant<Fault>('delay') },
);

/** Where the sync process dies: at its n-th request, before sending it or once the server has answered it. */
interface Kill {
  atCall: number;
  afterAnswer: boolean;
}

/** A network whose requests go to wherever the server listens now, and whose faults `next` picks one per request. */
function faultyPort(key: string, next: () => Fault): ApiPort {
  const faultyFetch: typeof fetch = async (input, init) => {
    const original = new URL(input instanceof Request ? input.url : String(input));
    const url = new URL(`${original.pathname}${original.search}`, server.url);
    const decision = next();
    if (decision === 'network') throw new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
    if (decision === 'unavailable') {
      const problem = { type: 'about:blank', title: 'Injected', status: 503, detail: 'Injected by the test.', instance: url.pathname, errors: [], message: 'Injected.' };
      return new Response(JSON.stringify(problem), { status: 503, headers: { 'content-type': 'application/problem+json' } });
    }
    if (decision === 'delay') await new Promise((resolve) => setTimeout(resolve, 1 + (url.pathname.length % 5)));
    const response = await fetch(url, init);
    if (decision !== 'drop') return response;
    await response.arrayBuffer();
    throw new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
  };
  // One attempt: the engine's own handling of a failure is under test, not the client's retries.
  const client = createQueuedClient({
    baseUrl: 'http://127.0.0.1:1',
    apiVersion: 'v2.3',
    apiKey: async () => key,
    fetch: faultyFetch,
    retry: { attempts: 1 },
    sleep: async () => {},
  });
  return (call) => runApiCall(client, 'v2.3', call);
}

const never = new Promise<never>(() => {});

/** A port that dies at the kill's request: that call and every later one never settle, as in a process that is gone. */
function killablePort(port: ApiPort, kill: Kill | null, killed: () => void): ApiPort {
  let calls = 0;
  return async (call) => {
    calls += 1;
    if (kill === null || calls < kill.atCall) return port(call);
    if (calls === kill.atCall && kill.afterAnswer) await port(call).catch(() => undefined);
    killed();
    return never;
  };
}

// --- the run ----------------------------------------------------------------------------------------------------------

/** The element fields the model follows. */
interface ElementFields {
  name: string;
  volume: number;
  floor: string;
}

type Step =
  | { kind: 'create'; fields: ElementFields }
  | { kind: 'edit'; picks: number[]; changes: Partial<ElementFields> }
  | { kind: 'delete'; picks: number[] }
  | { kind: 'building'; addressCity: string }
  | { kind: 'sync'; faults: Fault[]; kill: Kill | null }
  | { kind: 'restart' };

const name = fc.constantFrom('Wand', 'Vloer', 'Dak', 'Kolom', 'Balk');
const floor = fc.constantFrom('00', '01', '02', '03');
const volume = fc.integer({ min: 1, max: 400 }).map((tenths) => tenths / 10);
const elementFields = fc.record({ name, volume, floor });
const picks = fc.array(fc.nat(), { minLength: 1, maxLength: 4 });

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: elementFields.map((fields): Step => ({ kind: 'create', fields })) },
  {
    weight: 4,
    arbitrary: fc
      .record({ picks, changes: fc.record({ name, volume, floor }, { requiredKeys: [] }) })
      .filter(({ changes }) => Object.keys(changes).length > 0)
      .map(({ picks: chosen, changes }): Step => ({ kind: 'edit', picks: chosen, changes })),
  },
  { weight: 2, arbitrary: picks.map((chosen): Step => ({ kind: 'delete', picks: chosen })) },
  { weight: 2, arbitrary: fc.constantFrom('Delft', 'Leiden', 'Zwolle', 'Ede').map((addressCity): Step => ({ kind: 'building', addressCity })) },
  {
    weight: 3,
    arbitrary: fc.array(fault, { minLength: 4, maxLength: 30 }).map((faults): Step => ({ kind: 'sync', faults, kill: null })),
  },
  {
    // A process killed mid-cycle: fewer faults, so that the cycle gets as far as the kill.
    weight: 3,
    arbitrary: fc
      .record({
        faults: fc.array(fc.oneof({ weight: 8, arbitrary: fc.constant<Fault>('pass') }, { weight: 1, arbitrary: fault }), { maxLength: 30 }),
        kill: fc.record({ atCall: fc.integer({ min: 1, max: 14 }), afterAnswer: fc.boolean() }),
      })
      .map(({ faults, kill }): Step => ({ kind: 'sync', faults, kill })),
  },
);

/** A run: the file's first elements, then the steps; a restart of the server in about one run of three. */
const scenario = fc
  .record({
    initial: fc.integer({ min: 1, max: 10 }),
    steps: fc.array(step, { minLength: 1, maxLength: 12 }),
    restartAt: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat({ max: 12 }) }),
  })
  .map(({ initial, steps, restartAt }) => ({
    initial,
    steps: restartAt === null ? steps : [...steps.slice(0, restartAt), { kind: 'restart' } as Step, ...steps.slice(restartAt)],
  }));

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

let runNumber = 0;

/** A portfolio with a building and a source file in Importing holding `count` elements; a key scoped to the portfolio. */
async function freshData(count: number): Promise<{ buildingId: string; fileId: string; key: string; elements: Map<string, ElementFields> }> {
  runNumber += 1;
  const portfolio = await expectStatus(request<{ id: string }>('POST', '/portfolios', { name: `Faults ${runNumber}` }), 201);
  const building = await expectStatus(request<{ id: string }>('POST', '/buildings', { portfolioId: portfolio.id, name: `Faults ${runNumber}` }), 201);
  const token = await expectStatus(request<{ key: string }>('POST', `/portfolios/${portfolio.id}/tokens`, { name: 'faults', level: 70 }), 201);
  const files = `/buildings/${building.id}/files`;
  const file = await expectStatus(request<{ id: string }>('POST', files, { type: 0, name: 'faults.ifc' }), 201);
  await expectStatus(request('POST', `${files}/${file.id}/setimporting`), 204);
  const elements = new Map<string, ElementFields>();
  for (let index = 0; index < count; index += 1) {
    const fields = { name: 'Begin', volume: index + 0.5, floor: '00' };
    const id = `E${String(index).padStart(4, '0')}`;
    await expectStatus(request('POST', `${files}/${file.id}/elements`, { id, materialName: 'Beton', ...fields }), 201);
    elements.set(id, fields);
  }
  return { buildingId: building.id, fileId: file.id, key: token.key, elements };
}

const busy: number[] = [BuildingFileStatuses.Uploaded, BuildingFileStatuses.Refining, BuildingFileStatuses.Mapping];

/** Waits until the server has settled the run's file and building, so a last pull sees their final state. */
async function settled(buildingId: string, fileId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await request<BuildingFileStatusResponse>('GET', `/buildings/${buildingId}/files/${fileId}/status`)).json;
    const building = (await request<BuildingResponse>('GET', `/buildings/${buildingId}`)).json;
    if (!busy.includes(status.status) && !building.isDirty) return;
    if (Date.now() > deadline) throw new Error(`Not settled: ${JSON.stringify({ status, isDirty: building.isDirty })}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function runScenario({ initial, steps }: Scenario): Promise<void> {
  const { buildingId, fileId, key, elements: expected } = await freshData(initial);
  const expectedBuilding: { addressCity: string | null } = { addressCity: null };
  const factory = new IDBFactory();
  const cacheName = `faults-${runNumber}`;
  const open = (): CacheDb => new CacheDb(cacheName, { indexedDB: factory, IDBKeyRange });
  const options = { pollIntervalMs: 20, pollTimeoutMs: 30_000, pageSize: 7 };
  const clean = faultyPort(key, () => 'pass');
  let db = open();
  try {
    expect(await pull({ db, api: clean, pageSize: options.pageSize })).toMatchObject({ status: 'complete' });

    for (const each of steps) {
      const live = [...expected.keys()];
      const chosen = (indices: readonly number[]): string[] => [...new Set(indices.map((index) => live[index % live.length] ?? ''))];
      switch (each.kind) {
        case 'create': {
          if (expected.size >= 20) break;
          const id = await createElement(db, fileId, { materialName: 'Beton', ...each.fields });
          expected.set(id, { ...each.fields });
          break;
        }
        case 'edit': {
          if (live.length === 0) break;
          const ids = chosen(each.picks);
          await editElements(db, fileId, ids, each.changes);
          for (const id of ids) expected.set(id, { ...(expected.get(id) as ElementFields), ...each.changes });
          break;
        }
        case 'delete': {
          if (live.length === 0) break;
          const ids = chosen(each.picks);
          await deleteElements(db, fileId, ids);
          for (const id of ids) expected.delete(id);
          break;
        }
        case 'building':
          await editBuilding(db, buildingId, { addressCity: each.addressCity });
          expectedBuilding.addressCity = each.addressCity;
          break;
        case 'sync': {
          const plan = [...each.faults];
          let dead = false;
          let died: () => void = () => {};
          const death = new Promise<'killed'>((resolve) => {
            died = () => {
              dead = true;
              resolve('killed');
            };
          });
          const api = killablePort(faultyPort(key, () => plan.shift() ?? 'pass'), each.kill, died);
          const current = db;
          const cycle = (async () => {
            const pushed = await push({ db: current, api, ...options });
            // A push that stopped ends the cycle before the pull, as `runSyncCycle` does.
            if (pushed.status === 'done') await pull({ db: current, api, pageSize: options.pageSize });
            return 'ended' as const;
          })();
          await Promise.race([cycle, death]);
          if (dead) {
            // The process is gone: the app starts again on what IndexedDB kept.
            current.close();
            db = open();
          }
          break;
        }
        case 'restart':
          await restartServer();
          break;
      }
    }

    // Quiescence: no faults, cycles until nothing is left to send and a pull completed.
    let quiet = false;
    for (let cycle = 0; cycle < 8 && !quiet; cycle += 1) {
      const pushed = await push({ db, api: clean, ...options });
      const pulled = await pull({ db, api: clean, pageSize: options.pageSize });
      quiet = pushed.status === 'done' && pulled.status === 'complete' && (await db.outbox.count()) === 0;
    }
    expect(await db.outbox.toArray(), 'outbox').toEqual([]);
    await settled(buildingId, fileId);
    expect(await pull({ db, api: clean, pageSize: options.pageSize })).toMatchObject({ status: 'complete' });

    const onServer = (await request<BuildingFileElementResponse[]>('GET', `/buildings/${buildingId}/files/${fileId}/elements`)).json;
    const serverIds = onServer.map((element) => element.id);
    expect(new Set(serverIds).size, 'duplicated elements').toBe(serverIds.length);
    expect([...serverIds].sort(), 'element ids').toEqual([...expected.keys()].sort());
    for (const element of onServer) {
      expect({ name: element.name, volume: element.volume, floor: element.floor }, `element ${element.id}`).toEqual(expected.get(element.id));
    }
    const sorted = [...onServer].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    expect(await cachedElements(db, fileId), 'cached elements').toEqual(sorted);
    const building = (await request<BuildingResponse>('GET', `/buildings/${buildingId}`)).json;
    expect(building.addressCity, 'building').toBe(expectedBuilding.addressCity);
    expect(await db.buildings.get(buildingId), 'cached building').toEqual(building);
    await expectNoStrayBlocks(db);
  } finally {
    db.close();
  }
}

describe('sync under faults', () => {
  it('ends with the cache equal to the server, every edit there once and the outbox empty', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, runScenario),
      { numRuns, ...(seed === undefined ? {} : { seed }), ...(replayPath === undefined ? {} : { path: replayPath }) },
    );
  }, 900_000);
});
