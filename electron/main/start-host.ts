/**
 * The desktop host of the Electron app: the vault under safeStorage, the session's proxy, the services of
 * `desktop.ts` with the native dialogs and the utility process, and what launches asked for acted on once it runs.
 */
import os from 'node:os';
import path from 'node:path';
import type { Net, Session } from 'electron';
import { hasBackgroundWork } from '../background';
import { startDesktopHost, type DesktopHost } from '../desktop';
import { notLoopbackHttp, sendingStreamsOverNodeHttp } from '../http/node-http-uploads';
import { revealingRedirects, type RedirectLocator } from '../http/opaque-redirects';
import type { LaunchRequests } from '../launch-requests';
import { startProxyControl } from '../network/proxy-control';
import { provisioningRequestOf, readKeyFile } from '../provisioning';
import { safeStorageCipher } from '../safe-storage-cipher';
import { startAtLogin } from '../start-at-login';
import type { UpdateChecker } from '../update-checker';
import { FileVault } from '../vault';
import type { ElectronApi } from './electron-api';
import { log } from './main-log';
import type { MainWindow } from './main-window';
import { nativeDialogs } from './native-dialogs';
import { openExternalSafely, openPathWithSystem } from './system-shell';
import { launchUtilityServer } from './utility-server';

/**
 * `--connect <url> --key-file <file>` on a command line (managed installs): the connection is set up and made active.
 * A failure is logged and shown, and the app goes on with the connections it has.
 */
async function provisionFromCommandLine(
  dialog: ElectronApi['dialog'],
  host: DesktopHost,
  options: { connect?: string; keyFile?: string },
): Promise<void> {
  try {
    const request = provisioningRequestOf({ connect: options.connect, 'key-file': options.keyFile });
    if (request === undefined) return;
    const connection = await host.provision(request.baseUrl, await readKeyFile(request.keyFile));
    log(`Connection ${connection.name} (${connection.baseUrl}) is set up with its key and active.`);
  } catch (error) {
    log('Setting up the connection of --connect failed', error);
    dialog.showErrorBox('Circularity Desk', `The connection given on the command line could not be set up: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Every call of the host goes through Chromium's network stack on the default session, whose proxy Settings chooses:
 * the system's proxy and PAC, and the system's certificate store, apply as they do in a browser. Only a streamed upload
 * to this computer goes over node:http instead (`notLoopbackHttp`).
 */
function sessionFetch(session: Session): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return (input, init) => session.fetch(input instanceof URL ? input.toString() : input, init);
}

/**
 * Where a read is redirected, through the same session: `net.request` in `manual` mode tells a redirect's status and
 * address in its `redirect` event, which `session.fetch` keeps to itself (`http/opaque-redirects.ts`); not following
 * it there cancels the request.
 */
function netRedirectLocator(net: Net, session: Session): RedirectLocator {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const request = net.request({ url, method: init.method ?? 'GET', session, redirect: 'manual', credentials: 'omit', headers });
      const stop = (): void => request.abort();
      init.signal?.addEventListener('abort', stop, { once: true });
      const settle = (seen: { status: number; location: string } | undefined): void => {
        init.signal?.removeEventListener('abort', stop);
        resolve(seen);
        request.abort();
      };
      request.on('redirect', (statusCode, _method, redirectUrl) => settle({ status: statusCode, location: redirectUrl }));
      request.on('response', () => settle(undefined));
      request.on('abort', () => settle(undefined));
      request.on('error', reject);
      request.end();
    });
}

/** What the host is started with beyond the app's own. */
export interface HostStart {
  updates: UpdateChecker | undefined;
  window: MainWindow;
  launchRequests: LaunchRequests;
  /** Resolves once the window was made: files opened with the app show it then. */
  windowOpened: Promise<void>;
}

/** Starts the host; from then on closing the window hides it to the tray while folders are set. */
export async function startHost(electron: ElectronApi, { updates, window, launchRequests, windowOpened }: HostStart): Promise<DesktopHost> {
  const { app, net, safeStorage, session, shell } = electron;
  const userDataDir = app.getPath('userData');
  const vault = await FileVault.open(path.join(userDataDir, 'vault.json'), safeStorageCipher(safeStorage, process.platform));
  if (vault.setAside !== undefined) log(`The key vault could not be read and was moved aside to ${vault.setAside}.`);
  const proxy = await startProxyControl({ userDataDir, session: session.defaultSession, log });
  const host = await startDesktopHost({
    userDataDir,
    host: 'electron',
    version: app.getVersion(),
    vault,
    startLocalServer: (args, env) => launchUtilityServer(electron.utilityProcess, args, env),
    openExternal: (url) => openExternalSafely(shell, url),
    openPath: (target) => openPathWithSystem(shell, target),
    ...nativeDialogs(electron, () => window.current),
    logsDir: app.getPath('logs'),
    ...(updates === undefined ? {} : { updates }),
    startAtLogin: startAtLogin({
      platform: process.platform,
      loginItems: app,
      // An AppImage runs from a mount that changes at every start: its own path is what starts it again.
      executable: process.env['APPIMAGE'] ?? process.execPath,
      // A development run is Electron's own binary with the app's folder after it.
      args: app.isPackaged ? [] : [app.getAppPath()],
      entryName: 'circularity-desk',
      displayName: 'Circularity Desk',
      env: process.env,
      homeDir: os.homedir(),
    }),
    log,
    fetch: sendingStreamsOverNodeHttp(
      revealingRedirects(sessionFetch(session.defaultSession), netRedirectLocator(net, session.defaultSession)),
      notLoopbackHttp,
    ),
    proxy,
  });
  window.hideToTrayWhile(() => hasBackgroundWork(host.status()));
  // Before the window's first calls are answered, so that its first screen shows the connection of --connect.
  await launchRequests.ready({
    provision: (request) => provisionFromCommandLine(electron.dialog, host, request),
    openFiles: async (paths) => {
      await host.openFiles(paths);
      void windowOpened.then(() => window.show());
    },
    log,
  });
  return host;
}
