/**
 * A model that names no materials for much of it, fixed from the import report and carried over as a spreadsheet,
 * through the screens of the app in browser mode against a separately started server: the largest group of duplex's
 * unnamed elements (by IFC class and type name) is mapped to a platform material in one step and refined; the grid is
 * exported as XLSX, and the export uploaded as the source file of another building counts the same share of its
 * elements and gives the same circularity index.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ifcFixture } from '../fixtures/files';
import { expect, test } from './fixtures';
import { activateFile, chooseUpload, fileRowNamed, openFile, openFileNamed, uploadRow } from './pages/building';
import { ciGauge } from './pages/dashboard';
import { exportView, openReport, viewCount } from './pages/elements-grid';
import { backToBuilding, counted, mapGroup, pendingMappings, refine, unnamedGroups } from './pages/import-report';
import { openBuildingById } from './pages/portfolios';
import { syncNow } from './pages/shell';
import { remoteApi, startBrowserHost, startRemoteServer, type RemoteServer } from './processes';

/** The platform's "Wood" (server/store/seed/platform-materials.json). */
const WOOD = 'e3e89167-f0bf-4dc0-aa33-644ca3dc71df';

test.use({ viewport: { width: 1400, height: 900 }, locale: 'en-GB' });

interface CountedShare {
  elements: string | null;
  elementShare: string | null;
  volumeShare: string | null;
}

async function countedShare(page: Page): Promise<CountedShare> {
  const figures = counted(page);
  return {
    elements: await figures.getAttribute('data-elements'),
    elementShare: await figures.getAttribute('data-element-share'),
    volumeShare: await figures.getAttribute('data-share'),
  };
}

/**
 * The building's final circularity index once the server has recalculated it, and the dashboard showing the same after
 * a sync.
 */
async function circularityIndex(page: Page, server: RemoteServer, buildingId: string): Promise<number> {
  await expect.poll(async () => (await remoteApi<{ isDirty: boolean }>(server, 'GET', `/buildings/${buildingId}`)).isDirty, { timeout: 120_000 }).toBe(false);
  const figures = await remoteApi<{ madasterCiScore: number | null }>(server, 'GET', `/buildings/${buildingId}/circular`);
  expect(figures.madasterCiScore).not.toBeNull();
  const index = figures.madasterCiScore ?? Number.NaN;
  await expect
    .poll(
      async () => {
        const score = (await ciGauge(page).getAttribute('data-ci-score', { timeout: 5_000 }).catch(() => null)) ?? '';
        if (score === '' || Number(score) !== index) await syncNow(page);
        return Number(score);
      },
      { timeout: 120_000, intervals: [2_000, 5_000] },
    )
    .toBe(index);
  return index;
}

/** Waits until the report's figures are read and no mapping waits for a refinement. */
async function settledReport(page: Page, elements: number): Promise<CountedShare> {
  await expect(counted(page)).toBeVisible({ timeout: 60_000 });
  await expect(pendingMappings(page)).toHaveAttribute('data-count', '0', { timeout: 180_000 });
  await expect.poll(async () => (await counted(page).getAttribute('data-elements')) !== null, { timeout: 60_000 }).toBe(true);
  expect(elements).toBeGreaterThan(0);
  return countedShare(page);
}

async function attribute(locator: Locator, name: string): Promise<string> {
  return (await locator.getAttribute(name)) ?? '';
}

test('the largest unnamed group mapped by class and type, the grid exported and uploaded again: the same counted share and circularity index', async ({
  page,
  openApp,
}) => {
  test.setTimeout(480_000);
  const key = randomBytes(24).toString('base64url');
  const work = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-roundtrip-'));
  const server = await startRemoteServer({ key, dataDir: path.join(work, 'server'), demo: false });
  const portfolio = await remoteApi<{ id: string }>(server, 'POST', '/portfolios', { name: 'Campus' });
  const modelled = await remoteApi<{ id: string }>(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Duplex' });
  const exported = await remoteApi<{ id: string }>(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Duplex from its export' });
  const file = await remoteApi<{ id: string }>(server, 'POST', `/buildings/${modelled.id}/files`, { type: 0 });
  await remoteApi(server, 'POST', `/buildings/${modelled.id}/files/${file.id}/upload/duplex.ifc`, new Uint8Array(await readFile(ifcFixture('duplex.ifc'))));
  await expect
    .poll(async () => (await remoteApi<{ status: number }>(server, 'GET', `/buildings/${modelled.id}/files/${file.id}/status`)).status, { timeout: 120_000 })
    .toBe(3);
  await remoteApi(server, 'POST', `/buildings/${modelled.id}/files/${file.id}/active`, true);

  const keyFile = path.join(work, 'team.key');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile]);
  try {
    await openApp(host);
    await openBuildingById(page, modelled.id);
    await openFile(page, file.id);
    await expect(viewCount(page)).toHaveText(/^382 of 382 elements$/, { timeout: 60_000 });
    await openReport(page);

    // The largest group of elements without a material name, by IFC class and type name.
    const group = unnamedGroups(page).first();
    await expect(group).toBeVisible({ timeout: 60_000 });
    expect(await attribute(group, 'data-material-name')).toBe('');
    const elementClass = await attribute(group, 'data-element-class');
    const typeName = await attribute(group, 'data-type-name');
    const groupSize = Number(await attribute(group, 'data-elements'));
    expect(elementClass).toMatch(/^Ifc/);
    for (const other of await unnamedGroups(page).all()) expect(Number(await attribute(other, 'data-elements'))).toBeLessThanOrEqual(groupSize);
    const countedBefore = Number(await counted(page).getAttribute('data-elements', { timeout: 60_000 }));

    await mapGroup(page, group, 'wood', WOOD);
    // Elements of the group without a volume or weight will not count: the picker says so first.
    const confirm = page.getByTestId('picker-confirm');
    if (await confirm.waitFor({ timeout: 3_000 }).then(() => true, () => false)) await confirm.click();
    await expect(pendingMappings(page)).toHaveAttribute('data-count', String(groupSize));
    await refine(page);
    await expect.poll(async () => Number(await counted(page).getAttribute('data-elements')), { timeout: 180_000 }).toBeGreaterThan(countedBefore);
    // The group is mapped: none of that class and type is left unmapped.
    await expect(page.locator(`[data-testid="report-unmapped-group"][data-element-class="${elementClass}"][data-type-name="${typeName}"]`)).toHaveCount(0);
    const modelShare = await settledReport(page, groupSize);

    await backToBuilding(page);
    const modelIndex = await circularityIndex(page, server, modelled.id);

    // The grid's view, every element, exported as XLSX.
    await openFile(page, file.id);
    await expect(viewCount(page)).toHaveText(/^382 of 382 elements$/, { timeout: 60_000 });
    const spreadsheet = path.join(work, 'duplex-elements.xlsx');
    await (await exportView(page, 'xlsx')).saveAs(spreadsheet);

    // Uploaded as the source file of the other building, activated, and reported on.
    await openBuildingById(page, exported.id);
    await chooseUpload(page, spreadsheet);
    await expect(uploadRow(page, 'duplex-elements.xlsx')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    const row = fileRowNamed(page, 'duplex-elements.xlsx');
    await expect(row).toHaveAttribute('data-file-status', '3', { timeout: 120_000 });
    await activateFile(row);
    await expect(row).toHaveAttribute('data-file-active', 'true', { timeout: 60_000 });
    const exportIndex = await circularityIndex(page, server, exported.id);
    expect(exportIndex).toBeCloseTo(modelIndex, 9);

    await openFileNamed(page, 'duplex-elements.xlsx');
    await expect(viewCount(page)).toHaveText(/^382 of 382 elements$/, { timeout: 60_000 });
    await openReport(page);
    // The same elements count; the shares agree to 12 digits (the export writes quantities to 15 significant digits).
    const exportShare = await settledReport(page, groupSize);
    expect(exportShare.elements).toBe(modelShare.elements);
    expect(Number(exportShare.elementShare)).toBeCloseTo(Number(modelShare.elementShare), 12);
    expect(Number(exportShare.volumeShare)).toBeCloseTo(Number(modelShare.volumeShare), 12);
  } finally {
    await host.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
});
