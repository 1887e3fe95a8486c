/**
 * Upload benchmark: a large file (1 GiB; `BENCH_UPLOAD_MB` sets the size in MiB) uploaded by the drop folder service,
 * against a plain curl of the same file to the same server in the same run (`--data-binary @file`, or, from 1 GiB on,
 * where curl refuses to hold the file in memory, `--upload-file`).
 *
 * Setup (not measured): the file is written once into a temp folder, block by block with random content (no sparse
 * regions, never whole in memory), named `.xlsx` but not a workbook, so the server refuses to import it right after
 * accepting the upload. The server runs as deployed (`server/cli.ts serve`, its own process, default limit 2 GiB per
 * upload). A building gets two source files: one for the drop folder, one for curl.
 *
 * Measured: the drop folder file's time from `uploading` to `processing` (the upload, with the real queued client),
 * the wall time of the curl process, and this process's peak RSS above idle (sampled every 50 ms; idle is taken just
 * before the service starts). Never fails on time; exits non-zero only when an upload is not accepted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDropFolderService } from '../../electron/dropfolders/service';
import { createQueuedClient } from '../../electron/http/queued-client';
import type { DropFolderEvent } from '../../shared/dropfolders';
import { startServerProcess, stopServerProcess, type ServerProcess } from './server-process';

const MIB = 1024 * 1024;
const api = '/api/v2.3';
/** The server's own limit (decisions §11); a larger file would be refused. */
const SERVER_LIMIT_MIB = 2048;
const sizeMiB = Number(process.env['BENCH_UPLOAD_MB'] ?? 1024);
const FILE_NAME = 'bench-upload.xlsx';
/** curl reads a `--data-binary @file` into memory and refuses files of this size and more. */
const CURL_FILE_IN_MEMORY_LIMIT = 1024 * MIB;

/** Writes `sizeMiB` MiB of random content, a fresh random block each MiB, waiting for the disk when it lags behind. */
async function writeContent(file: string): Promise<void> {
  const out = createWriteStream(file);
  // Not a zip signature: the server recognises the file as "named like a workbook but not one" from its first bytes.
  const header = Buffer.from('circularity desk upload benchmark\n');
  for (let index = 0; index < sizeMiB; index += 1) {
    const block = randomBytes(MIB);
    if (index === 0) header.copy(block);
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function apiCall<T>(server: ServerProcess, key: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${api}${route}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** Samples this process's RSS every 50 ms until stopped; answers the highest sample. */
function sampleRss(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

interface DropFolderRun {
  seconds: number;
  peakAboveIdle: number;
  idle: number;
  outcome: string;
}

/** Uploads the folder's file with the drop folder service; answers the time from `uploading` to `processing`. */
async function uploadWithDropFolder(server: ServerProcess, key: string, folder: string, buildingId: string): Promise<DropFolderRun> {
  const stateDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-upload-state-'));
  // The client as the app and `npm run watch` make it.
  const client = createQueuedClient({ baseUrl: server.url, apiVersion: 'v2.3', apiKey: async () => key });
  let uploadingAt: number | undefined;
  let processingAt: number | undefined;
  let finished: (outcome: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (finished = resolve));
  const onEvent = (event: DropFolderEvent): void => {
    if (event.kind !== 'file' || event.file.path !== FILE_NAME) return;
    const { state } = event.file;
    if (state === 'uploading') uploadingAt ??= performance.now();
    if (state === 'processing') processingAt ??= performance.now();
    if (state === 'mapped' || state === 'failed') finished(`${state}${event.file.lastError === null ? '' : `: ${event.file.lastError}`}`);
  };

  global.gc?.();
  const idle = process.memoryUsage().rss;
  const rss = sampleRss();
  const service = await startDropFolderService({ stateDir, clientFor: () => client, onEvent, timing: { stableMs: 500 } });
  try {
    await service.add({ folder, target: { kind: 'building', buildingId }, connectionId: 'bench', fileTypes: ['.xlsx'] });
    const outcome = await done;
    const peak = rss.stop();
    if (uploadingAt === undefined || processingAt === undefined) throw new Error(`The drop folder upload was not accepted: ${outcome}`);
    return { seconds: (processingAt - uploadingAt) / 1000, peakAboveIdle: peak - idle, idle, outcome };
  } finally {
    rss.stop();
    await service.close();
    await client.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}

/**
 * Uploads the file with curl into another source file of the building; answers the process's wall time and how the
 * body was given. `--data-binary @file` reads the file into memory, which curl refuses from 1 GiB on ("out of memory"):
 * a file that large is streamed with `--upload-file` (as a POST, without `Expect: 100-continue`) instead.
 */
async function uploadWithCurl(server: ServerProcess, key: string, file: string, buildingId: string): Promise<{ seconds: number; status: string; how: string }> {
  const remote = await apiCall<{ id: string }>(server, key, 'POST', `/buildings/${buildingId}/files`, { type: 0 });
  const url = `${server.url}${api}/buildings/${buildingId}/files/${remote.id}/upload/${FILE_NAME}`;
  const inMemory = sizeMiB * MIB < CURL_FILE_IN_MEMORY_LIMIT;
  const body = inMemory ? ['--data-binary', `@${file}`] : ['--upload-file', file, '-H', 'Expect:'];
  const how = inMemory ? 'curl --data-binary @file' : 'curl --upload-file file -X POST';
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', '-H', `x-api-key: ${key}`, '-H', 'content-type: application/octet-stream', ...body, url];
  const started = performance.now();
  const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let status = '';
  child.stdout.on('data', (chunk: Buffer) => (status += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0 || status !== '201') throw new Error(`curl exited with ${code} and HTTP ${status}: the upload was not accepted.`);
  return { seconds, status, how };
}

function megabytesPerSecond(seconds: number): number {
  return (sizeMiB * MIB) / 1e6 / seconds;
}

async function main(): Promise<number> {
  if (!Number.isFinite(sizeMiB) || sizeMiB < 1 || sizeMiB > SERVER_LIMIT_MIB) {
    console.error(`BENCH_UPLOAD_MB must be 1..${SERVER_LIMIT_MIB} (the server accepts uploads up to 2 GiB), not '${process.env['BENCH_UPLOAD_MB']}'.`);
    return 1;
  }
  const curlFound = spawnSync('which', ['curl']).status === 0;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-upload-data-'));
  const folder = await mkdtemp(path.join(tmpdir(), 'cd-bench-upload-folder-'));
  const file = path.join(folder, FILE_NAME);
  const key = randomBytes(32).toString('base64url');
  let server: ServerProcess | undefined;
  try {
    const writing = performance.now();
    await writeContent(file);
    console.log(`file: ${sizeMiB} MiB of random content written in ${((performance.now() - writing) / 1000).toFixed(1)} s to ${file}`);
    server = await startServerProcess(dataDir, key);
    const portfolio = await apiCall<{ id: string }>(server, key, 'POST', '/portfolios', { name: 'Upload benchmark' });
    const building = await apiCall<{ id: string }>(server, key, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Upload benchmark' });
    console.log(`server: ${server.url}`);

    const drop = await uploadWithDropFolder(server, key, folder, building.id);
    const dropRate = megabytesPerSecond(drop.seconds);
    console.log('');
    console.log(`drop folder (queued client, streamed)   ${drop.seconds.toFixed(2).padStart(7)} s   ${dropRate.toFixed(0).padStart(5)} MB/s   (uploading → processing; then ${drop.outcome})`);
    if (curlFound) {
      const curl = await uploadWithCurl(server, key, file, building.id);
      const curlRate = megabytesPerSecond(curl.seconds);
      console.log(`${curl.how.padEnd(40)}${curl.seconds.toFixed(2).padStart(7)} s   ${curlRate.toFixed(0).padStart(5)} MB/s   (HTTP ${curl.status}, process wall time)`);
      console.log(`throughput drop folder / curl: ${(dropRate / curlRate).toFixed(2)} (goal: ≥ 0.50, within 2× of curl)`);
    } else {
      console.log('curl: not found on this machine; no comparison');
    }
    console.log(
      `peak RSS above idle: ${(drop.peakAboveIdle / MIB).toFixed(1)} MiB (idle ${(drop.idle / MIB).toFixed(1)} MiB; goal < 200 MiB above idle)`,
    );
    console.log('MB = 10^6 bytes; figures are informative and never fail the run');
    return 0;
  } finally {
    if (server !== undefined) await stopServerProcess(server);
    await rm(folder, { recursive: true, force: true });
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
