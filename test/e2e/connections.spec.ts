/**
 * The desktop shell in Chromium through browser mode: the Local workspace on first start, a second connection to a
 * separately started server, and the error a wrong key gets.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { startBrowserHost, startRemoteServer, type BrowserHost, type RemoteServer } from './processes';

const test = base.extend<{ host: BrowserHost; remote: RemoteServer }>({
  host: async ({}, use) => {
    const host = await startBrowserHost();
    await use(host);
    await host.stop();
  },
  remote: async ({}, use) => {
    const remote = await startRemoteServer();
    await use(remote);
    await remote.stop();
  },
});

async function openApp(page: Page, host: BrowserHost): Promise<void> {
  await page.goto(host.url);
  await expect(page.locator('#app')).toHaveAttribute('data-app-ready', 'true');
}

/** The row of the connection with exactly this name (a row's buttons and address could hold the words too). */
function connectionRow(page: Page, name: string): Locator {
  return page.getByTestId('connection-row').filter({ has: page.getByTestId('connection-row-name').getByText(name, { exact: true }) });
}

async function fillConnection(page: Page, name: string, url: string, key: string): Promise<void> {
  await page.getByTestId('nav-connections').click();
  await page.getByTestId('connection-name').fill(name);
  await page.getByTestId('connection-url').fill(url);
  await page.getByTestId('connection-key').fill(key);
  await page.getByTestId('connection-save').click();
}

/** Adds a connection whose test passes: it is saved at once. */
async function addConnection(page: Page, name: string, url: string, key: string): Promise<void> {
  await fillConnection(page, name, url, key);
  await expect(connectionRow(page, name)).toBeVisible();
}

test('the first start shows the Local workspace with the demo portfolio', async ({ page, host }) => {
  await openApp(page, host);
  await expect(page.getByTestId('portfolio-card').filter({ hasText: 'Demo portfolio' })).toBeVisible();
  await expect(page.getByTestId('building-row').first()).toBeVisible();

  await page.getByTestId('nav-connections').click();
  const local = connectionRow(page, 'Local workspace');
  await expect(local).toBeVisible();
  await local.getByTestId('connection-test').click();
  await expect(local.getByTestId('connection-test-result')).toContainText('Local');
});

test('a second connection to a separately started server works with its key', async ({ page, host, remote }) => {
  const created = await fetch(`${remote.url}/api/v2.3/portfolios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': remote.key },
    body: JSON.stringify({ name: 'Team server portfolio' }),
  });
  expect(created.status).toBe(201);

  await openApp(page, host);
  await addConnection(page, 'Team server', remote.url, remote.key);
  const row = connectionRow(page, 'Team server');
  await row.getByTestId('connection-test').click();
  await expect(row.getByTestId('connection-test-result')).toHaveAttribute('data-kind', 'ok');
  await expect(row.getByTestId('connection-test-result')).toContainText('Local workspace');

  await row.getByTestId('connection-activate').click();
  await page.getByTestId('nav-portfolios').click();
  await expect(page.getByTestId('portfolio-card').filter({ hasText: 'Team server portfolio' })).toBeVisible();
});

test('a wrong key gets a clear error, before the connection is saved and after', async ({ page, host, remote }) => {
  await openApp(page, host);
  await fillConnection(page, 'Wrong key', remote.url, 'not-the-right-key');
  const before = page.getByTestId('connection-form-test').getByTestId('connection-test-result');
  await expect(before).toHaveAttribute('data-kind', 'rejected-key');
  await expect(connectionRow(page, 'Wrong key')).toHaveCount(0);
  await page.getByTestId('connection-save').click();
  const row = connectionRow(page, 'Wrong key');
  await expect(row).toBeVisible();
  await row.getByTestId('connection-test').click();
  const result = row.getByTestId('connection-test-result');
  await expect(result).toHaveAttribute('data-kind', 'rejected-key');
  await expect(result).toContainText(/key/i);
});
