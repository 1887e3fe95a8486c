/**
 * Initial sync benchmark: a remote server (its own process, fresh data folder) with one Mapped source file of
 * 100,000 elements; the app in browser mode provisioned for it (`--connect … --key-file …`); Chromium opens the app
 * and syncs everything into IndexedDB. Measured: the time from the app being ready to every element being in the
 * connection's `elements` store, as elements/s, and the page's main-thread tasks over 50 ms (Long Tasks API), split
 * into the app's start and the sync. For scale, the same number of records is then written with bare IndexedDB in the
 * same browser: the ceiling any client that keeps one record per element has on this machine.
 *
 * The user-data folder has been through a first start before (the Local workspace creates its sample data then,
 * once), so the run measures the sync, not a first start's one-off work beside it.
 *
 * Goal: ≥ 20k elements/s, no main-thread task over 100 ms. `BENCH_SYNC_ELEMENTS` changes the file's size. Never fails
 * on time; exits non-zero when the sync does not bring every element.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { BuildingFileStatuses } from '../../shared/api/enums';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium-path';
import { openDatabase } from '../../server/store/store';
import { startBrowserHost } from '../e2e/processes';
import { seedElementFile } from './seed-elements';
import { startServerProcess, stopServerProcess } from './server-process';

const ELEMENT_COUNT = Number(process.env['BENCH_SYNC_ELEMENTS'] ?? 100_000);
const GOAL = { elementsPerSecond: 20_000, longestTaskMs: 100 };
/** How long the sync may take before the run counts as failed: far beyond any plausible machine. */
const SYNC_DEADLINE_MS = 10 * 60_000;

/**
 * The page's side, as source text: tsx compiles this file with helpers (`__name`) that do not exist in the page, and
 * the root type-check has no DOM types.
 */
const COLLECT_LONG_TASKS = `
  window.benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

/** Resolves with `performance.now()` once the connection's `elements` store holds `expected` records (polled every 200 ms). */
const WAIT_FOR_ELEMENTS = (expected: number, deadlineMs: number): string => `
  (async () => {
    const started = performance.now();
    const count = async () => {
      const names = (await indexedDB.databases()).map((info) => info.name ?? '');
      const name = names.find((candidate) => candidate.startsWith('circularity-desk:') && candidate !== 'circularity-desk:local');
      if (name === undefined) return 0;
      return new Promise((resolve, reject) => {
        const opening = indexedDB.open(name);
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains('elements')) { db.close(); resolve(0); return; }
          const counting = db.transaction('elements').objectStore('elements').count();
          counting.onsuccess = () => { db.close(); resolve(counting.result); };
          counting.onerror = () => reject(counting.error);
        };
      });
    };
    while (performance.now() - started < ${deadlineMs}) {
      if ((await count()) >= ${expected}) return performance.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('Fewer than ${expected} elements arrived within ${deadlineMs} ms.');
  })()
`;

/**
 * The ceiling: the same number of records, shaped like the synced ones (copies of the first, with their own ids),
 * written with bare IndexedDB in pages of 1,000 into a database of their own, in the same page. Resolves with records/s.
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
      const reading = synced.transaction('elements').objectStore('elements').openCursor();
      reading.onsuccess = () => resolve(reading.result.value);
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

/** What one run gave. */
interface Measurement {
  appReadyMs: number;
  syncedMs: number;
  elements: number;
  longTasks: { start: number; duration: number }[];
  /** Records/s of bare IndexedDB writes of the same records in the same browser. */
  bareWritesPerSecond: number;
}

async function measure(hostUrl: string): Promise<Measurement> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage();
    await page.addInitScript({ content: COLLECT_LONG_TASKS });
    await page.goto(hostUrl);
    await page.locator('#app[data-app-ready="true"]').waitFor({ timeout: 60_000 });
    const appReadyMs = await page.evaluate<number>('performance.now()');
    // Counted in the page's own IndexedDB: one count request is a few microseconds of main thread.
    const syncedMs = await page.evaluate<number>(WAIT_FOR_ELEMENTS(ELEMENT_COUNT, SYNC_DEADLINE_MS));
    const longTasks = await page.evaluate<Measurement['longTasks']>('window.benchLongTasks');
    const bareWritesPerSecond = await page.evaluate<number>(BARE_INDEXEDDB_WRITES(ELEMENT_COUNT));
    return { appReadyMs, syncedMs, elements: ELEMENT_COUNT, longTasks, bareWritesPerSecond };
  } finally {
    await browser.close();
  }
}

/** Runs the app's first start in `userDataDir` and waits until the Local workspace has created its sample data. */
async function settleFirstStart(userDataDir: string): Promise<void> {
  const host = await startBrowserHost([], userDataDir);
  try {
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      const workspace = await openDatabase(path.join(userDataDir, 'local-workspace'));
      try {
        if ((await workspace.db.selectFrom('portfolios').select('id').limit(1).execute()).length > 0) return;
      } finally {
        await workspace.close();
      }
      if (Date.now() > deadline) throw new Error('The Local workspace did not create its sample data within 5 minutes.');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await host.stop();
  }
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-sync-'));
  const key = randomBytes(32).toString('base64url');
  const server = await startServerProcess(dataDir, key);
  try {
    await seedElementFile(server, dataDir, key, { count: ELEMENT_COUNT, status: BuildingFileStatuses.Mapped });
    const keyFile = path.join(dataDir, 'bench.key');
    await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
    const userDataDir = path.join(dataDir, 'user-data');
    await settleFirstStart(userDataDir);
    const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile], userDataDir);
    try {
      console.log(`sync: ${ELEMENT_COUNT.toLocaleString('en')} elements, ${availableParallelism()} CPU(s), server ${server.url}`);
      const result = await measure(host.url);
      const seconds = (result.syncedMs - result.appReadyMs) / 1000;
      const duringSync = result.longTasks.filter((task) => task.start >= result.appReadyMs);
      const atStart = result.longTasks.filter((task) => task.start < result.appReadyMs);
      const longest = duringSync.reduce((max, task) => Math.max(max, task.duration), 0);
      const over100 = duringSync.filter((task) => task.duration > GOAL.longestTaskMs).length;
      console.log(`app ready after ${(result.appReadyMs / 1000).toFixed(2)} s; all elements in IndexedDB ${seconds.toFixed(2)} s later`);
      const perSecond = result.elements / seconds;
      console.log(`initial sync: ${Math.round(perSecond).toLocaleString('en')} elements/s`);
      console.log(
        `bare IndexedDB writes of the same records in the same browser: ${Math.round(result.bareWritesPerSecond).toLocaleString('en')} records/s ` +
          `(the sync reaches ${((perSecond / result.bareWritesPerSecond) * 100).toFixed(0)}% of it)`,
      );
      console.log(
        `main thread during the sync: longest task ${longest.toFixed(0)} ms; ${duringSync.length} task(s) over 50 ms, ${over100} over ${GOAL.longestTaskMs} ms`,
      );
      console.log(`main thread at the app's start: ${atStart.map((task) => `${task.duration.toFixed(0)} ms`).join(', ') || 'no task over 50 ms'}`);
      console.log(`goal: ≥ ${GOAL.elementsPerSecond.toLocaleString('en')} elements/s, no main-thread task over ${GOAL.longestTaskMs} ms (informative)`);
      if (process.env['BENCH_VERBOSE'] !== undefined) console.log(result.longTasks);
      return 0;
    } finally {
      await host.stop();
    }
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
