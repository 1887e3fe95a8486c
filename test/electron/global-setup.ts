/**
 * Builds what the desktop app runs — the renderer, main, preload and the embedded server, and the database module for
 * Electron — where Electron is installed, and names that module to the tests; elsewhere the suite skips itself.
 */
import path from 'node:path';
import { buildDesktop, REPOSITORY_ROOT } from '../../scripts/build-desktop';
import { ensureElectronNativeBuild } from '../../scripts/electron-native';
import { ensureRendererBuilt } from '../../electron/renderer-build';
import { ELECTRON_SQLITE_BINDING_ENV } from '../../shared/native-sqlite';
import { installedElectronBinary } from './electron-binary';

export default async function globalSetup(): Promise<void> {
  if (installedElectronBinary() === undefined) return;
  const native = await ensureElectronNativeBuild();
  if ('reason' in native) throw new Error(`Electron is installed, but ${native.reason}.`);
  await ensureRendererBuilt(REPOSITORY_ROOT, path.join(REPOSITORY_ROOT, 'dist', 'renderer'));
  await buildDesktop({ outDir: path.join(REPOSITORY_ROOT, 'dist') });
  // Workers inherit the environment global setup leaves.
  process.env[ELECTRON_SQLITE_BINDING_ENV] = native.binding;
}
