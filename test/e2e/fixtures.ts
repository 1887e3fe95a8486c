/**
 * The specs' `test`: Playwright's, with `openApp`, which opens the app of a browser host in a page (the test's own
 * unless another is given) and waits until it is ready.
 */
import { test as base, type Page } from '@playwright/test';
import { expectAppReady } from './pages/shell';
import type { BrowserHost } from './processes';

export interface AppFixtures {
  openApp: (host: BrowserHost, onPage?: Page) => Promise<void>;
}

export const test = base.extend<AppFixtures>({
  openApp: async ({ page }, use) => {
    await use(async (host, onPage = page) => {
      await onPage.goto(host.url);
      await expectAppReady(onPage);
    });
  },
});

export { expect } from '@playwright/test';
