/**
 * App upload benchmark: a large file (1 GiB; `BENCH_UPLOAD_MB` sets the size in MiB) uploaded through the desktop host
 * both ways a page starts one — a file chosen in the host's dialog, read from disk, and a spool the page fills: a page
 * in Debian's Chromium (Playwright's own browser without it) picks the file in a file input, opens a spool over the
 * browser host's real socket, starts the upload at once and PUTs the file's pieces, as the app's page does in browser
 * mode — against a plain curl of the same file to the same server, run just before each of them.
 *
 * Setup (not measured): the file is written once, block by block with random content; the server runs as deployed
 * (`server/cli.ts serve`, its own process); a building gets one information file per upload (stored, not processed).
 * Each host run is a fresh Node process (`--expose-gc`) with the real desktop host — its Local workspace included, in
 * a process of its own, measured once its first start has processed the sample model and written its passports — and,
 * for the spool, the browser host. Dirty pages are written back before every measured upload.
 *
 * Measured: in the host's process, the time from the upload's first `uploads:changed` event (right after
 * `uploads:start`) to `done` (and the part of it in `sending`), the process's CPU time meanwhile, and its peak RSS
 * above idle (idle read after a GC just before the upload; sampled every 50 ms, and maxRSS); curl's wall time with
 * `--data-binary @file`, or `--upload-file` from 1 GiB on (curl refuses to hold such a file in memory). Never fails on
 * time; exits non-zero only when an upload is not accepted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { LOCAL_CONNECTION_ID } from '../../electron/connections';
import { startDesktopHost, type DesktopHost } from '../../electron/desktop';
import { BuildingFileStatuses, BuildingFileType } from '../../shared/api/enums';
import { nodeProcessLauncher } from '../../electron/node-process-launcher';
import { MemoryVault } from '../../electron/vault';
import { startWebHost } from '../../electron/web-host';
import type { UploadEntry } from '../../shared/uploads';
import { SESSION_PARAM, SPOOL_PIECE_BYTES } from '../../shared/web-bridge-protocol';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium-path';
import { rendererProcessesRss } from './page-memory';
import { startServerProcess, stopServerProcess, type ServerProcess } from './server-process';

const MIB = 1024 * 1024;
const api = '/api/v2.3';
/** The server's own limit (decisions §11); a larger file would be refused. */
const SERVER_LIMIT_MIB = 2048;
const sizeMiB = Number(process.env['BENCH_UPLOAD_MB'] ?? 1024);
const FILE_NAME = 'bench-upload.bin';
/** curl reads a `--data-binary @file` into memory and refuses files of this size and more. */
const CURL_FILE_IN_MEMORY_LIMIT = 1024 * MIB;
const SCRIPT = fileURLToPath(import.meta.url);

type Way = 'chosen' | 'spool';

/** What a host process measured. */
interface HostRun {
  seconds: number;
  /** Of those, the time in `sending`: the bytes on their way. */
  sendingSeconds: number;
  /** CPU time of the host's process during the upload (user and system). */
  cpuSeconds: number;
  idle: number;
  peakAboveIdle: number;
  outcome: string;
  /** For a spool: the peak RSS above idle of Chromium's page process. */
  pagePeakAboveIdle?: number;
}

/** What a host process prints once it listens, for the page of a spool run. */
interface HostReady {
  url: string;
  token: string;
  connectionId: string;
}

const READY = 'READY ';
const RESULT = 'RESULT ';

/** Writes `sizeMiB` MiB of random content, a fresh random block each MiB, waiting for the disk when it lags behind. */
async function writeContent(file: string): Promise<void> {
  const out = createWriteStream(file);
  for (let index = 0; index < sizeMiB; index += 1) {
    if (!out.write(randomBytes(MIB))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * Writes back what the file system holds unwritten, before each upload is measured: the bytes of the upload before
 * (or of the file written) reach the disk about 30 s after they were written, which without this falls into one run
 * and not into another.
 */
function writeBackDirtyPages(): void {
  spawnSync('sync');
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

// --- the host's process ------------------------------------------------------------------------------------------------

/** Statuses after which a file's processing has ended. */
const SETTLED_STATUSES: ReadonlySet<number> = new Set([
  BuildingFileStatuses.Mapped,
  BuildingFileStatuses.Error,
  BuildingFileStatuses.UnknownImportFile,
]);

/** Statuses after which a passport's generation has ended. */
const SETTLED_PASSPORT_STATUSES: ReadonlySet<number> = new Set([BuildingFileStatuses.Uploaded, BuildingFileStatuses.Error]);

/**
 * Waits until the Local workspace's first start has processed its sample model and written its two passports: that
 * work runs in a process of its own on the same cores and would be measured as the upload's slowness.
 */
async function untilLocalWorkspaceSettled(host: DesktopHost): Promise<void> {
  const call = (operationId: string, params?: Record<string, string>): Promise<unknown> =>
    host.handlers['api:request']({ connectionId: LOCAL_CONNECTION_ID, operationId, ...(params === undefined ? {} : { params }) }).then((answer) =>
      answer.kind === 'ok' ? answer.value : undefined,
    );
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const buildings = ((await call('listBuildings')) ?? []) as { id: string }[];
    let settled = true;
    let models = 0;
    let passports = 0;
    for (const building of buildings) {
      for (const file of ((await call('listBuildingFiles', { buildingId: building.id })) ?? []) as { id: string; type: number }[]) {
        const isModel = file.type === BuildingFileType.Source;
        const isPassport = file.type === BuildingFileType.PassportPdf || file.type === BuildingFileType.PassportExcel;
        if (!isModel && !isPassport) continue;
        if (isModel) models += 1;
        else passports += 1;
        const status = (await call('getBuildingFileStatus', { buildingId: building.id, fileId: file.id })) as { status: number } | undefined;
        if (status === undefined || !(isModel ? SETTLED_STATUSES : SETTLED_PASSPORT_STATUSES).has(status.status)) settled = false;
      }
    }
    // The sample building exists a moment before its model does, and the passports are asked for once its figures are
    // there: settled means a model and both passports, each of them ended.
    if (settled && models > 0 && passports >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the Local workspace did not finish its sample model and passports within 5 minutes');
}

/** Runs one upload through a fresh desktop host and prints what it measured. */
async function measureHost(way: Way, serverUrl: string, key: string, file: string, buildingId: string): Promise<void> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-app-upload-ud-'));
  const staticDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-app-upload-static-'));
  const host = await startDesktopHost({
    userDataDir,
    host: 'browser',
    version: '0.0.0-bench',
    vault: new MemoryVault(),
    startLocalServer: nodeProcessLauncher(),
    openExternal: async () => undefined,
    openPath: async () => undefined,
    chooseFiles: async () => [file],
    log: (message, error) => console.error(message, error ?? ''),
  });
  await untilLocalWorkspaceSettled(host);
  const connectionId = (await host.provision(serverUrl, key)).id;
  const web = way === 'spool' ? await startWebHost({ port: 0, staticDir, handlers: host.handlers, onEvent: (sink) => host.onEvent(sink), log: () => undefined, sessionToken: randomBytes(24).toString('base64url') }) : undefined;

  let startedAt: number | undefined;
  let sendingAt: number | undefined;
  let finish: (entry: UploadEntry) => void = () => undefined;
  const ended = new Promise<UploadEntry>((resolve) => (finish = resolve));
  host.onEvent((event, payload) => {
    if (event !== 'uploads:changed') return;
    const entry = payload as UploadEntry;
    startedAt ??= performance.now();
    if (entry.state === 'sending') sendingAt ??= performance.now();
    if (entry.state === 'done' || entry.state === 'failed' || entry.state === 'cancelled') finish(entry);
  });

  writeBackDirtyPages();
  global.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  const cpuBefore = process.cpuUsage();
  try {
    if (web === undefined) {
      const [chosen] = await host.handlers['dialog:choose-files']({ kinds: 'any', multiple: false });
      if (chosen === undefined) throw new Error('the dialog chose nothing');
      await host.handlers['uploads:start']({
        connectionId,
        target: { kind: 'building-file', buildingId, fileType: 1 },
        source: { kind: 'chosen', choiceId: chosen.choiceId },
        fileName: FILE_NAME,
        size: chosen.size,
      });
    } else {
      const token = new URL(web.url).searchParams.get(SESSION_PARAM) ?? '';
      const ready: HostReady = { url: `http://127.0.0.1:${web.port}/`, token, connectionId };
      console.log(`${READY}${JSON.stringify(ready)}`);
    }
    const entry = await ended;
    const doneAt = performance.now();
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);
    // maxRSS covers a peak between samples, when it rose above the process's peak before the upload.
    const peakAfter = process.resourceUsage().maxRSS * 1024;
    peak = Math.max(peak, peakAfter > peakBefore ? peakAfter : 0, process.memoryUsage().rss);
    const result: HostRun = {
      seconds: (doneAt - (startedAt ?? doneAt)) / 1000,
      sendingSeconds: (doneAt - (sendingAt ?? doneAt)) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      idle,
      peakAboveIdle: peak - idle,
      outcome: entry.state === 'done' ? 'done' : `${entry.state}: ${entry.problem?.message ?? ''}`,
    };
    console.log(`${RESULT}${JSON.stringify(result)}`);
  } finally {
    clearInterval(sampler);
    await web?.close();
    await host.close();
    await rm(userDataDir, { recursive: true, force: true });
    await rm(staticDir, { recursive: true, force: true });
  }
}

// --- the page of a spool run -----------------------------------------------------------------------------------------------

/** What the page needs: the host's address, the session token, the connection and where the file goes. */
interface PageFeed {
  token: string;
  connectionId: string;
  buildingId: string;
  fileName: string;
  pieceBytes: number;
}

/**
 * In the page: what the app's uploads store does with a File picked in browser mode. It opens a spool over the bridge
 * socket and starts the upload at once. It then PUTs the file's pieces one after the other and waits for the upload's end.
 */
async function feedInPage(feed: PageFeed): Promise<string> {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  const file = input.files?.[0];
  if (file === undefined) throw new Error('no file picked');
  const socket = new WebSocket(`ws://${location.host}/bridge?session=${encodeURIComponent(feed.token)}`);
  const answers = new Map<number, (result: { ok: boolean; value?: unknown; error?: { message: string } }) => void>();
  let ended: (state: string) => void = () => undefined;
  const end = new Promise<string>((resolve) => (ended = resolve));
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { type: string; id?: number; result?: never; event?: string; payload?: { state: string } };
    if (message.type === 'result' && message.id !== undefined) answers.get(message.id)?.(message.result as never);
    const state = message.payload?.state;
    if (message.type === 'event' && message.event === 'uploads:changed' && (state === 'done' || state === 'failed' || state === 'cancelled')) ended(state);
  });
  await new Promise((resolve) => socket.addEventListener('open', resolve, { once: true }));
  let nextId = 1;
  const invoke = async (channel: string, request: unknown): Promise<unknown> => {
    const id = nextId++;
    const result = await new Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>((resolve) => {
      answers.set(id, resolve);
      socket.send(JSON.stringify({ type: 'invoke', id, channel, request }));
    });
    if (!result.ok) throw new Error(`${channel}: ${result.error?.message ?? ''}`);
    return result.value;
  };
  const { spoolId } = (await invoke('uploads:open-spool', { fileName: feed.fileName, size: file.size })) as { spoolId: string };
  await invoke('uploads:start', {
    connectionId: feed.connectionId,
    target: { kind: 'building-file', buildingId: feed.buildingId, fileType: 1 },
    source: { kind: 'spool', spoolId },
    fileName: feed.fileName,
    size: file.size,
  });
  for (let offset = 0; offset < file.size; offset += feed.pieceBytes) {
    const response = await fetch(`/spool/${spoolId}?offset=${offset}`, {
      method: 'PUT',
      headers: { 'x-session-token': feed.token, 'content-type': 'application/octet-stream' },
      body: file.slice(offset, offset + feed.pieceBytes),
    });
    const result = (await response.json()) as { ok: boolean; error?: { message: string } };
    if (!result.ok) throw new Error(`a piece was refused: ${result.error?.message ?? ''}`);
  }
  return end;
}

/** The resident memory of Chromium's page processes, by pid. */
/**
 * Plays the page in Debian's Chromium, as browser mode's user does: a file picked in a file input, fed to the spool by
 * the browser itself; answers the upload's end and the page process's peak RSS above idle.
 */
async function feedSpool(ready: HostReady, file: string, buildingId: string): Promise<{ state: string; peakAboveIdle: number }> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage();
    await page.goto(ready.url);
    // tsx keeps function names with a `__name` helper the page lacks; the page's functions come from this file.
    await page.evaluate('globalThis.__name = (target) => target');
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { type: 'file' })));
    await page.locator('input[type=file]').setInputFiles(file);
    const idle = await rendererProcessesRss(browser);
    let peak = idle;
    const sampler = setInterval(() => {
      void rendererProcessesRss(browser).then((rss) => (peak = Math.max(peak, rss)), () => undefined);
    }, 100);
    try {
      const feed: PageFeed = { token: ready.token, connectionId: ready.connectionId, buildingId, fileName: FILE_NAME, pieceBytes: SPOOL_PIECE_BYTES };
      const state = await page.evaluate(feedInPage, feed);
      return { state, peakAboveIdle: Math.max(peak, await rendererProcessesRss(browser)) - idle };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await browser.close();
  }
}

/** Runs a host process for one way of uploading; for a spool, this process plays the page. */
function runHost(way: Way, server: ServerProcess, key: string, file: string, buildingId: string): Promise<HostRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SCRIPT, '--host', way, server.url, key, file, buildingId], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let result: HostRun | undefined;
    let pageFailure: unknown;
    // The page's own end: it hears `done` after the host did, and then still reads its memory.
    let pageEnded: Promise<number | undefined> = Promise.resolve(undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (;;) {
        const end = output.indexOf('\n');
        if (end < 0) break;
        const line = output.slice(0, end);
        output = output.slice(end + 1);
        if (line.startsWith(READY)) {
          const ready = JSON.parse(line.slice(READY.length)) as HostReady;
          pageEnded = feedSpool(ready, file, buildingId).then(
            ({ peakAboveIdle }) => peakAboveIdle,
            (error: unknown) => {
              pageFailure = error;
              child.kill();
              return undefined;
            },
          );
        } else if (line.startsWith(RESULT)) {
          result = JSON.parse(line.slice(RESULT.length)) as HostRun;
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      void pageEnded.then((pagePeak) => {
        if (pageFailure !== undefined) reject(pageFailure instanceof Error ? pageFailure : new Error(String(pageFailure)));
        else if (result === undefined) reject(new Error(`the ${way} host exited with ${code} without a result`));
        else resolve(pagePeak === undefined ? result : { ...result, pagePeakAboveIdle: pagePeak });
      });
    });
  });
}

// --- curl and the report ---------------------------------------------------------------------------------------------------

/** Uploads the file with curl into another information file of the building; answers the process's wall time. */
async function uploadWithCurl(server: ServerProcess, key: string, file: string, buildingId: string): Promise<{ seconds: number; how: string }> {
  const remote = await apiCall<{ id: string }>(server, key, 'POST', `/buildings/${buildingId}/files`, { type: 1 });
  const url = `${server.url}${api}/buildings/${buildingId}/files/${remote.id}/upload/${FILE_NAME}`;
  writeBackDirtyPages();
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
  if (code !== 0 || status !== '202') throw new Error(`curl exited with ${code} and HTTP ${status}: the upload was not accepted.`);
  return { seconds, how };
}

function megabytesPerSecond(seconds: number): number {
  return (sizeMiB * MIB) / 1e6 / seconds;
}

function report(label: string, run: HostRun, curlRate: number | undefined): void {
  const rate = megabytesPerSecond(run.seconds);
  console.log(
    `${label.padEnd(44)}${run.seconds.toFixed(2).padStart(7)} s   ${rate.toFixed(0).padStart(5)} MB/s   (${run.outcome}; ${run.sendingSeconds.toFixed(2)} s of it sending; host CPU ${run.cpuSeconds.toFixed(1)} s)`,
  );
  if (curlRate !== undefined) console.log(`  rate / curl: ${(rate / curlRate).toFixed(2)} (goal: ≥ 0.67, within 1.5× of curl)`);
  console.log(`  host peak RSS above idle: ${(run.peakAboveIdle / MIB).toFixed(1)} MiB (idle ${(run.idle / MIB).toFixed(1)} MiB; goal < 100 MiB)`);
  if (run.pagePeakAboveIdle !== undefined) console.log(`  page peak RSS above idle: ${(run.pagePeakAboveIdle / MIB).toFixed(1)} MiB (goal < 100 MiB)`);
}

async function main(): Promise<number> {
  if (!Number.isFinite(sizeMiB) || sizeMiB < 1 || sizeMiB > SERVER_LIMIT_MIB) {
    console.error(`BENCH_UPLOAD_MB must be 1..${SERVER_LIMIT_MIB} (the server accepts uploads up to 2 GiB), not '${process.env['BENCH_UPLOAD_MB']}'.`);
    return 1;
  }
  const curlFound = spawnSync('which', ['curl']).status === 0;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-app-upload-data-'));
  const folder = await mkdtemp(path.join(tmpdir(), 'cd-bench-app-upload-folder-'));
  const file = path.join(folder, FILE_NAME);
  const key = randomBytes(32).toString('base64url');
  let server: ServerProcess | undefined;
  try {
    const writing = performance.now();
    await writeContent(file);
    console.log(`file: ${sizeMiB} MiB of random content written in ${((performance.now() - writing) / 1000).toFixed(1)} s to ${file}`);
    writeBackDirtyPages();
    server = await startServerProcess(dataDir, key);
    const portfolio = await apiCall<{ id: string }>(server, key, 'POST', '/portfolios', { name: 'App upload benchmark' });
    const building = await apiCall<{ id: string }>(server, key, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'App upload benchmark' });
    console.log(`server: ${server.url}`);

    // Each way is measured right after a curl of its own: the disk's write-back of the uploads before weighs on both alike.
    const runs: { label: string; run: HostRun; curlRate: number | undefined }[] = [];
    for (const [way, label] of [
      ['chosen', 'app, chosen file (read from disk)'],
      ['spool', 'app, spool fed by Chromium (browser mode)'],
    ] as const) {
      let curlRate: number | undefined;
      if (curlFound) {
        const curl = await uploadWithCurl(server, key, file, building.id);
        curlRate = megabytesPerSecond(curl.seconds);
        console.log(`${curl.how.padEnd(44)}${curl.seconds.toFixed(2).padStart(7)} s   ${curlRate.toFixed(0).padStart(5)} MB/s   (HTTP 202, process wall time, just before the ${way} run)`);
      }
      runs.push({ label, run: await runHost(way, server, key, file, building.id), curlRate });
    }
    console.log('');
    if (!curlFound) console.log('curl: not found on this machine; no comparison');
    for (const { label, run, curlRate } of runs) report(label, run, curlRate);
    console.log('MB = 10^6 bytes; figures are informative and never fail the run');
    return runs.every(({ run }) => run.outcome === 'done') ? 0 : 1;
  } finally {
    if (server !== undefined) await stopServerProcess(server);
    await rm(folder, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

const hostIndex = process.argv.indexOf('--host');
if (hostIndex >= 0) {
  const [way, serverUrl, key, file, buildingId] = process.argv.slice(hostIndex + 1) as [Way, string, string, string, string];
  measureHost(way, serverUrl, key, file, buildingId).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
