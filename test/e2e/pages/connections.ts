/** The Connections screen: the list of connections with their test and activate buttons, and the form that adds one. */
import { expect, type Locator, type Page } from '@playwright/test';
import { navigateTo } from './shell';

/** The row of the connection with exactly this name (a row's buttons and address could hold the words too). */
export function connectionRow(page: Page, name: string): Locator {
  return page.getByTestId('connection-row').filter({ has: page.getByTestId('connection-row-name').getByText(name, { exact: true }) });
}

export function connectionRows(page: Page): Locator {
  return page.getByTestId('connection-row');
}

/** Opens the screen, fills the form and saves it; the form tests the connection before it keeps it. */
export async function fillConnection(page: Page, name: string, url: string, key: string): Promise<void> {
  await navigateTo(page, 'connections');
  await page.getByTestId('connection-name').fill(name);
  await page.getByTestId('connection-url').fill(url);
  await page.getByTestId('connection-key').fill(key);
  await saveConnection(page);
}

export async function saveConnection(page: Page): Promise<void> {
  await page.getByTestId('connection-save').click();
}

/** Adds a connection whose test passes: it is saved at once. */
export async function addConnection(page: Page, name: string, url: string, key: string): Promise<void> {
  await fillConnection(page, name, url, key);
  await expect(connectionRow(page, name)).toBeVisible();
}

/** Tests the connection of a row and answers where its result shows. */
export async function testConnection(row: Locator): Promise<Locator> {
  await row.getByTestId('connection-test').click();
  return connectionTestResult(row);
}

export function connectionTestResult(row: Locator): Locator {
  return row.getByTestId('connection-test-result');
}

/** The result of the test the form runs before it saves. */
export function formTestResult(page: Page): Locator {
  return page.getByTestId('connection-form-test').getByTestId('connection-test-result');
}

export async function activateConnection(row: Locator): Promise<void> {
  await row.getByTestId('connection-activate').click();
}
