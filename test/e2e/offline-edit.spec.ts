/**
 * Offline editing: the app provisioned for a separately started server syncs a mapped IFC file's elements; with the
 * server stopped, the user changes an element's name: the header says offline with one change waiting (never a failed
 * sync), Activity says so without naming an operation or an id; the user reloads the page (the change waits in
 * IndexedDB's outbox), and once the server runs again at the same address the change arrives there, as the API shows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ifcFixture } from '../fixtures/files';
import { expect, test } from './fixtures';
import { activityState, allWell, lastError, pendingCount } from './pages/activity';
import { openFile } from './pages/building';
import { elementChanged, elementRow, elementsLoading, renameElement } from './pages/elements-grid';
import { openBuilding } from './pages/portfolios';
import { navigateTo, reloadApp, screenContent, syncIndicator, syncNow } from './pages/shell';
import { remoteApi, startBrowserHost, startRemoteServer, type RemoteServer } from './processes';

const FIXTURE = ifcFixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc');

/** A building with the fixture imported and mapped; answers the building's and the file's ids. */
async function mappedBuilding(server: RemoteServer): Promise<{ buildingId: string; fileId: string }> {
  const portfolio = await remoteApi<{ id: string }>(server, 'POST', '/portfolios', { name: 'Site visit' });
  const building = await remoteApi<{ id: string }>(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'School on the river' });
  const file = await remoteApi<{ id: string }>(server, 'POST', `/buildings/${building.id}/files`, { type: 0 });
  await remoteApi(server, 'POST', `/buildings/${building.id}/files/${file.id}/upload/school.ifc`, new Uint8Array(await readFile(FIXTURE)));
  await expect
    .poll(async () => (await remoteApi<{ status: number }>(server, 'GET', `/buildings/${building.id}/files/${file.id}/status`)).status, { timeout: 60_000 })
    .toBe(3);
  return { buildingId: building.id, fileId: file.id };
}

test('an element edited with the server stopped reaches the server after a reload once it runs again', async ({ page, openApp }) => {
  test.setTimeout(300_000);
  const key = randomBytes(24).toString('base64url');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-offline-'));
  let server = await startRemoteServer({ key, dataDir });
  const port = Number(new URL(server.url).port);
  const { buildingId, fileId } = await mappedBuilding(server);
  const elements = await remoteApi<{ id: string; name: string | null }[]>(server, 'GET', `/buildings/${buildingId}/files/${fileId}/elements?$orderby=id`);
  const target = elements[0];
  if (target === undefined) throw new Error('The fixture has no elements.');
  const keyFile = path.join(dataDir, 'team.key');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile]);
  try {
    await openApp(host);
    await openBuilding(page, 'School on the river');
    await openFile(page, fileId);
    const row = elementRow(page, target.id);
    await expect(row).toBeVisible();
    await expect(elementsLoading(page)).toHaveCount(0);

    await server.stop();
    await renameElement(page, row, 'Wall checked on site');
    await expect(row).toContainText('Wall checked on site');
    await expect(elementChanged(row)).toBeVisible();
    const indicator = syncIndicator(page);
    await expect(indicator).toHaveAttribute('data-state', 'offline', { timeout: 30_000 });
    await expect(indicator).toHaveText('Offline · 1 change waiting');

    await reloadApp(page);
    await expect(row).toContainText('Wall checked on site');
    await expect(indicator).toHaveAttribute('data-state', 'offline', { timeout: 30_000 });
    await expect(indicator).toHaveText('Offline · 1 change waiting');
    // Retries while the server is away must not turn the header red or make it say the sync failed.
    for (let check = 0; check < 10; check += 1) {
      await expect(indicator).not.toHaveAttribute('data-state', 'error');
      await page.waitForTimeout(300);
    }

    await navigateTo(page, 'activity');
    await expect(activityState(page)).toHaveAttribute('data-state', 'offline');
    await expect(lastError(page)).toHaveAttribute('data-unreachable', 'true');
    await expect(allWell(page)).toHaveAttribute('data-offline', 'true');
    const activity = await screenContent(page).innerText();
    for (const internal of ['getBuildingFileStatus', 'replaceElement', 'listBuildings', 'ECONNREFUSED', fileId, target.id, 'All is well']) {
      expect(activity).not.toContain(internal);
    }

    server = await startRemoteServer({ key, dataDir, port });
    // The scheduler's backoff after the failed cycles may wait a while; "Sync now" is what a user would press.
    await syncNow(page);
    await expect(pendingCount(page)).toHaveText('0', { timeout: 90_000 });
    await expect(indicator).not.toHaveAttribute('data-state', 'offline');
    await page.goBack();
    await expect
      .poll(
        async () =>
          (await remoteApi<{ id: string; name: string | null }[]>(server, 'GET', `/buildings/${buildingId}/files/${fileId}/elements?$orderby=id`)).find(
            (element) => element.id === target.id,
          )?.name,
        { timeout: 90_000 },
      )
      .toBe('Wall checked on site');
    await expect(elementChanged(row)).toHaveCount(0, { timeout: 60_000 });
  } finally {
    await host.stop();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
