/**
 * Offline browsing: the app provisioned for a separately started server (`--connect … --key-file …`) syncs its
 * portfolios into the page's IndexedDB; with that server stopped, a reload still shows them, and the sync indicator
 * says the server cannot be reached.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { startBrowserHost, startRemoteServer } from './processes';

test('the portfolios of a remote server stay visible when it stops, after a reload', async ({ page }) => {
  const remote = await startRemoteServer();
  let remoteStopped = false;
  const host = await (async () => {
    const created = await fetch(`${remote.url}/api/v2.3/portfolios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': remote.key },
      body: JSON.stringify({ name: 'Portfolio kept offline' }),
    });
    expect(created.status).toBe(201);
    const keyFile = path.join(remote.dataDir, 'team.key');
    await writeFile(keyFile, `${remote.key}\n`, { mode: 0o600 });
    return startBrowserHost(['--connect', remote.url, '--key-file', keyFile]);
  })();
  try {
    await page.goto(host.url);
    await expect(page.locator('#app')).toHaveAttribute('data-app-ready', 'true');
    await expect(page.getByTestId('active-connection')).toContainText('127.0.0.1');
    const card = page.getByTestId('portfolio-card').filter({ hasText: 'Portfolio kept offline' });
    await expect(card).toBeVisible();
    await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-state', 'synced');

    await remote.stop();
    remoteStopped = true;
    await page.reload();
    await expect(page.locator('#app')).toHaveAttribute('data-app-ready', 'true');
    await expect(card).toBeVisible();
    await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-state', /offline|error/);
  } finally {
    await host.stop();
    if (!remoteStopped) await remote.stop();
  }
});
