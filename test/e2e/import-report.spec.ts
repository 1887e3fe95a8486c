/**
 * The import report, through the screens of the app in browser mode against a separately started server: a model
 * whose unmapped elements count for nothing (duplex: 34 metal stud layers of its split walls, 71 elements without a
 * material name), its largest group mapped to a platform material in one step from the report and refined again,
 * after which more of the model counts and the dashboard shows a circularity index.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { ifcFixture } from '../fixtures/files';
import { expect, test } from './fixtures';
import { openFile } from './pages/building';
import { ciGauge } from './pages/dashboard';
import { openReport, viewCount } from './pages/elements-grid';
import { backToBuilding, counted, mapGroup, materialSource, pendingMappings, refine, unmappedGroups } from './pages/import-report';
import { openBuilding } from './pages/portfolios';
import { syncNow } from './pages/shell';
import { remoteApi, startBrowserHost, startRemoteServer } from './processes';

const FIXTURE = ifcFixture('duplex.ifc');
/** The platform's "Wood" (server/store/seed/platform-materials.json). */
const WOOD = 'e3e89167-f0bf-4dc0-aa33-644ca3dc71df';

interface Report {
  counted: { elements: number };
  material: { none: { elements: number } };
  unmappedMaterials: { materialName: string | null; elements: number }[];
}

test.use({ viewport: { width: 1400, height: 900 }, locale: 'en-GB' });

async function count(locator: Locator, attribute: string): Promise<number> {
  return Number(await locator.getAttribute(attribute));
}

test('the import report maps the largest unmapped group to a platform material, and more of the model counts', async ({ page, openApp }) => {
  test.setTimeout(300_000);
  const key = randomBytes(24).toString('base64url');
  const work = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-report-'));
  const server = await startRemoteServer({ key, dataDir: path.join(work, 'server'), demo: false });
  const portfolio = await remoteApi<{ id: string }>(server, 'POST', '/portfolios', { name: 'Campus' });
  const building = await remoteApi<{ id: string }>(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: 'Duplex' });
  const file = await remoteApi<{ id: string }>(server, 'POST', `/buildings/${building.id}/files`, { type: 0 });
  await remoteApi(server, 'POST', `/buildings/${building.id}/files/${file.id}/upload/duplex.ifc`, new Uint8Array(await readFile(FIXTURE)));
  await expect
    .poll(async () => (await remoteApi<{ status: number }>(server, 'GET', `/buildings/${building.id}/files/${file.id}/status`)).status, { timeout: 120_000 })
    .toBe(3);
  await remoteApi(server, 'POST', `/buildings/${building.id}/files/${file.id}/active`, true);
  await expect.poll(async () => (await remoteApi<{ isDirty: boolean }>(server, 'GET', `/buildings/${building.id}`)).isDirty, { timeout: 90_000 }).toBe(false);
  const before = await remoteApi<Report>(server, 'GET', `/buildings/${building.id}/files/${file.id}/report`);
  const largest = before.unmappedMaterials[0];
  expect(largest?.elements).toBeGreaterThan(0);

  const keyFile = path.join(work, 'team.key');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile]);
  try {
    await openApp(host);
    await openBuilding(page, 'Duplex');
    await openFile(page, file.id);
    // 215 elements of the model, its 79 layered walls and floors as their 246 layers.
    await expect(viewCount(page)).toHaveText(/^382 of 382 elements$/, { timeout: 60_000 });
    await openReport(page);

    // The server's figures, and the groups of the cache: the largest unmapped group first.
    const unmapped = materialSource(page, 'none');
    await expect(unmapped).toHaveAttribute('data-elements', String(before.material.none.elements), { timeout: 60_000 });
    await expect(counted(page)).toHaveAttribute('data-elements', String(before.counted.elements));
    const group = unmappedGroups(page).first();
    await expect(group).toHaveAttribute('data-material-name', largest?.materialName ?? '');
    await expect(group).toHaveAttribute('data-elements', String(largest?.elements));

    // Mapped in one step, then refined again.
    await mapGroup(page, group, 'wood', WOOD);
    await expect(pendingMappings(page)).toHaveAttribute('data-count', String(largest?.elements));
    await refine(page);

    // The report follows the refinement: the mapped share rises, and more elements count.
    await expect.poll(async () => count(unmapped, 'data-elements'), { timeout: 180_000 }).toBeLessThan(before.material.none.elements);
    await expect.poll(async () => count(counted(page), 'data-elements'), { timeout: 60_000 }).toBeGreaterThan(before.counted.elements);
    await expect(pendingMappings(page)).toHaveAttribute('data-count', '0');

    // The dashboard has a circularity index.
    await backToBuilding(page);
    await expect
      .poll(
        async () => {
          const score = await ciGauge(page).getAttribute('data-ci-score', { timeout: 5_000 }).catch(() => null);
          if (score === null || score === '') await syncNow(page);
          return score ?? '';
        },
        { timeout: 120_000, intervals: [2_000, 5_000] },
      )
      .not.toBe('');
  } finally {
    await host.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
});
