/**
 * Initial sync benchmark: a remote server (its own process, fresh data folder) with one Mapped source file of
 * 100,000 elements; the app in browser mode provisioned for it (`--connect … --key-file …`); Chromium opens the app
 * and syncs everything into IndexedDB. Measured: the time from the app being ready to every element being in the
 * connection's `elements` store, as elements/s, and the page's main-thread tasks over 50 ms (Long Tasks API), split
 * into the app's start and the sync. For scale, the same number of records is then written with bare IndexedDB in the
 * same browser: the ceiling any client that keeps one record per element has on this machine.
 * The setup is `synced-app.ts`.
 *
 * First, on a server of its own with the same file, the rate at which the server alone serves the file in the pull's
 * requests (`$orderby=id&$top&$skip`), for each page size of `BENCH_SYNC_PAGE_SIZES` (default 1000,2000,5000), one
 * request at a time and with the pull's pages in flight (`PAGES_AHEAD` + 1): what chooses `DEFAULT_PAGE_SIZE`.
 *
 * Goal: ≥ 25k elements/s, no main-thread task over 50 ms. `BENCH_SYNC_ELEMENTS` changes the file's size. Never fails
 * on time; exits non-zero when the sync does not bring every element.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { BuildingFileStatuses } from '../../shared/api/enums';
import { PAGES_AHEAD } from '../../renderer/sync/element-pages';
import { DEFAULT_PAGE_SIZE } from '../../renderer/sync/pull';
import { seedElementFile } from './seed-elements';
import { startServerProcess, stopServerProcess } from './server-process';
import { withSyncedApp } from './synced-app';

const ELEMENT_COUNT = Number(process.env['BENCH_SYNC_ELEMENTS'] ?? 200_000);
const GOAL = { elementsPerSecond: 25_000, longestTaskMs: 50 };
const PAGE_SIZES = (process.env['BENCH_SYNC_PAGE_SIZES'] ?? '1000,2000,5000').split(',').map(Number);

/**
 * Elements/s at which the server hands out the whole file in pages of `pageSize`, `inFlight` requests at a time, the
 * way the pull asks (every page's skip is known ahead; the short page ends the file).
 */
async function servingRate(url: string, key: string, elementsPath: string, pageSize: number, inFlight: number): Promise<number> {
  const started = performance.now();
  let received = 0;
  let nextSkip = 0;
  let ended = false;
  const fetchPage = async (): Promise<void> => {
    while (!ended) {
      const skip = nextSkip;
      nextSkip += pageSize;
      const response = await fetch(`${url}${elementsPath}?$orderby=id&$top=${pageSize}&$skip=${skip}`, { headers: { 'x-api-key': key } });
      if (!response.ok) throw new Error(`A page answered ${response.status}.`);
      const page = (await response.json()) as unknown[];
      received += page.length;
      if (page.length < pageSize) ended = true;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, fetchPage));
  if (received !== ELEMENT_COUNT) throw new Error(`The pages held ${received} elements, not ${ELEMENT_COUNT}.`);
  return ELEMENT_COUNT / ((performance.now() - started) / 1000);
}

/** The server alone serving the file at each page size: one request at a time, and as many as the pull has in flight. */
async function measurePageSizes(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-pages-'));
  const key = randomBytes(32).toString('base64url');
  const server = await startServerProcess(dataDir, key);
  try {
    const { buildingId, fileId } = await seedElementFile(server, dataDir, key, { count: ELEMENT_COUNT, status: BuildingFileStatuses.Mapped });
    const elementsPath = `/api/v2.3/buildings/${buildingId}/files/${fileId}/elements`;
    // One pass first, so every size meets a warm server and page cache.
    await servingRate(server.url, key, elementsPath, DEFAULT_PAGE_SIZE, 1);
    for (const pageSize of PAGE_SIZES) {
      const alone = await servingRate(server.url, key, elementsPath, pageSize, 1);
      const overlapped = await servingRate(server.url, key, elementsPath, pageSize, PAGES_AHEAD + 1);
      const rate = (value: number): string => `${Math.round(value).toLocaleString('en')} elements/s`;
      console.log(`server alone, pages of ${pageSize.toLocaleString('en')}: ${rate(alone)} one at a time, ${rate(overlapped)} with ${PAGES_AHEAD + 1} in flight`);
    }
  } finally {
    await stopServerProcess(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The ceiling of one record per element (the cache's shape before blocks): the same number of records, shaped like
 * the synced elements (copies of the first, with their own ids), written with bare IndexedDB in pages of 1,000 into a
 * database of their own, in the same page. Resolves with records/s.
 */
const BARE_INDEXEDDB_WRITES = (count: number): string => `
  (async () => {
    const names = (await indexedDB.databases()).map((info) => info.name ?? '');
    const source = names.find((candidate) => candidate.startsWith('circularity-desk:') && candidate !== 'circularity-desk:local');
    const open = (name, upgrade) => new Promise((resolve, reject) => {
      const opening = indexedDB.open(name, upgrade ? 1 : undefined);
      if (upgrade) opening.onupgradeneeded = () => upgrade(opening.result);
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    const synced = await open(source);
    const sample = await new Promise((resolve, reject) => {
      const reading = synced.transaction('elementBlocks').objectStore('elementBlocks').openCursor();
      reading.onsuccess = () => resolve(reading.result.value.rows[0]);
      reading.onerror = () => reject(reading.error);
    });
    synced.close();
    const target = await open('bench-bare-' + Date.now(), (db) => db.createObjectStore('elements', { keyPath: ['buildingFileId', 'id'] }));
    const started = performance.now();
    for (let first = 0; first < ${count}; first += 1000) {
      await new Promise((resolve, reject) => {
        const transaction = target.transaction('elements', 'readwrite');
        const store = transaction.objectStore('elements');
        for (let index = first; index < Math.min(first + 1000, ${count}); index += 1) store.put({ ...sample, id: 'B-' + index });
        transaction.oncomplete = resolve;
        transaction.onerror = () => reject(transaction.error);
      });
    }
    const seconds = (performance.now() - started) / 1000;
    target.close();
    return ${count} / seconds;
  })()
`;

async function main(): Promise<number> {
  console.log(`sync: ${ELEMENT_COUNT.toLocaleString('en')} elements, ${availableParallelism()} CPU(s), pages of ${DEFAULT_PAGE_SIZE.toLocaleString('en')}`);
  await measurePageSizes();
  return withSyncedApp(ELEMENT_COUNT, async ({ page, appReadyMs, syncedMs }) => {
    const longTasks = await page.evaluate<{ start: number; duration: number }[]>('window.benchLongTasks');
    const bareWritesPerSecond = await page.evaluate<number>(BARE_INDEXEDDB_WRITES(ELEMENT_COUNT));
    const seconds = (syncedMs - appReadyMs) / 1000;
    const duringSync = longTasks.filter((task) => task.start >= appReadyMs);
    const atStart = longTasks.filter((task) => task.start < appReadyMs);
    const longest = duringSync.reduce((max, task) => Math.max(max, task.duration), 0);
    console.log(`app ready after ${(appReadyMs / 1000).toFixed(2)} s; all elements in IndexedDB ${seconds.toFixed(2)} s later`);
    const perSecond = ELEMENT_COUNT / seconds;
    console.log(`initial sync: ${Math.round(perSecond).toLocaleString('en')} elements/s`);
    console.log(
      `bare IndexedDB writes of the same records in the same browser: ${Math.round(bareWritesPerSecond).toLocaleString('en')} records/s ` +
        `(the sync reaches ${((perSecond / bareWritesPerSecond) * 100).toFixed(0)}% of it)`,
    );
    console.log(
      `main thread during the sync: longest task ${longest.toFixed(0)} ms; ${duringSync.length} task(s) over ${GOAL.longestTaskMs} ms`,
    );
    console.log(`main thread at the app's start: ${atStart.map((task) => `${task.duration.toFixed(0)} ms`).join(', ') || 'no task over 50 ms'}`);
    console.log(`goal: ≥ ${GOAL.elementsPerSecond.toLocaleString('en')} elements/s, no main-thread task over ${GOAL.longestTaskMs} ms (informative)`);
    return 0;
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
