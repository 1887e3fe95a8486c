/**
 * HTTP benchmark of the two hottest reads: one building, and a page of a large file's elements.
 *
 * Setup (not measured): the server started as it is deployed (`server/cli.ts serve`, its own process) on 127.0.0.1
 * with a fresh data folder; a portfolio, a building and a source file set Importing through the API; 100,000 elements
 * inserted directly into its database. Then autocannon, in this process, loads each endpoint for a bounded time.
 *
 * Never fails on time (machines differ); exits non-zero only when a request errors or answers other than 2xx.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Insertable } from 'kysely';
import { openDatabase } from '../../server/store/store';
import { startServerProcess, stopServerProcess, type ServerProcess } from './server-process';
import type { ElementsTable } from '../../server/store/tables';

const api = '/api/v2.3';
const ELEMENT_COUNT = 100_000;
/** Rows per INSERT: 25 columns × 1,000 rows stays under SQLite's 32,766 bound parameters. */
const INSERT_BATCH = 1_000;
const PAGE_SIZE = 100;
/** Distinct `$skip` values spread over the whole file; autocannon cycles through them on every connection. */
const SKIP_VARIANTS = 64;

const settings = {
  durationSeconds: Number(process.env['BENCH_DURATION'] ?? 10),
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 50),
};

/** A request that must succeed during setup. */
async function call<T>(server: ServerProcess, key: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  const body = await response.text();
  if (response.status >= 300) throw new Error(`Setup ${method} ${url} answered ${response.status}: ${body}`);
  return (body === '' ? undefined : JSON.parse(body)) as T;
}

/** Element `index` of the benchmark file: realistic columns, ids that sort in insertion order. */
function element(fileId: string, index: number): Insertable<ElementsTable> {
  const layer = index % 6;
  return {
    buildingFileId: fileId,
    id: `E-${String(index).padStart(6, '0')}`,
    name: `Element ${index}`,
    materialName: ['Beton C30/37', 'Staal S235', 'Hout vuren', 'Glas float', 'Baksteen', 'Gips'][layer] ?? null,
    materialId: null,
    typeName: `Type ${index % 250}`,
    elementClass: ['IfcWall', 'IfcBeam', 'IfcSlab', 'IfcWindow', 'IfcColumn', 'IfcDoor'][layer] ?? null,
    volume: 0.25 + (index % 97) / 10,
    area: 1 + (index % 53),
    height: 2.7,
    width: 0.2,
    length: 1 + (index % 11),
    weight: null,
    mappingType: null,
    mappingId: null,
    phaseMatchId: null,
    phaseMatchName: null,
    brandLayerMatchId: null,
    brandLayerMatchName: null,
    classificationMatchId: null,
    classificationMatchName: null,
    classificationMatchCode: null,
    phaseLookup: JSON.stringify(['New']),
    classificationLookup: JSON.stringify([`2${layer}.1`]),
    floor: `Floor ${index % 12}`,
  };
}

/** Creates the portfolio, building and Importing source file, then fills the file with elements in one transaction. */
async function seed(server: ServerProcess, dataDir: string, key: string): Promise<{ buildingId: string; fileId: string }> {
  const portfolio = await call<{ id: string }>(server, key, 'POST', `${api}/portfolios`, { name: 'Benchmark' });
  const building = await call<{ id: string }>(server, key, 'POST', `${api}/buildings`, { portfolioId: portfolio.id, name: 'Benchmark building' });
  const file = await call<{ id: string }>(server, key, 'POST', `${api}/buildings/${building.id}/files`, { type: 0, name: 'benchmark.ifc' });
  await call(server, key, 'POST', `${api}/buildings/${building.id}/files/${file.id}/setimporting`);
  const started = performance.now();
  // A second connection to the server's SQLite file (WAL lets both work): bulk rows are setup, not what is measured.
  const database = await openDatabase(dataDir);
  await database.db.transaction().execute(async (trx) => {
    for (let first = 0; first < ELEMENT_COUNT; first += INSERT_BATCH) {
      const rows = Array.from({ length: Math.min(INSERT_BATCH, ELEMENT_COUNT - first) }, (_, offset) => element(file.id, first + offset));
      await trx.insertInto('elements').values(rows).execute();
    }
    await trx.updateTable('building_files').set({ elementCount: ELEMENT_COUNT }).where('id', '=', file.id).execute();
  });
  await database.close();
  console.log(`setup: ${ELEMENT_COUNT.toLocaleString('en')} elements inserted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { buildingId: building.id, fileId: file.id };
}

/** What one measured endpoint gave. */
interface Measurement {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** Loads `paths` (cycled through on every connection) for the configured time. */
async function measure(name: string, server: ServerProcess, key: string, paths: readonly string[]): Promise<Measurement> {
  // One request first, outside the measurement: a broken endpoint should say so plainly, not as 100,000 non-2xx.
  const probe = await fetch(`${server.url}${paths[0] ?? ''}`, { headers: { 'x-api-key': key } });
  const probeBody = await probe.text();
  if (!probe.ok) throw new Error(`${name}: ${paths[0] ?? ''} answered ${probe.status}: ${probeBody.slice(0, 500)}`);

  const result = await autocannon({
    url: server.url,
    connections: settings.connections,
    duration: settings.durationSeconds,
    headers: { 'x-api-key': key },
    requests: paths.map((requestPath) => ({ method: 'GET' as const, path: requestPath })),
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

function report(measurement: Measurement): void {
  const { name, requestsPerSecond, p50, p99, total, errors, timeouts, non2xx } = measurement;
  console.log(
    `${name.padEnd(34)} ${requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(p50).padStart(4)} ms   p99 ${String(p99).padStart(4)} ms   ` +
      `${total.toLocaleString('en')} requests, ${errors} errors, ${timeouts} timeouts, ${non2xx} non-2xx`,
  );
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-'));
  const key = randomBytes(32).toString('base64url');
  const server = await startServerProcess(dataDir, key);
  try {
    const { buildingId, fileId } = await seed(server, dataDir, key);
    const elementsPath = `${api}/buildings/${buildingId}/files/${fileId}/elements`;
    // Skips spread evenly over the file, first page to last, so deep offsets weigh in as much as the first ones.
    const skips = Array.from({ length: SKIP_VARIANTS }, (_, index) => Math.round((index * (ELEMENT_COUNT - PAGE_SIZE)) / (SKIP_VARIANTS - 1)));
    console.log(
      `load: ${settings.connections} connections, ${settings.durationSeconds} s per endpoint, ${availableParallelism()} CPU(s), ${server.url}`,
    );
    const measurements = [
      await measure('GET /buildings/{id}', server, key, [`${api}/buildings/${buildingId}`]),
      await measure(`GET …/elements $top=${PAGE_SIZE} (${SKIP_VARIANTS} skips)`, server, key, skips.map((skip) => `${elementsPath}?$top=${PAGE_SIZE}&$skip=${skip}`)),
    ];
    console.log('');
    measurements.forEach(report);
    console.log('goal: single building read: ≥ 5k req/s on a 2-core machine (informative; never fails the run)');
    const failures = measurements.filter((m) => m.errors > 0 || m.timeouts > 0 || m.non2xx > 0);
    for (const failure of failures) console.error(`FAILED: ${failure.name} had request errors or non-2xx answers.`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    await stopServerProcess(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
