/**
 * Offline browsing: the app provisioned for a separately started server (`--connect … --key-file …`) syncs its
 * portfolios into the page's IndexedDB; with that server stopped, a reload still shows them, and the sync indicator
 * says the server cannot be reached.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './fixtures';
import { portfolioCard } from './pages/portfolios';
import { activeConnection, reloadApp, syncIndicator } from './pages/shell';
import { startBrowserHost, startRemoteServer } from './processes';

test('the portfolios of a remote server stay visible when it stops, after a reload', async ({ page, openApp }) => {
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
    await openApp(host);
    await expect(activeConnection(page)).toContainText('127.0.0.1');
    const card = portfolioCard(page, 'Portfolio kept offline');
    await expect(card).toBeVisible();
    await expect(syncIndicator(page)).toHaveAttribute('data-state', 'synced');

    await remote.stop();
    remoteStopped = true;
    await reloadApp(page);
    await expect(card).toBeVisible();
    await expect(syncIndicator(page)).toHaveAttribute('data-state', /offline|error/);
  } finally {
    await host.stop();
    if (!remoteStopped) await remote.stop();
  }
});
