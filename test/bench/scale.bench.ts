/**
 * Scale-out on PostgreSQL: what more processes of the team server give, as ratios.
 *
 * - Jobs: `serve --worker-only` processes (1, then 3) work off the imports and refinements of BENCH_SCALE_FILES small
 *   IFC uploads (default 30 × example.ifc, 2 jobs each), uploaded in parallel through one `--api-only` process once
 *   the workers are up; jobs/s from the first upload to the last file Mapped.
 * - Element pages: `GET …/elements?$top=100&$skip=…` over a file of 100,000 elements, by autocannon against 1, then 2
 *   `--api-only` processes (half the connections each, as a load balancer spreads them); req/s summed.
 *
 * Each configuration gets a database of its own in one throwaway cluster on 127.0.0.1 (scripts/postgres-cluster.ts).
 * On one machine the processes, PostgreSQL and the load generator share the cores, so the ratios show what the
 * machine's spare cores give, not what separate machines would. Never fails on time; exits non-zero only when a
 * request fails; without PostgreSQL it says so and exits 0.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { BuildingFileStatuses } from '../../shared/api/enums';
import { findPostgresBin, startPostgresCluster, type PostgresCluster } from '../../scripts/postgres-cluster';
import { openDatabase } from '../../server/store/store';
import { seedElementFile } from './seed-elements';
import { startTeamProcess, stopTeamProcess, type TeamProcess, type TeamStore } from './team-server';
import { ifcFixture } from '../fixtures/files';

const api = '/api/v2.3';
const model = ifcFixture('example.ifc');
const settings = {
  files: Number(process.env['BENCH_SCALE_FILES'] ?? 30),
  durationSeconds: Number(process.env['BENCH_DURATION'] ?? 10),
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 50),
};
const ELEMENT_COUNT = 100_000;
const PAGE_SIZE = 100;
const SKIP_VARIANTS = 64;

/** A JSON request with the key; fails on a non-2xx answer. */
async function call<T>(base: string, key: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${api}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** A team server's store on a new database of the cluster, with its data folder. */
async function newStore(cluster: PostgresCluster, name: string): Promise<TeamStore & { cleanup(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-scale-'));
  return {
    databaseUrl: url.toString(),
    dataDir,
    key: randomBytes(32).toString('base64url'),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** Starts processes of one role, all at once. */
function startMany(role: 'api' | 'worker', count: number, store: TeamStore): Promise<TeamProcess[]> {
  return Promise.all(Array.from({ length: count }, () => startTeamProcess(role, store)));
}

/** Jobs per second that `workers` worker processes achieve on the uploads. */
async function jobsPerSecond(cluster: PostgresCluster, workers: number): Promise<number> {
  const store = await newStore(cluster, `scale_jobs_${workers}`);
  // The API process migrates and seeds the new database before the workers start.
  const processes = await startMany('api', 1, store);
  try {
    processes.push(...(await startMany('worker', workers, store)));
    const base = processes[0]?.url ?? '';
    const portfolio = await call<{ id: string }>(base, store.key, 'POST', '/portfolios', { name: 'Scale' });
    const building = await call<{ id: string }>(base, store.key, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Scale' });
    const files = `/buildings/${building.id}/files`;
    const content = await readFile(model);
    const fileIds = await Promise.all(
      Array.from({ length: settings.files }, async () => (await call<{ id: string }>(base, store.key, 'POST', files, { type: 0 })).id),
    );
    const started = performance.now();
    await Promise.all(
      fileIds.map(async (fileId) => {
        const response = await fetch(`${base}${api}${files}/${fileId}/upload/example.ifc`, {
          method: 'POST',
          headers: { 'x-api-key': store.key, 'content-type': 'application/octet-stream' },
          body: content,
        });
        if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
      }),
    );
    for (;;) {
      const statuses = await call<{ status: number }[]>(base, store.key, 'GET', files);
      if (statuses.some((file) => file.status === BuildingFileStatuses.Error || file.status === BuildingFileStatuses.UnknownImportFile)) {
        throw new Error('An upload ended in Error.');
      }
      if (statuses.every((file) => file.status === BuildingFileStatuses.Mapped)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    // Import and refinement per file.
    const rate = (2 * settings.files) / seconds;
    console.log(`${String(workers).padStart(2)} worker(s): ${settings.files} files Mapped in ${seconds.toFixed(1)} s, ${rate.toFixed(1)} jobs/s`);
    return rate;
  } finally {
    await Promise.all(processes.map((member) => stopTeamProcess(member)));
    await store.cleanup();
  }
}

/** Element-page requests per second through `apis` API processes, and the request failures seen. */
async function pagesPerSecond(cluster: PostgresCluster, apis: number): Promise<{ rate: number; failures: number }> {
  const store = await newStore(cluster, `scale_pages_${apis}`);
  const processes = await startMany('api', 1, store);
  try {
    const first = processes[0];
    if (first === undefined) throw new Error('no API process');
    const { buildingId, fileId } = await seedElementFile(first, store.databaseUrl, store.key, { count: ELEMENT_COUNT });
    // The rows were written behind the server's back: refresh the statistics as an import (or autovacuum) would.
    const database = await openDatabase(store.databaseUrl);
    await database.dialect.refreshStatistics(database.db, 'elements');
    await database.close();
    processes.push(...(await startMany('api', apis - 1, store)));
    const skips = Array.from({ length: SKIP_VARIANTS }, (_, index) => Math.round((index * (ELEMENT_COUNT - PAGE_SIZE)) / (SKIP_VARIANTS - 1)));
    const paths = skips.map((skip) => `${api}/buildings/${buildingId}/files/${fileId}/elements?$top=${PAGE_SIZE}&$skip=${skip}`);
    const probe = await fetch(`${first.url}${paths[0] ?? ''}`, { headers: { 'x-api-key': store.key } });
    if (!probe.ok) throw new Error(`${paths[0] ?? ''} answered ${probe.status}: ${await probe.text()}`);
    const results = await Promise.all(
      processes.map((member) =>
        autocannon({
          url: member.url,
          connections: Math.max(1, Math.round(settings.connections / processes.length)),
          duration: settings.durationSeconds,
          headers: { 'x-api-key': store.key },
          requests: paths.map((requestPath) => ({ method: 'GET' as const, path: requestPath })),
        }),
      ),
    );
    const rate = results.reduce((sum, result) => sum + result.requests.average, 0);
    const failures = results.reduce((sum, result) => sum + result.errors + result.timeouts + result.non2xx, 0);
    const p99 = Math.max(...results.map((result) => result.latency.p99));
    console.log(`${String(apis).padStart(2)} API process(es): ${rate.toFixed(0)} req/s, p99 ≤ ${p99} ms, ${failures} failed requests`);
    return { rate, failures };
  } finally {
    await Promise.all(processes.map((member) => stopTeamProcess(member)));
    await store.cleanup();
  }
}

async function main(): Promise<number> {
  if (findPostgresBin() === undefined) {
    console.log('PostgreSQL is not installed (no initdb and pg_ctl; set POSTGRES_BIN): the scale benchmark is skipped.');
    return 0;
  }
  const cluster = await startPostgresCluster();
  try {
    console.log(
      `${availableParallelism()} CPU(s); jobs: ${settings.files} × ${path.basename(model)}; element pages: ${settings.connections} connections, ` +
        `${settings.durationSeconds} s per run`,
    );
    const oneWorker = await jobsPerSecond(cluster, 1);
    const threeWorkers = await jobsPerSecond(cluster, 3);
    const oneApi = await pagesPerSecond(cluster, 1);
    const twoApis = await pagesPerSecond(cluster, 2);
    console.log('');
    console.log(`jobs/s, 3 workers vs 1:              × ${(threeWorkers / oneWorker).toFixed(2)}`);
    console.log(`element pages/s, 2 API processes vs 1: × ${(twoApis.rate / oneApi.rate).toFixed(2)}`);
    console.log('(informative; never fails the run on time)');
    return oneApi.failures + twoApis.failures === 0 ? 0 : 1;
  } finally {
    await cluster.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
