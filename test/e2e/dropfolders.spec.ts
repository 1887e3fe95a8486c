/**
 * Drop folders and passports through the screens: the app provisioned for a separately started server; the user adds
 * a drop folder for a building, copies an IFC fixture into it, sees it go to Mapped and its elements in the grid; then
 * adds a passport folder for the building, requests a passport and finds the PDF in that folder.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ifcFixture } from '../fixtures/files';
import { expect, test } from './fixtures';
import { openFileNamed } from './pages/building';
import { addDropFolder, droppedFile, watchState } from './pages/drop-folders';
import { expectElementsListed } from './pages/elements-grid';
import { addPassportTarget, passportEntries, requestPassport } from './pages/passports';
import { buildingLink, openBuilding } from './pages/portfolios';
import { navigateTo, syncNow } from './pages/shell';
import { startBrowserHost, startRemoteServer, remoteApi } from './processes';

const FIXTURE = ifcFixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc');

test('a file copied into a drop folder reaches Mapped with its elements, and a requested passport lands in its folder', async ({ page, openApp }) => {
  test.setTimeout(180_000);
  const key = randomBytes(24).toString('base64url');
  const work = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-drop-'));
  const server = await startRemoteServer({ key, dataDir: path.join(work, 'server'), demo: false });
  const dropFolder = path.join(work, 'exports');
  const passportFolder = path.join(work, 'passports');
  await mkdir(dropFolder);
  await mkdir(passportFolder);
  const portfolio = await remoteApi<{ id: string }>(server, 'POST', '/portfolios', { name: 'Drop portfolio' });
  await remoteApi(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Library' });
  const keyFile = path.join(work, 'team.key');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile]);
  try {
    await openApp(host);
    await expect(buildingLink(page, 'Library')).toBeVisible();

    await navigateTo(page, 'dropfolders');
    const card = await addDropFolder(page, dropFolder, 'Library');
    await expect(watchState(card)).toHaveText('Watching');

    await copyFile(FIXTURE, path.join(dropFolder, 'library.ifc'));
    await expect(droppedFile(card, 'library.ifc')).toHaveAttribute('data-state', 'mapped', { timeout: 90_000 });

    await navigateTo(page, 'portfolios');
    await syncNow(page);
    await openBuilding(page, 'Library');
    await openFileNamed(page, 'library.ifc');
    await expectElementsListed(page);

    await navigateTo(page, 'passports');
    await addPassportTarget(page, 'Library', passportFolder);
    await requestPassport(page, 'Library');
    await expect(passportEntries(page, 'pdf').first()).toHaveAttribute('data-state', 'downloaded', { timeout: 90_000 });
    const saved = (await readdir(passportFolder)).filter((name) => name.endsWith('.pdf'));
    expect(saved).toHaveLength(1);
    expect((await readFile(path.join(passportFolder, saved[0] ?? ''))).subarray(0, 4).toString()).toBe('%PDF');
  } finally {
    await host.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
});
