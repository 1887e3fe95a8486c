/**
 * Elements grid benchmark: the app synced with a file of 100,000 elements (`synced-app.ts`), then in Chromium:
 * - first render: from the address of the file's page being set to the first rows showing their elements;
 * - scrolling: 240 animation frames scrolling down by about 60 rows a frame, then 60 jumps to random places; the
 *   time between frames (requestAnimationFrame timestamps) and the page's long tasks meanwhile; how many rows still
 *   showed a placeholder at the end of each frame, as a measure of how far reading lags behind;
 * - the page's memory: the renderer processes' RSS and the page's JavaScript heap in use (after a full collection),
 *   once synced with the grid not yet open, once the grid has counted the file, and after the scrolling;
 * - a sort by volume, then "unmapped only" (which keeps every element: a filter's scan, and with split elements every
 *   one of them open): from the click until the view shows, and the page's long tasks meanwhile;
 * - with split elements, opening one: from the click on its toggle until its parts show.
 * The long tasks of those three are also read from a Chromium trace with the main thread's own time per task, which a
 * shared machine does not stretch: a task's wall time includes the time the thread waited for a core.
 * `BENCH_GRID_TRACE_DIR` keeps those traces there (`sort.json`, `open.json`, `filter.json`), with the JavaScript
 * profiler's samples and the collector's events, to see what a long task did (chrome://tracing or DevTools open them).
 *
 * Goal: first render ≤ 500 ms, no frame over 50 ms while scrolling. `BENCH_GRID_ELEMENTS` changes the file's size
 * (the goal is set for 1,000,000, whose sync alone takes one to two minutes on a 2-core machine: the default keeps a
 * run short); `BENCH_GRID_SPLIT=1` makes a third of the elements parts of split elements (three layers each, ids
 * `<GlobalId>-L<n>`: seed-elements.ts), so that the grid's grouping is measured too.
 * Never fails on time.
 */
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { pageHeapUsed, rendererProcessesRss } from './page-memory';
import { withSyncedApp } from './synced-app';

const ELEMENT_COUNT = Number(process.env['BENCH_GRID_ELEMENTS'] ?? 100_000);
const SPLIT = process.env['BENCH_GRID_SPLIT'] === '1';
const TRACE_DIR = process.env['BENCH_GRID_TRACE_DIR'];
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
      placeholders.push(grid.querySelectorAll('[data-testid="element-row"][data-loading], [data-testid="element-parent-row"][data-loading]').length);
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

/**
 * Clicks what changes the view (a column's header, "unmapped only"); resolves with the milliseconds until the new view
 * shows (the view count is busy from the click until then), the long tasks meanwhile and the grid's rows.
 */
const VIEW_CHANGE = (testId: string): string => `
  (async () => {
    const count = document.querySelector('[data-testid="element-view-count"]');
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const since = performance.now();
    document.querySelector('[data-testid="${testId}"]').click();
    while (count.getAttribute('aria-busy') !== 'true') {
      if (performance.now() - since > 5000) throw new Error('The view was not rebuilt.');
      await frame();
    }
    while (count.getAttribute('aria-busy') === 'true') {
      if (performance.now() - since > 600000) throw new Error('The view took over 10 minutes.');
      await frame();
    }
    const ms = performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const longTasks = (window.benchLongTasks ?? []).filter((task) => task.start >= since).map((task) => task.duration);
    const rows = Number(document.querySelector('[data-testid="elements-grid"]').getAttribute('aria-rowcount')) - 1;
    return { ms, longTasks, rows };
  })()
`;

/**
 * Opens the first split element in view; resolves with the milliseconds until its parts show and the long tasks
 * meanwhile, or null when none shows within 10 s (a build of the app without parent rows, measured for comparison).
 */
const OPEN_PARENT = `
  (async () => {
    const grid = document.querySelector('[data-testid="elements-grid"]');
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    grid.scrollTop = 0;
    const started = performance.now();
    let parent = null;
    while ((parent = grid.querySelector('[data-testid="element-parent-row"]:not([data-loading])')) === null) {
      if (performance.now() - started > 10000) return null;
      await frame();
    }
    const id = parent.getAttribute('data-parent-id');
    const since = performance.now();
    parent.querySelector('[data-testid="element-parent-toggle"]').click();
    while (grid.querySelector('[data-part-of="' + id + '"]:not([data-loading])') === null) {
      if (performance.now() - since > 10000) throw new Error('The parts did not show.');
      await frame();
    }
    const ms = performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const longTasks = (window.benchLongTasks ?? []).filter((task) => task.start >= since).map((task) => task.duration);
    return { ms, longTasks };
  })()
`;

/** Long tasks in words. */
function tasksText(longTasks: readonly number[]): string {
  return longTasks.map((ms) => `${ms.toFixed(0)} ms`).join(', ') || 'none';
}

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * What `run` answered, with the renderers' main-thread tasks over the goal meanwhile, by thread time (a Chromium
 * trace, kept as `<name>.json` in `TRACE_DIR` when set).
 */
async function traced<T>(browser: Browser, page: Page, name: string, run: () => Promise<T>): Promise<{ result: T; cpuLongTasks: number[]; cpuLongest: number }> {
  const categories = ['disabled-by-default-devtools.timeline'];
  if (TRACE_DIR !== undefined) categories.push('devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-v8.gc', 'disabled-by-default-v8.cpu_profiler');
  await browser.startTracing(page, { categories });
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await browser.stopTracing();
    throw error;
  }
  const buffer = await browser.stopTracing();
  if (TRACE_DIR !== undefined) await writeFile(path.join(TRACE_DIR, `${name}.json`), buffer);
  const trace = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  const mains = new Set(
    trace.traceEvents.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`),
  );
  const cpu = trace.traceEvents
    .filter((event) => event.ph === 'X' && event.name === 'RunTask' && mains.has(`${event.pid}:${event.tid}`))
    .map((event) => (event.tdur ?? 0) / 1000);
  return { result, cpuLongTasks: cpu.filter((ms) => ms > GOAL.frameMs), cpuLongest: Math.max(0, ...cpu) };
}

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
  console.log(`grid: ${ELEMENT_COUNT.toLocaleString('en')} elements${SPLIT ? ', a third of them layers of split elements' : ''}, ${availableParallelism()} CPU(s)`);
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
        `worst ${worst.toFixed(1)} ms; ${over} frame(s) over ${GOAL.frameMs} ms; long tasks: ${tasksText(scroll.longTasks)}`,
    );
    console.log(`frames that still showed placeholder rows: ${lagging} of ${scroll.placeholders.length}`);
    console.log(`page memory: synced, grid not open: ${memorySynced}; grid open and counted: ${memoryOpen}; after scrolling: ${memoryScrolled}`);
    const sorted = await traced(browser, page, 'sort', () => page.evaluate<{ ms: number; longTasks: number[]; rows: number }>(VIEW_CHANGE('grid-header-volume')));
    console.log(
      `sort by volume: ${sorted.result.ms.toFixed(0)} ms to show, ${sorted.result.rows.toLocaleString('en')} rows; long tasks: ${tasksText(sorted.result.longTasks)}; ` +
        `by thread time: ${tasksText(sorted.cpuLongTasks)} (longest ${sorted.cpuLongest.toFixed(0)} ms)`,
    );
    if (SPLIT) {
      const opened = await traced(browser, page, 'open', () => page.evaluate<{ ms: number; longTasks: number[] } | null>(OPEN_PARENT));
      console.log(
        opened.result === null
          ? 'opening a split element: none in view'
          : `opening a split element: ${opened.result.ms.toFixed(0)} ms until its parts show; long tasks: ${tasksText(opened.result.longTasks)}; ` +
              `by thread time: ${tasksText(opened.cpuLongTasks)} (longest ${opened.cpuLongest.toFixed(0)} ms)`,
      );
    }
    const filtered = await traced(browser, page, 'filter', () => page.evaluate<{ ms: number; longTasks: number[]; rows: number }>(VIEW_CHANGE('element-unmapped-only')));
    console.log(
      `unmapped only, sorted: ${filtered.result.ms.toFixed(0)} ms to show, ${filtered.result.rows.toLocaleString('en')} rows; long tasks: ${tasksText(filtered.result.longTasks)}; ` +
        `by thread time: ${tasksText(filtered.cpuLongTasks)} (longest ${filtered.cpuLongest.toFixed(0)} ms)`,
    );
    console.log(`page memory with that view: ${await memoryOf(browser, page)}`);
    console.log(`goal: first render ≤ ${GOAL.firstRenderMs} ms, no frame over ${GOAL.frameMs} ms while scrolling (informative)`);
    return 0;
  }, { split: SPLIT });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
