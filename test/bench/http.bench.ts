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
import { startServerProcess, stopServerProcess, type ServerProcess } from './server-process';
import { seedElementFile } from './seed-elements';

const api = '/api/v2.3';
const ELEMENT_COUNT = 100_000;
const PAGE_SIZE = 100;
/** Distinct `$skip` values spread over the whole file; autocannon cycles through them on every connection. */
const SKIP_VARIANTS = 64;

const settings = {
  durationSeconds: Number(process.env['BENCH_DURATION'] ?? 10),
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 50),
};

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
    const { buildingId, fileId } = await seedElementFile(server, dataDir, key, { count: ELEMENT_COUNT });
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
