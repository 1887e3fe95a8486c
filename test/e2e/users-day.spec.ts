/**
 * A user's day, through the screens of the app in browser mode against a separately started server: open a building
 * and read its dashboard, filter the elements grid, change the floor of 50 elements at once with the server stopped,
 * see the changes on the server once it runs again, create a material with a match, and request a PDF passport.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ifcFixture } from '../fixtures/files';
import { expect, test } from './fixtures';
import { openFile, requestPassportPdf } from './pages/building';
import { createMaterial } from './pages/catalogues';
import { expectDashboard } from './pages/dashboard';
import { bulkEdit, bulkEditForm, quickFilter, selectRows, selectedCount, viewCount } from './pages/elements-grid';
import { openBuilding } from './pages/portfolios';
import { navigateTo, syncIndicator, syncNow } from './pages/shell';
import { startBrowserHost, startRemoteServer, remoteApi } from './processes';

const FIXTURE = ifcFixture('example.ifc');

interface Element {
  id: string;
  floor: string | null;
}

test.use({ viewport: { width: 1400, height: 900 } });

test('a day with the app: dashboard, grid filter, an offline bulk edit of 50 elements pushed later, a material with a match, a passport', async ({ page, openApp }) => {
  test.setTimeout(300_000);
  const key = randomBytes(24).toString('base64url');
  const work = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-day-'));
  const dataDir = path.join(work, 'server');
  let server = await startRemoteServer({ key, dataDir, demo: false });
  const port = Number(new URL(server.url).port);
  const portfolio = await remoteApi<{ id: string }>(server, 'POST', '/portfolios', { name: 'Campus' });
  const building = await remoteApi<{ id: string }>(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Office on the square' });
  const file = await remoteApi<{ id: string }>(server, 'POST', `/buildings/${building.id}/files`, { type: 0 });
  await remoteApi(server, 'POST', `/buildings/${building.id}/files/${file.id}/upload/office.ifc`, new Uint8Array(await readFile(FIXTURE)));
  await expect
    .poll(async () => (await remoteApi<{ status: number }>(server, 'GET', `/buildings/${building.id}/files/${file.id}/status`)).status, { timeout: 90_000 })
    .toBe(3);
  const keyFile = path.join(work, 'team.key');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile]);
  try {
    await openApp(host);

    // The dashboard.
    await openBuilding(page, 'Office on the square');
    await expectDashboard(page);

    // The grid, filtered.
    await openFile(page, file.id);
    await expect(viewCount(page)).toHaveText(/^115 of 115 elements$/, { timeout: 60_000 });
    await quickFilter(page, 'Basic Wall');
    await expect(viewCount(page)).not.toHaveText('115 of 115 elements');
    await expect(viewCount(page)).toHaveText(/^\d+ of 115 elements$/);
    await quickFilter(page, '');
    await expect(viewCount(page)).toHaveText('115 of 115 elements');

    // 50 elements changed at once, offline.
    await server.stop();
    await selectRows(page, 0, 49);
    await expect(selectedCount(page)).toHaveText('50 selected');
    await bulkEdit(page, 'floor', 'Level 9');
    await expect(bulkEditForm(page)).toBeHidden();
    await expect(syncIndicator(page)).toHaveAttribute('data-state', /offline|error/, { timeout: 30_000 });

    // Online again: the 50 changes arrive.
    server = await startRemoteServer({ key, dataDir, port });
    await syncNow(page);
    await expect
      .poll(
        async () =>
          (await remoteApi<Element[]>(server, 'GET', `/buildings/${building.id}/files/${file.id}/elements?$orderby=id`)).filter((element) => element.floor === 'Level 9').length,
        { timeout: 120_000 },
      )
      .toBe(50);

    // A material of the account's own, with a match.
    await navigateTo(page, 'catalogues');
    await createMaterial(page, 'Reclaimed oak beam', 'oak beam');
    const account = await remoteApi<{ id: string }>(server, 'GET', '/accounts/current');
    await expect
      .poll(async () => {
        const own = await remoteApi<{ id: string; name: { en?: string | null } }[]>(server, 'GET', `/materials?databaseId=${account.id}`);
        const created = own.find((material) => material.name.en === 'Reclaimed oak beam');
        if (created === undefined) return [];
        return (await remoteApi<{ value: string }[]>(server, 'GET', `/materials/${created.id}/matches`)).map((match) => match.value);
      }, { timeout: 90_000 })
      .toEqual(['oak beam']);

    // A passport.
    await navigateTo(page, 'portfolios');
    await openBuilding(page, 'Office on the square');
    await requestPassportPdf(page);
    await expect
      .poll(async () => (await remoteApi<{ type: number }[]>(server, 'GET', `/buildings/${building.id}/files`)).some((each) => each.type === 1000), { timeout: 60_000 })
      .toBe(true);
  } finally {
    await host.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
});
