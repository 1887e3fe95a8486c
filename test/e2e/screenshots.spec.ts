/**
 * Screenshots of the main screens in both themes, written to docs/screenshots/ for the README on every e2e run, so
 * they always show the app as it is: the app provisioned for a separately started server holding a building with a
 * mapped IFC model (a public fixture), so the dashboard and the elements grid show real figures.
 */
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { startBuildingWithFigures, type BuildingWithFigures } from './building-with-figures';
import { expect, test as base } from './fixtures';
import { openFile } from './pages/building';
import { catalogueRows } from './pages/catalogues';
import { connectionRows } from './pages/connections';
import { expectDashboard } from './pages/dashboard';
import { addDropFolderButton } from './pages/drop-folders';
import { expectElementsListed } from './pages/elements-grid';
import { addTargetButton } from './pages/passports';
import { buildingLink, openBuilding, openPortfolio, portfolioCard, portfolioPage } from './pages/portfolios';
import { expectSynced, navigateTo, syncNowButton, type Screen } from './pages/shell';

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
  await expectSynced(page);
  await page.screenshot({ path: `${SCREENSHOTS}${name}-${theme}.png` });
}

for (const theme of THEMES) {
  test(`screenshots of the main screens in the ${theme} theme`, async ({ page, setup, openApp }) => {
    test.setTimeout(240_000);
    await page.addInitScript(`window.localStorage.setItem('circularity-desk:theme', ${JSON.stringify(theme)})`);
    await openApp(setup.host);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

    await expect(portfolioCard(page).first()).toBeVisible();
    await shoot(page, 'portfolios', theme);

    await openPortfolio(page, 'Campus Noord');
    await expect(portfolioPage(page)).toBeVisible();
    await expect(buildingLink(page).first()).toBeVisible();
    await shoot(page, 'portfolio', theme);

    await openBuilding(page, 'Office on the square');
    await expectDashboard(page);
    await shoot(page, 'building', theme);

    await openFile(page, setup.fileId);
    await expectElementsListed(page);
    await shoot(page, 'elements', theme);

    const screens: { name: string; screen: Screen; ready: (page: Page) => Locator }[] = [
      { name: 'catalogues', screen: 'catalogues', ready: catalogueRows },
      { name: 'drop-folders', screen: 'dropfolders', ready: addDropFolderButton },
      { name: 'passports', screen: 'passports', ready: addTargetButton },
      { name: 'activity', screen: 'activity', ready: syncNowButton },
      { name: 'connections', screen: 'connections', ready: connectionRows },
    ];
    for (const screen of screens) {
      await navigateTo(page, screen.screen);
      await expect(screen.ready(page).first()).toBeVisible({ timeout: 30_000 });
      await shoot(page, screen.name, theme);
    }
  });
}
