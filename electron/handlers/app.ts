/**
 * The Bridge handlers of the `app:*` channels: what the app is and where it runs, starting at login, files opened with
 * the app, the logs and the diagnostics zip, and updates. Start at login, the logs folder and updates exist only in
 * Electron; in browser mode their channels answer `unavailable`.
 */
import { BridgeError, type IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import { writeDiagnosticsZip, type DiagnosticsContents } from '../diagnostics';
import type { OpenedFiles } from '../opened-files';
import type { StartAtLogin } from '../start-at-login';
import type { UpdateChecker } from '../update-checker';
import type { OpenPathFunction } from './open-on-disk';
import type { ChooseSaveTargetFunction } from './uploads';

/** The channels these handlers answer. */
export type AppChannel = Extract<IpcChannel, `app:${string}`>;

/** What a diagnostics zip holds besides the logs and the versions. */
export type DiagnosticsSettings = Pick<DiagnosticsContents, 'connections' | 'dropFolders' | 'passportFolders' | 'keys'>;

/** What the handlers need of the host. */
export interface AppHandlerContext {
  version: string;
  host: 'electron' | 'browser';
  userDataDir: string;
  /** Absent in browser mode. */
  startAtLogin: StartAtLogin | undefined;
  /** Absent in browser mode, which logs to its terminal. */
  logsDir: string | undefined;
  /** Absent in browser mode, which is updated with its checkout. */
  updates: UpdateChecker | undefined;
  /** Absent in browser mode. */
  chooseSaveTarget: ChooseSaveTargetFunction | undefined;
  openPath: OpenPathFunction;
  openedFiles: OpenedFiles;
  /** The settings as they are now, and every stored key, which the zip must not hold. */
  diagnosticsSettings(): Promise<DiagnosticsSettings>;
}

/** The versions the app runs on, for the diagnostics zip. */
function versionsOf(appVersion: string): Record<string, string> {
  const versions: Record<string, string> = { app: appVersion };
  for (const name of ['electron', 'chrome', 'node'] as const) {
    const version = process.versions[name];
    if (version !== undefined) versions[name] = version;
  }
  versions['platform'] = process.platform;
  versions['arch'] = process.arch;
  return versions;
}

/** The handlers of the app channels. */
export function appHandlers(context: AppHandlerContext): Pick<BridgeHandlers, AppChannel> {
  function requireStartAtLogin(): StartAtLogin {
    if (context.startAtLogin === undefined) throw new BridgeError('unavailable', 'Starting at login is a setting of the desktop app.');
    return context.startAtLogin;
  }

  function requireLogsDir(): string {
    if (context.logsDir === undefined) throw new BridgeError('unavailable', 'In browser mode the log is written to the terminal that started it.');
    return context.logsDir;
  }

  function requireUpdates(): UpdateChecker {
    if (context.updates === undefined) throw new BridgeError('unavailable', 'Browser mode is updated with its checkout.');
    return context.updates;
  }

  return {
    'app:info': async () => ({ version: context.version, host: context.host, platform: process.platform, userDataDir: context.userDataDir }),
    'app:start-at-login': async () => ({ enabled: await requireStartAtLogin().enabled() }),
    'app:set-start-at-login': async ({ enabled }) => {
      const setting = requireStartAtLogin();
      await setting.set(enabled);
      return { enabled: await setting.enabled() };
    },
    'app:take-opened-files': async () => context.openedFiles.take(),
    // Asks where to save, then writes the logs, versions and settings there as a zip.
    'app:export-diagnostics': async () => {
      const logsDir = requireLogsDir();
      if (context.chooseSaveTarget === undefined) throw new BridgeError('unavailable', 'There is no save dialog in the browser.');
      const target = await context.chooseSaveTarget(`circularity-desk-diagnostics-${new Date().toISOString().slice(0, 10)}.zip`);
      if (target === null) return { path: null };
      await writeDiagnosticsZip(target, { logsDir, versions: versionsOf(context.version), ...(await context.diagnosticsSettings()) });
      return { path: target };
    },
    'app:open-logs': async () => {
      await context.openPath(requireLogsDir());
      return null;
    },
    'app:update-state': async () => requireUpdates().state(),
    'app:restart-to-update': async () => {
      if (!requireUpdates().restartToUpdate()) throw new BridgeError('unavailable', 'No downloaded update waits to be installed.');
      return null;
    },
  } satisfies Pick<BridgeHandlers, AppChannel>;
}
