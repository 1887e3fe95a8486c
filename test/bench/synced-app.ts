/**
 * What the browser benchmarks share: a server process with one Mapped source file of N elements, the app in browser
 * mode provisioned for it, and Chromium with the app open once every element is in its IndexedDB. The user-data folder
 * has been through a first start before (the Local workspace creates its sample data then, once), so a run measures
 * what it measures, not a first start's one-off work beside it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { BuildingFileStatuses } from '../../shared/api/enums';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium-path';
import { openDatabase } from '../../server/store/store';
import { startBrowserHost } from '../e2e/processes';
import { seedElementFile } from './seed-elements';
import { startServerProcess, stopServerProcess } from './server-process';

/**
 * How long the sync of `count` elements may take before the run counts as failed: far beyond any plausible machine
 * (500 elements a second, and at least 10 minutes).
 */
function syncDeadlineMs(count: number): number {
  return Math.max(10 * 60_000, (count / 500) * 1000);
}

/**
 * The page's side, as source text: tsx compiles this file with helpers (`__name`) that do not exist in the page, and
 * the root type-check has no DOM types.
 */
export const COLLECT_LONG_TASKS = `
  window.benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

/** Resolves with `performance.now()` once the connection's shown element blocks hold `expected` elements (polled every 200 ms). */
export const WAIT_FOR_ELEMENTS = (expected: number, deadlineMs: number): string => `
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
          if (!db.objectStoreNames.contains('elementSets')) { db.close(); resolve(0); return; }
          const reading = db.transaction('elementSets').objectStore('elementSets').getAll();
          reading.onsuccess = () => { db.close(); resolve(reading.result.reduce((sum, sets) => sum + (sets.shown?.count ?? 0), 0)); };
          reading.onerror = () => reject(reading.error);
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

/** The app open in Chromium, synced, and what it took. */
export interface SyncedApp {
  browser: Browser;
  page: Page;
  serverUrl: string;
  buildingId: string;
  fileId: string;
  /** `performance.now()` of the page when the app was ready, and when the last element was in IndexedDB. */
  appReadyMs: number;
  syncedMs: number;
}

/**
 * Runs `measure` with the app synced with a file of `count` elements (a third of them parts of split elements with
 * `split`: seed-elements.ts); long tasks of the page are collected from its first script on (`window.benchLongTasks`).
 * Everything started is stopped afterwards.
 */
export async function withSyncedApp<T>(count: number, measure: (app: SyncedApp) => Promise<T>, options: { split?: boolean } = {}): Promise<T> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cd-bench-app-'));
  const key = randomBytes(32).toString('base64url');
  const server = await startServerProcess(dataDir, key);
  try {
    const { buildingId, fileId } = await seedElementFile(server, dataDir, key, { count, status: BuildingFileStatuses.Mapped, ...options });
    const keyFile = path.join(dataDir, 'bench.key');
    await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
    const userDataDir = path.join(dataDir, 'user-data');
    await settleFirstStart(userDataDir);
    const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile], userDataDir);
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.addInitScript({ content: COLLECT_LONG_TASKS });
      await page.goto(host.url);
      await page.locator('#app[data-app-ready="true"]').waitFor({ timeout: 60_000 });
      const appReadyMs = await page.evaluate<number>('performance.now()');
      // Counted in the page's own IndexedDB: one count request is a few microseconds of main thread.
      const syncedMs = await page.evaluate<number>(WAIT_FOR_ELEMENTS(count, syncDeadlineMs(count)));
      return await measure({ browser, page, serverUrl: server.url, buildingId, fileId, appReadyMs, syncedMs });
    } finally {
      await browser.close();
      await host.stop();
    }
  } finally {
    await stopServerProcess(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}
