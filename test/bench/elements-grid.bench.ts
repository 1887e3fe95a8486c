/**
 * Elements grid benchmark: the app synced with a file of 100,000 elements (`synced-app.ts`), then in Chromium:
 * - first render: from the address of the file's page being set to the first rows showing their elements;
 * - scrolling: 240 animation frames scrolling down by about 60 rows a frame, then 60 jumps to random places; the
 *   time between frames (requestAnimationFrame timestamps) and the page's long tasks meanwhile; how many rows still
 *   showed a placeholder at the end of each frame, as a measure of how far reading lags behind;
 * - the page's memory: the renderer processes' RSS and the page's JavaScript heap in use (after a full collection),
 *   once synced with the grid not yet open, once the grid has counted the file, and after the scrolling.
 *
 * Goal: first render ≤ 500 ms, no frame over 50 ms while scrolling. `BENCH_GRID_ELEMENTS` changes the file's size
 * (the goal is set for 1,000,000, whose sync alone takes one to two minutes on a 2-core machine: the default keeps a
 * run short).
 * Never fails on time.
 */
import { availableParallelism } from 'node:os';
import type { Browser, Page } from '@playwright/test';
import { pageHeapUsed, rendererProcessesRss } from './page-memory';
import { withSyncedApp } from './synced-app';

const ELEMENT_COUNT = Number(process.env['BENCH_GRID_ELEMENTS'] ?? 100_000);
const GOAL = { firstRenderMs: 500, frameMs: 50 };

/** Opens the file's page and resolves with the milliseconds until a row shows its element. */
const FIRST_RENDER = (route: string): string => `
  new Promise((resolve) => {
    const started = performance.now();
    location.hash = ${JSON.stringify(route)};
    const check = () => {
      if (document.querySelector('[data-testid="element-open"]') !== null) resolve(performance.now() - started);
      else requestAnimationFrame(check);
    };
    check();
  })
`;

/** Scrolls the grid frame by frame; resolves with the frame intervals, the placeholders per frame and the long tasks meanwhile. */
const SCROLL = `
  (async () => {
    const grid = document.querySelector('[data-testid="elements-grid"]');
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const since = performance.now();
    const intervals = [];
    const placeholders = [];
    let last = await frame();
    const step = async (move) => {
      move();
      const now = await frame();
      intervals.push(now - last);
      last = now;
      placeholders.push(grid.querySelectorAll('[data-testid="element-row"][data-loading]').length);
    };
    for (let index = 0; index < 240; index += 1) await step(() => { grid.scrollTop += 60 * 32; });
    let seed = 7;
    const random = () => { seed = (seed * 48271) % 2147483647; return seed / 2147483647; };
    for (let index = 0; index < 60; index += 1) await step(() => { grid.scrollTop = Math.floor(random() * grid.scrollHeight); });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const longTasks = (window.benchLongTasks ?? []).filter((task) => task.start >= since).map((task) => task.duration);
    return { intervals, placeholders, longTasks };
  })()
`;

const MIB = 1024 * 1024;

/** The page's memory now, as one line's figures. */
async function memoryOf(browser: Browser, page: Page): Promise<string> {
  const [rss, heap] = [await rendererProcessesRss(browser), await pageHeapUsed(page)];
  return `renderer RSS ${(rss / MIB).toFixed(0)} MiB, JS heap ${(heap / MIB).toFixed(0)} MiB`;
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function main(): Promise<number> {
  console.log(`grid: ${ELEMENT_COUNT.toLocaleString('en')} elements, ${availableParallelism()} CPU(s)`);
  return withSyncedApp(ELEMENT_COUNT, async ({ browser, page, buildingId, fileId, appReadyMs, syncedMs }) => {
    const syncSeconds = (syncedMs - appReadyMs) / 1000;
    console.log(`setup: synced into IndexedDB in ${syncSeconds.toFixed(0)} s (${(ELEMENT_COUNT / syncSeconds).toFixed(0)} elements/s)`);
    const memorySynced = await memoryOf(browser, page);
    const firstRender = await page.evaluate<number>(FIRST_RENDER(`#/buildings/${buildingId}/files/${fileId}`));
    await page.getByTestId('element-view-count').filter({ hasText: `${ELEMENT_COUNT.toLocaleString('en')} of` }).waitFor({ timeout: 60_000 });
    const memoryOpen = await memoryOf(browser, page);
    const scroll = await page.evaluate<{ intervals: number[]; placeholders: number[]; longTasks: number[] }>(SCROLL);
    const memoryScrolled = await memoryOf(browser, page);
    const worst = Math.max(...scroll.intervals);
    const over = scroll.intervals.filter((interval) => interval > GOAL.frameMs).length;
    const lagging = scroll.placeholders.filter((count) => count > 0).length;
    console.log(`first render of the grid: ${firstRender.toFixed(0)} ms`);
    console.log(
      `scrolling, ${scroll.intervals.length} frames: median ${percentile(scroll.intervals, 0.5).toFixed(1)} ms, p95 ${percentile(scroll.intervals, 0.95).toFixed(1)} ms, ` +
        `worst ${worst.toFixed(1)} ms; ${over} frame(s) over ${GOAL.frameMs} ms; long tasks: ${scroll.longTasks.map((ms) => `${ms.toFixed(0)} ms`).join(', ') || 'none'}`,
    );
    console.log(`frames that still showed placeholder rows: ${lagging} of ${scroll.placeholders.length}`);
    console.log(`page memory: synced, grid not open: ${memorySynced}; grid open and counted: ${memoryOpen}; after scrolling: ${memoryScrolled}`);
    console.log(`goal: first render ≤ ${GOAL.firstRenderMs} ms, no frame over ${GOAL.frameMs} ms while scrolling (informative)`);
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
