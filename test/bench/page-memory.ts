/**
 * The memory of a page in Chromium, as the benchmarks report it: the resident size of the browser's renderer processes
 * (read from /proc, so Linux only; 0 elsewhere) and the page's JavaScript heap in use.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';

/** The summed RSS of the browser's renderer processes, in bytes. */
export async function rendererProcessesRss(browser: Browser): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    let total = 0;
    for (const { id } of processInfo.filter((each) => each.type === 'renderer')) {
      const status = await readFile(`/proc/${id}/status`, 'utf8').catch(() => '');
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    }
    return total;
  } finally {
    await session.detach();
  }
}

/** The page's JavaScript heap in use, in bytes, after a full collection (so garbage not yet collected does not count). */
export async function pageHeapUsed(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await session.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize;
  } finally {
    await session.detach();
  }
}
