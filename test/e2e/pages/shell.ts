/**
 * The frame around every screen: the readiness the page announces on #app, the navigation, the active connection, the
 * sync indicator and "Sync now", and the notice a refused second tab shows.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The screens the navigation leads to, by the suffix of their `nav-…` test id. */
export type Screen = 'portfolios' | 'catalogues' | 'dropfolders' | 'passports' | 'activity' | 'connections';

/** Waits until the app says it is ready (`#app[data-app-ready="true"]`): its first load, or one after a reload. */
export async function expectAppReady(page: Page): Promise<void> {
  await expect(page.locator('#app')).toHaveAttribute('data-app-ready', 'true');
}

/** Reloads the page and waits until the app is ready again. */
export async function reloadApp(page: Page): Promise<void> {
  await page.reload();
  await expectAppReady(page);
}

export async function navigateTo(page: Page, screen: Screen): Promise<void> {
  await page.getByTestId(`nav-${screen}`).click();
}

export function activeConnection(page: Page): Locator {
  return page.getByTestId('active-connection');
}

export function syncIndicator(page: Page): Locator {
  return page.getByTestId('sync-indicator');
}

export function syncNowButton(page: Page): Locator {
  return page.getByTestId('sync-now');
}

export async function syncNow(page: Page): Promise<void> {
  await syncNowButton(page).click();
}

/** Waits until the sync indicator says everything is synced, so a screen shows what the server holds. */
export async function expectSynced(page: Page): Promise<void> {
  await expect(syncIndicator(page)).toHaveAttribute('data-state', 'synced', { timeout: 60_000 });
}

/** What a second tab shows while another one drives the browser host. */
export function linkRefused(page: Page): Locator {
  return page.getByTestId('link-refused');
}

/** The content area beside the navigation. */
export function screenContent(page: Page): Locator {
  return page.locator('.shell__content');
}
