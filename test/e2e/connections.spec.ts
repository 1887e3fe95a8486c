/**
 * The desktop shell in Chromium through browser mode: the Local workspace on first start, a second connection to a
 * separately started server, and the error a wrong key gets.
 */
import { expect, test as base } from './fixtures';
import {
  activateConnection,
  addConnection,
  connectionRow,
  fillConnection,
  formTestResult,
  saveConnection,
  testConnection,
} from './pages/connections';
import { buildingRows, portfolioCard } from './pages/portfolios';
import { navigateTo } from './pages/shell';
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

test('the first start shows the Local workspace with the demo portfolio', async ({ page, host, openApp }) => {
  await openApp(host);
  await expect(portfolioCard(page, 'Demo portfolio')).toBeVisible();
  await expect(buildingRows(page).first()).toBeVisible();

  await navigateTo(page, 'connections');
  const local = connectionRow(page, 'Local workspace');
  await expect(local).toBeVisible();
  await expect(await testConnection(local)).toContainText('Local');
});

test('a second connection to a separately started server works with its key', async ({ page, host, remote, openApp }) => {
  const created = await fetch(`${remote.url}/api/v2.3/portfolios`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': remote.key },
    body: JSON.stringify({ name: 'Team server portfolio' }),
  });
  expect(created.status).toBe(201);

  await openApp(host);
  await addConnection(page, 'Team server', remote.url, remote.key);
  const row = connectionRow(page, 'Team server');
  const result = await testConnection(row);
  await expect(result).toHaveAttribute('data-kind', 'ok');
  // The server started alone names its account after its computer, and the line names the server that answered.
  await expect(result).toContainText(`Connected to ${new URL(remote.url).host} as Circularity Desk on `);
  await expect(result).not.toContainText('Local workspace');

  await activateConnection(row);
  await navigateTo(page, 'portfolios');
  await expect(portfolioCard(page, 'Team server portfolio')).toBeVisible();
});

test('a wrong key gets a clear error, before the connection is saved and after', async ({ page, host, remote, openApp }) => {
  await openApp(host);
  await fillConnection(page, 'Wrong key', remote.url, 'not-the-right-key');
  await expect(formTestResult(page)).toHaveAttribute('data-kind', 'rejected-key');
  await expect(connectionRow(page, 'Wrong key')).toHaveCount(0);
  await saveConnection(page);
  const row = connectionRow(page, 'Wrong key');
  await expect(row).toBeVisible();
  const result = await testConnection(row);
  await expect(result).toHaveAttribute('data-kind', 'rejected-key');
  await expect(result).toContainText(/key/i);
});
