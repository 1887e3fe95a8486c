/**
 * Screenshots of the main screens in both themes, written to docs/screenshots/ for the README on every e2e run, so
 * they always show the app as it is.
 */
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import { startBrowserHost, type BrowserHost } from './processes';

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const THEMES = ['light', 'dark'] as const;
const SCREENS = [
  { name: 'portfolios', nav: 'nav-portfolios', ready: 'portfolio-card' },
  { name: 'connections', nav: 'nav-connections', ready: 'connection-row' },
] as const;

const test = base.extend<{ host: BrowserHost }>({
  host: async ({}, use) => {
    const host = await startBrowserHost();
    await use(host);
    await host.stop();
  },
});

test.use({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });

for (const theme of THEMES) {
  test(`screenshots of the main screens in the ${theme} theme`, async ({ page, host }) => {
    await page.addInitScript(`window.localStorage.setItem('circularity-desk:theme', ${JSON.stringify(theme)})`);
    await page.goto(host.url);
    await expect(page.locator('#app')).toHaveAttribute('data-app-ready', 'true');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    for (const screen of SCREENS) {
      await page.getByTestId(screen.nav).click();
      await expect(page.getByTestId(screen.ready).first()).toBeVisible();
      await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'synced');
      await page.screenshot({ path: `${SCREENSHOTS}${screen.name}-${theme}.png` });
    }
  });
}
