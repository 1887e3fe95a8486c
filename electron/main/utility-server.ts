/** The Local workspace's server in an Electron utilityProcess: a Node process that needs no Node binary of its own. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { UtilityProcess } from 'electron';
import { PASSPORT_FONT_DIR_ENV } from '../../shared/embedded-server';
import type { EmbeddedServerProcess } from '../local-server';
import type { ElectronApi } from './electron-api';
import { DIST_DIR, SERVER_ENTRY } from './app-paths';

/** The DejaVu fonts copied beside the server bundle; unpacked from the asar, because resvg reads them natively. */
function bundledFontDir(): string | undefined {
  const folder = path.join(DIST_DIR, 'server', 'fonts').replace(`${path.sep}app.asar${path.sep}`, `${path.sep}app.asar.unpacked${path.sep}`);
  return existsSync(folder) ? folder : undefined;
}

/** Starts the embedded server with `args` and `env` added to this process's environment. */
export function launchUtilityServer(
  utilityProcess: ElectronApi['utilityProcess'],
  args: string[],
  env: Record<string, string>,
): EmbeddedServerProcess {
  const fontDir = bundledFontDir();
  const child: UtilityProcess = utilityProcess.fork(SERVER_ENTRY, args, {
    env: {
      ...process.env,
      ...(fontDir === undefined || process.env[PASSPORT_FONT_DIR_ENV] !== undefined ? {} : { [PASSPORT_FONT_DIR_ENV]: fontDir }),
      ...env,
    },
    serviceName: 'Local workspace',
    stdio: 'pipe',
  });
  let exitCode: number | null | undefined;
  child.once('exit', (code) => {
    exitCode = code;
  });
  return {
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => {
      if (exitCode !== undefined) listener(exitCode);
      else child.once('exit', (code) => listener(code));
    },
    send: (message) => {
      if (exitCode === undefined) child.postMessage(message);
    },
    kill: () => {
      child.kill();
    },
    stdout: child.stdout,
    stderr: child.stderr,
  };
}
