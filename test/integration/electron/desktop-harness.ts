/**
 * The desktop host as the integration tests start it: browser mode, an in-memory vault (Electron's safeStorage cannot
 * run here; a test that restarts the host hands the same one to each start) and the real Local workspace server in a
 * child process; what it opens is recorded, not opened.
 */
import { startDesktopHost, type DesktopHost, type DesktopHostOptions } from '../../../electron/desktop';
import { nodeProcessLauncher } from '../../../electron/node-process-launcher';
import { MemoryVault } from '../../../electron/vault';

/** Starts the host on `userDataDir`; `opened` collects the addresses and paths it was asked to open. */
export function startTestDesktopHost(
  userDataDir: string,
  options: { opened?: string[] } & Partial<Pick<DesktopHostOptions, 'vault' | 'log' | 'tuning' | 'chooseFolder' | 'chooseFiles' | 'chooseSaveTarget' | 'confirmMigration' | 'fetch' | 'proxy' | 'startAtLogin' | 'logsDir'>> = {},
): Promise<DesktopHost> {
  const { opened, ...rest } = options;
  return startDesktopHost({
    userDataDir,
    host: 'browser',
    version: '0.0.0-test',
    vault: new MemoryVault(),
    startLocalServer: nodeProcessLauncher(),
    openExternal: async (url) => {
      opened?.push(url);
    },
    openPath: async (target) => {
      opened?.push(target);
    },
    log: () => undefined,
    ...rest,
  });
}
