/**
 * The app's user-data folder, where Electron's `app.getPath('userData')` puts it, so browser mode and the installed
 * app started without `--user-data` share connections, keys and the Local workspace.
 */
import os from 'node:os';
import path from 'node:path';

/** The product name, which names the folder. */
export const PRODUCT_NAME = 'Circularity Desk';

/** `<appData>/Circularity Desk` for this platform and environment. */
export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  switch (platform) {
    case 'win32':
      return path.win32.join(env['APPDATA'] ?? path.win32.join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
    case 'darwin':
      return path.posix.join(home, 'Library', 'Application Support', PRODUCT_NAME);
    default:
      return path.posix.join(env['XDG_CONFIG_HOME'] ?? path.posix.join(home, '.config'), PRODUCT_NAME);
  }
}
