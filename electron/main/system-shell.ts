/** What the host asks of the system's shell: addresses opened in the browser, folders and files in their application. */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { BridgeError } from '../../shared/ipc';
import { DIST_DIR } from './app-paths';
import type { ElectronApi } from './electron-api';

type Shell = ElectronApi['shell'];

/** Opens an http(s) address in the system browser; anything else (file:, custom schemes) is refused. */
export async function openExternalSafely(shell: Shell, url: string): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`Refused to open ${parsed.protocol} address.`);
  await shell.openExternal(parsed.toString()); // eng-disable OPEN_EXTERNAL_JS_CHECK (only http(s), checked above)
}

/** Opens a drop folder or a saved passport with the system's application for it; the paths come from the services, never the page. */
export async function openPathWithSystem(shell: Shell, target: string): Promise<void> {
  const failure = await shell.openPath(target);
  if (failure !== '') throw new BridgeError('unavailable', `The system could not open ${target}: ${failure}`);
}

/** The README beside the bundles is inside the app's archive, where the system's viewer cannot read it: a copy is opened. */
export async function openHelp(electron: ElectronApi): Promise<void> {
  const copy = path.join(electron.app.getPath('temp'), 'Circularity Desk README.md');
  await copyFile(path.join(DIST_DIR, 'README.md'), copy);
  await openPathWithSystem(electron.shell, copy);
}
