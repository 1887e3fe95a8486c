/**
 * Screenshots of the main screens in both themes, written to docs/screenshots/ for the README on every e2e run, so
 * they always show the app as it is: the app provisioned for a separately started server holding a building with a
 * mapped IFC model (a public fixture), so the dashboard and the elements grid show real figures.
 */
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { startBuildingWithFigures, type BuildingWithFigures } from './building-with-figures';

const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const THEMES = ['light', 'dark'] as const;

const test = base.extend<{ setup: BuildingWithFigures }>({
  setup: async ({}, use) => {
    const setup = await startBuildingWithFigures();
    await use(setup);
    await setup.stop();
  },
});

test.use({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });

async function shoot(page: Page, name: string, theme: string): Promise<void> {
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'synced', { timeout: 60_000 });
  await page.screenshot({ path: `${SCREENSHOTS}${name}-${theme}.png` });
}

for (const theme of THEMES) {
  test(`screenshots of the main screens in the ${theme} theme`, async ({ page, setup }) => {
    test.setTimeout(240_000);
    await page.addInitScript(`window.localStorage.setItem('circularity-desk:theme', ${JSON.stringify(theme)})`);
    await page.goto(setup.host.url);
    await expect(page.locator('#app')).toHaveAttribute('data-app-ready', 'true');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

    await expect(page.getByTestId('portfolio-card').first()).toBeVisible();
    await shoot(page, 'portfolios', theme);

    await page.getByTestId('portfolio-link').filter({ hasText: 'Campus Noord' }).click();
    await expect(page.getByTestId('portfolio-page')).toBeVisible();
    await expect(page.getByTestId('building-link').first()).toBeVisible();
    await shoot(page, 'portfolio', theme);

    await page.getByTestId('building-link').filter({ hasText: 'Office on the square' }).click();
    await expect(page.getByTestId('ci-gauge')).toBeVisible({ timeout: 60_000 });
    await shoot(page, 'building', theme);

    await page.locator(`[data-testid="file-row"][data-file-id="${setup.fileId}"]`).click();
    await expect(page.getByTestId('element-open').first()).toBeVisible({ timeout: 60_000 });
    await shoot(page, 'elements', theme);

    for (const screen of [
      { name: 'catalogues', nav: 'nav-catalogues', ready: 'catalogue-row' },
      { name: 'drop-folders', nav: 'nav-dropfolders', ready: 'dropfolder-add' },
      { name: 'passports', nav: 'nav-passports', ready: 'passport-target-add' },
      { name: 'activity', nav: 'nav-activity', ready: 'sync-now' },
      { name: 'connections', nav: 'nav-connections', ready: 'connection-row' },
    ] as const) {
      await page.getByTestId(screen.nav).click();
      await expect(page.getByTestId(screen.ready).first()).toBeVisible({ timeout: 30_000 });
      await shoot(page, screen.name, theme);
    }
  });
}
