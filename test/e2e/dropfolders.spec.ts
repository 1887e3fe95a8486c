/**
 * Drop folders and passports through the screens: the app provisioned for a separately started server; the user adds
 * a drop folder for a building, copies an IFC fixture into it, sees it go to Mapped and its elements in the grid; then
 * adds a passport folder for the building, requests a passport and finds the PDF in that folder.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startBrowserHost, startRemoteServer, remoteApi } from './processes';
import { ifcFixture } from '../fixtures/files';

const FIXTURE = ifcFixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc');

async function pick(page: Page, selectTestId: string, option: string): Promise<void> {
  await page.getByTestId(selectTestId).click();
  await page.locator('.n-base-select-option').filter({ hasText: option }).first().click();
}

test('a file copied into a drop folder reaches Mapped with its elements, and a requested passport lands in its folder', async ({ page }) => {
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
    await page.goto(host.url);
    await expect(page.locator('#app')).toHaveAttribute('data-app-ready', 'true');
    await expect(page.getByTestId('building-link').filter({ hasText: 'Library' })).toBeVisible();

    await page.getByTestId('nav-dropfolders').click();
    await page.getByTestId('dropfolder-path').fill(dropFolder);
    await pick(page, 'dropfolder-target', 'Library');
    await page.getByTestId('dropfolder-add').click();
    const card = page.getByTestId('dropfolder-card').filter({ hasText: dropFolder });
    await expect(card.getByTestId('dropfolder-watch')).toHaveText('Watching');

    await copyFile(FIXTURE, path.join(dropFolder, 'library.ifc'));
    await expect(card.locator('[data-testid="dropfolder-file"][data-path="library.ifc"]')).toHaveAttribute('data-state', 'mapped', { timeout: 90_000 });

    await page.getByTestId('nav-portfolios').click();
    await page.getByTestId('sync-now').click();
    await page.getByTestId('building-link').filter({ hasText: 'Library' }).click();
    await page.getByTestId('file-row').filter({ hasText: 'library.ifc' }).click();
    await expect(page.getByTestId('element-open').first()).toBeVisible({ timeout: 60_000 });

    await page.getByTestId('nav-passports').click();
    await pick(page, 'passport-subject', 'Library');
    await page.getByTestId('passport-folder').fill(passportFolder);
    await page.getByTestId('passport-target-add').click();
    await page.getByTestId('passport-target').filter({ hasText: 'Library' }).getByTestId('passport-request').click();
    await expect(page.locator('[data-testid="passport-entry"][data-format="pdf"]').first()).toHaveAttribute('data-state', 'downloaded', { timeout: 90_000 });
    const saved = (await readdir(passportFolder)).filter((name) => name.endsWith('.pdf'));
    expect(saved).toHaveLength(1);
    expect((await readFile(path.join(passportFolder, saved[0] ?? ''))).subarray(0, 4).toString()).toBe('%PDF');
  } finally {
    await host.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
});
