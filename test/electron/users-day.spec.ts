/**
 * A user's day in the desktop app itself, in real Electron: the window opens on the Local workspace with its sample
 * building, a model chosen in the system's dialog is uploaded, followed to Mapped and activated. Runs wherever
 * Electron's binary is installed (`npm run test:electron`); everything else is tested in browser mode.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { REPOSITORY_ROOT } from '../../scripts/build-desktop';
import { ELECTRON_SQLITE_BINDING_ENV } from '../../shared/native-sqlite';
import { ifcFixture } from '../fixtures/files';
import { installedElectronBinary } from './electron-binary';

const binary = installedElectronBinary();

test.skip(binary === undefined, 'Electron’s binary is not installed on this machine (`npm start` fetches it); browser mode covers the app here');

test.use({ viewport: { width: 1400, height: 900 } });

let app: ElectronApplication | undefined;
let userData: string | undefined;

test.afterEach(async () => {
  await app?.close();
  if (userData !== undefined) await rm(userData, { recursive: true, force: true });
});

test('the desktop app: the Local workspace’s sample building, a model chosen in the dialog, uploaded, Mapped and activated', async () => {
  userData = await mkdtemp(path.join(os.tmpdir(), 'circularity-desk-electron-'));
  app = await electron.launch({
    executablePath: binary,
    args: [REPOSITORY_ROOT, '--user-data', userData],
    env: { ...process.env, [ELECTRON_SQLITE_BINDING_ENV]: process.env[ELECTRON_SQLITE_BINDING_ENV] ?? '' },
  });
  const window = await app.firstWindow();
  await expect(window.locator('#app')).toHaveAttribute('data-app-ready', 'true', { timeout: 120_000 });

  // The Local workspace started with its sample building.
  const building = window.getByTestId('building-link').first();
  await expect(building).toBeVisible({ timeout: 120_000 });
  await building.click();
  await expect(window.getByTestId('building-files')).toBeVisible();

  // The system's open dialog answers with a model, as a user would pick it.
  const model = ifcFixture('AC20-FZK-Haus.ifc');
  await app.evaluate(({ dialog }, file) => {
    dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [file] })) as typeof dialog.showOpenDialog;
  }, model);
  await window.getByTestId('upload-add').click();
  const upload = window.getByTestId('upload-row').filter({ hasText: 'AC20-FZK-Haus.ifc' });
  await expect(upload).toHaveAttribute('data-state', 'done', { timeout: 120_000 });

  const row = window.getByTestId('file-row').filter({ hasText: 'AC20-FZK-Haus.ifc' });
  await expect(row).toHaveAttribute('data-file-status', '3', { timeout: 180_000 });
  await row.getByTestId('activate-file').click();
  await expect(row).toHaveAttribute('data-file-active', 'true', { timeout: 60_000 });
});
