/**
 * A building's files through the screens of the app in browser mode against a separately started server: a model
 * added through the page's file input is uploaded with its progress, followed to Mapped, activated and downloaded back
 * byte for byte, and another file is deleted; an upload chosen while the server is stopped waits, starts once the
 * server is back, and reaches it exactly once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ifcFixture } from '../fixtures/files';
import { tinyPng } from '../fixtures/images';
import { expect, test } from './fixtures';
import {
  activateFile,
  buildingFiles,
  chooseUpload,
  deleteFile,
  downloadFile,
  fileRow,
  fileRowNamed,
  noFiles,
  timelineStep,
  uploadPending,
  uploadProgress,
  uploadRow,
} from './pages/building';
import { openBuilding } from './pages/portfolios';
import { syncNow } from './pages/shell';
import { remoteApi, startBrowserHost, startRemoteServer, type RemoteServer } from './processes';

interface ServerFile {
  id: string;
  fileName: string | null;
  isActive: boolean;
  status: number;
}

test.use({ viewport: { width: 1400, height: 900 } });

/** A server on a folder of its own with one building, and the app in browser mode connected to it. */
async function setUp(work: string, buildingName: string) {
  const key = randomBytes(24).toString('base64url');
  const dataDir = path.join(work, 'server');
  const server = await startRemoteServer({ key, dataDir, demo: false });
  const portfolio = await remoteApi<{ id: string }>(server, 'POST', '/portfolios', { name: 'Campus' });
  const building = await remoteApi<{ id: string }>(server, 'POST', '/buildings', { portfolioId: portfolio.id, name: buildingName });
  const keyFile = path.join(work, 'team.key');
  await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
  const host = await startBrowserHost(['--connect', server.url, '--key-file', keyFile]);
  return { server, key, dataDir, port: Number(new URL(server.url).port), buildingId: building.id, host };
}

function filesOf(server: RemoteServer, buildingId: string): Promise<ServerFile[]> {
  return remoteApi<ServerFile[]>(server, 'GET', `/buildings/${buildingId}/files`);
}

test('a building’s files: a model uploaded through the page, followed to Mapped, activated, downloaded back; another file deleted', async ({ page, openApp }) => {
  test.setTimeout(300_000);
  const work = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-files-'));
  const { server, buildingId, host } = await setUp(work, 'Duplex on the corner');
  try {
    const photo = await remoteApi<{ id: string }>(server, 'POST', `/buildings/${buildingId}/files`, { type: 1, name: 'site-photo.png' });
    await remoteApi(server, 'POST', `/buildings/${buildingId}/files/${photo.id}/upload/site-photo.png`, tinyPng(4, 4));
    await openApp(host);
    await openBuilding(page, 'Duplex on the corner');
    await expect(buildingFiles(page)).toBeVisible();
    const photoRow = fileRow(page, photo.id);
    await expect(photoRow).toBeVisible({ timeout: 60_000 });

    // The upload, with its progress.
    const model = ifcFixture('duplex.ifc');
    await chooseUpload(page, model);
    const upload = uploadRow(page, 'duplex.ifc');
    await expect(uploadProgress(upload)).toContainText(/ of 2\.3 MiB/);
    await expect(upload).toHaveAttribute('data-state', 'done', { timeout: 60_000 });

    // Followed to Mapped, stage by stage.
    const row = fileRowNamed(page, 'duplex.ifc');
    await expect(row).toHaveAttribute('data-file-status', '3', { timeout: 120_000 });
    await expect(timelineStep(row, 'uploaded')).toHaveAttribute('data-state', 'done');
    await expect(timelineStep(row, 'mapped')).toHaveAttribute('data-state', 'done');
    await expect(timelineStep(row, 'mapped').locator('time')).toBeVisible();
    const fileId = (await row.getAttribute('data-file-id')) ?? '';
    expect((await filesOf(server, buildingId)).find((each) => each.id === fileId)?.status).toBe(3);

    // Activated: the server counts it in the figures.
    await expect(row).toHaveAttribute('data-file-active', 'false');
    await activateFile(row);
    await expect(row).toHaveAttribute('data-file-active', 'true', { timeout: 60_000 });
    expect((await filesOf(server, buildingId)).find((each) => each.id === fileId)?.isActive).toBe(true);

    // Downloaded back through the browser, byte for byte.
    const download = await downloadFile(page, row);
    const saved = path.join(work, 'downloaded.ifc');
    await download.saveAs(saved);
    expect((await readFile(saved)).equals(await readFile(model))).toBe(true);

    // Another file deleted, once confirmed.
    await deleteFile(page, photoRow);
    await expect(photoRow).toHaveCount(0, { timeout: 60_000 });
    expect((await filesOf(server, buildingId)).map((each) => each.id)).toEqual([fileId]);
  } finally {
    await host.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
});

test('an upload chosen while the server is stopped waits, starts once the server is back, and reaches it once', async ({ page, openApp }) => {
  test.setTimeout(300_000);
  const work = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-e2e-files-offline-'));
  const started = await setUp(work, 'Office on the square');
  let server = started.server;
  try {
    await openApp(started.host);
    await openBuilding(page, 'Office on the square');
    await expect(buildingFiles(page)).toBeVisible();
    await expect(noFiles(page)).toBeVisible({ timeout: 60_000 });

    await server.stop();
    await chooseUpload(page, ifcFixture('example.ifc'));
    const upload = uploadRow(page, 'example.ifc');
    await expect(upload).toHaveAttribute('data-state', 'waiting');
    await expect(uploadPending(upload)).toContainText('It starts by itself once the server can be reached.', { timeout: 60_000 });

    server = await startRemoteServer({ key: started.key, dataDir: started.dataDir, port: started.port });
    expect(await filesOf(server, started.buildingId)).toEqual([]);
    await syncNow(page);
    await expect(upload).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
    const row = fileRowNamed(page, 'example.ifc');
    await expect(row).toHaveAttribute('data-file-status', '3', { timeout: 120_000 });
    const files = await filesOf(server, started.buildingId);
    expect(files.map((each) => each.fileName)).toEqual(['example.ifc']);
    expect(await row.getAttribute('data-file-id')).toBe(files[0]?.id);
  } finally {
    await started.host.stop();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
});
