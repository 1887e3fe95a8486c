/**
 * The Electron main process: one hardened window showing the renderer from `app://renderer/`, the Bridge over IPC,
 * the tray, updates, and the desktop services of desktop.ts. Bundled to `dist/electron/main.cjs`, next to the
 * preload; the built renderer is in `dist/renderer/` and the embedded server in `dist/server/`.
 */
import { appendFile, copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BrowserWindow,
  Menu,
  Notification,
  Tray,
  app,
  autoUpdater as nativeAutoUpdater,
  crashReporter,
  dialog,
  ipcMain,
  nativeImage,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  utilityProcess,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron';
import { autoUpdater } from 'electron-updater';
import { PASSPORT_FONT_DIR_ENV } from '../shared/embedded-server';
import { BridgeError, type Notice } from '../shared/ipc';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, createAppProtocolHandler, isAppUrl } from './app-protocol';
import { applicationMenuTemplate } from './application-menu';
import { TRAY_NOTICE, backgroundStateFile, firstHideToTray, hasBackgroundWork, hideOnClose, quitsWhenAllWindowsClosed } from './background';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';
import { childProcessGoneMessage, recoverWindowContents, type UnresponsiveChoice } from './crash-recovery';
import { startDesktopHost, type DesktopHost } from './desktop';
import { startProxyControl } from './network/proxy-control';
import { bridgeEventSender, registerBridgeHandlers, trustedSenderCheck, type SenderCheck } from './ipc';
import { registerDroppedFilesHandler } from './dropped-files';
import { notLoopbackHttp, sendingStreamsOverNodeHttp } from './http/node-http-uploads';
import type { EmbeddedServerProcess } from './local-server';
import { migrationConfirmationText, type MigrationTargets } from './migration-confirmation';
import { userDataDirOf } from './launch-arguments';
import { LaunchRequests } from './launch-requests';
import { provisioningRequestOf, readKeyFile } from './provisioning';
import { safeStorageCipher } from './safe-storage-cipher';
import { startAtLogin } from './start-at-login';
import { trayView, type TrayAction } from './tray-status';
import { UpdateChecker } from './update-checker';
import { updateFeedOf, type UpdateFeed } from './update-feed';
import type { FileDialogRequest } from './uploads/choices';
import { FileVault } from './vault';
import {
  MIN_WINDOW_SIZE,
  fitWindowState,
  loadWindowState,
  trackWindowState,
  windowStateFile,
  type WindowStateTracker,
} from './window-state';

const ELECTRON_DIR = __dirname;
const DIST_DIR = path.join(ELECTRON_DIR, '..');
const RENDERER_DIR = path.join(DIST_DIR, 'renderer');
const PRELOAD_FILE = path.join(ELECTRON_DIR, 'preload.cjs');
const SERVER_ENTRY = path.join(DIST_DIR, 'server', 'cli.mjs');
/** A quit waits this long for the Local workspace to stop before it goes ahead anyway. */
const QUIT_TIMEOUT_MS = 20_000;
/** electron-builder's appId: Windows ties notifications (update notices) to it. */
const APP_ID = 'org.circularity.desk';

// Must happen before `ready`. Standard: relative URLs and an origin of its own (IndexedDB lives there). Secure: a
// secure context. CORS-enabled: the renderer's module scripts are fetched in CORS mode, even from their own origin.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
]);
app.enableSandbox();
// Crash dumps stay in the app's crash dumps folder on this computer: nothing is sent anywhere.
crashReporter.start({ uploadToServer: false });

/**
 * `--user-data <dir>`: the app's data (connections, keys, the Local workspace) in another folder, as browser mode's
 * option of the same name does; a second profile, or a test's own. Set before the single-instance lock, which is per folder.
 */
const userDataArgument = userDataDirOf(process.argv, process.cwd());
if (userDataArgument !== undefined) app.setPath('userData', userDataArgument);

let logFile: string | undefined;

function log(message: string, error?: unknown): void {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  const line = `${new Date().toISOString()} ${message}${detail}\n`;
  console.error(line.trimEnd());
  if (logFile !== undefined) appendFile(logFile, line).catch(() => undefined);
}

/** Opens `main.log` in the logs folder, keeping the previous one as `main.old.log` once it grows past 5 MB. */
async function openLog(): Promise<void> {
  const folder = app.getPath('logs');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, 'main.log');
  const size = await stat(file).then((info) => info.size, () => 0);
  if (size > 5 * 1024 * 1024) await rename(file, path.join(folder, 'main.old.log'));
  logFile = file;
}

/** The DejaVu fonts copied beside the server bundle; unpacked from the asar, because resvg reads them natively. */
function bundledFontDir(): string | undefined {
  const folder = path.join(DIST_DIR, 'server', 'fonts').replace(`${path.sep}app.asar${path.sep}`, `${path.sep}app.asar.unpacked${path.sep}`);
  return existsSync(folder) ? folder : undefined;
}

/** Starts the embedded server in an Electron utilityProcess: a Node process that needs no Node binary of its own. */
function launchUtilityServer(args: string[], env: Record<string, string>): EmbeddedServerProcess {
  const fontDir = bundledFontDir();
  const child = utilityProcess.fork(SERVER_ENTRY, args, {
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

/** What launches of the app asked for (this one's command line, a second launch's, macOS open-file), acted on once the host runs. */
const launchRequests = new LaunchRequests();

/** Set once the user quits (tray, menu, shortcut, the system's shutdown): the window then closes instead of hiding. */
let quitting = false;

/** The running host, once it has started: closing the window asks it whether folders are set. */
let runningHost: DesktopHost | undefined;

/**
 * `--connect <url> --key-file <file>` on a command line (managed installs): the connection is set up and made active.
 * A failure is logged and shown, and the app goes on with the connections it has.
 */
async function provisionFromCommandLine(host: DesktopHost, options: { connect?: string; keyFile?: string }): Promise<void> {
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

/** Opens an http(s) address in the system browser; anything else (file:, custom schemes) is refused. */
async function openExternalSafely(url: string): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`Refused to open ${parsed.protocol} address.`);
  await shell.openExternal(parsed.toString()); // eng-disable OPEN_EXTERNAL_JS_CHECK (only http(s), checked above)
}

/** Opens a drop folder or a saved passport with the system's application for it; the paths come from the services, never the page. */
async function openPathWithSystem(target: string): Promise<void> {
  const failure = await shell.openPath(target);
  if (failure !== '') throw new BridgeError('unavailable', `The system could not open ${target}: ${failure}`);
}

/** The native folder dialog, attached to the window when there is one. */
async function chooseFolder(title: string | undefined): Promise<string | null> {
  const dialogOptions: Electron.OpenDialogOptions = { title: title ?? 'Choose a folder', properties: ['openDirectory', 'createDirectory'] };
  const window = mainWindow !== undefined && !mainWindow.isDestroyed() ? mainWindow : undefined;
  const result = window === undefined ? await dialog.showOpenDialog(dialogOptions) : await dialog.showOpenDialog(window, dialogOptions);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** The native open dialog for files to upload, attached to the window; answers the chosen paths, none when cancelled. */
async function chooseFiles(request: FileDialogRequest): Promise<string[]> {
  const dialogOptions: Electron.OpenDialogOptions = {
    title: request.title,
    filters: request.filters,
    properties: request.multiple ? ['openFile', 'multiSelections'] : ['openFile'],
  };
  const window = mainWindow !== undefined && !mainWindow.isDestroyed() ? mainWindow : undefined;
  const result = window === undefined ? await dialog.showOpenDialog(dialogOptions) : await dialog.showOpenDialog(window, dialogOptions);
  return result.canceled ? [] : result.filePaths;
}

/** The host's own confirmation of a move of the Local workspace: a native message box naming every target. */
async function confirmMigration(targets: MigrationTargets): Promise<boolean> {
  const { question, detail } = migrationConfirmationText(targets);
  const boxOptions: Electron.MessageBoxOptions = {
    type: 'warning',
    message: question,
    detail: detail.join('\n'),
    buttons: ['Copy', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
  const window = mainWindow !== undefined && !mainWindow.isDestroyed() ? mainWindow : undefined;
  const answer = window === undefined ? await dialog.showMessageBox(boxOptions) : await dialog.showMessageBox(window, boxOptions);
  return answer.response === 0;
}

/** The native save dialog for a download, offering its name in the Downloads folder; null when cancelled. */
async function chooseSaveTarget(fileName: string): Promise<string | null> {
  const dialogOptions: Electron.SaveDialogOptions = { defaultPath: path.join(app.getPath('downloads'), fileName) };
  const window = mainWindow !== undefined && !mainWindow.isDestroyed() ? mainWindow : undefined;
  const result = window === undefined ? await dialog.showSaveDialog(dialogOptions) : await dialog.showSaveDialog(window, dialogOptions);
  return result.canceled || result.filePath === '' ? null : result.filePath;
}

/**
 * Notifications on screen, held so that one is not collected (and its click lost) while it is shown; the oldest are
 * let go beyond a few, because not every platform reports a notification that faded away.
 */
const shownNotifications = new Set<Notification>();
const MAX_HELD_NOTIFICATIONS = 20;

/** Shows a notice of the services as a native notification too (the window shows it in-app); a click opens the window. */
function showNativeNotice(notice: Notice): void {
  if (!Notification.isSupported()) return;
  const notification = new Notification({ title: notice.title, body: notice.message, silent: notice.kind !== 'error' });
  shownNotifications.add(notification);
  for (const oldest of shownNotifications) {
    if (shownNotifications.size <= MAX_HELD_NOTIFICATIONS) break;
    shownNotifications.delete(oldest);
  }
  notification.on('click', showWindow);
  notification.on('close', () => shownNotifications.delete(notification));
  notification.show();
}

/** The update feed electron-builder wrote into the app's resources, if any. */
function packagedUpdateFeed(): UpdateFeed {
  const file = path.join(process.resourcesPath, 'app-update.yml');
  return updateFeedOf(existsSync(file) ? readFileSync(file, 'utf8') : undefined);
}

/**
 * Locks every web contents down, the window's and any other: no webviews, no navigation away from the app's origin
 * (also not through a redirect), and no new windows.
 */
function hardenWebContents(contents: WebContents): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  // Links to other sites are opened through the bridge's shell:open-external, which the renderer calls on a click.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Denies the page every permission (camera, notifications, clipboard reading, …) and sets the CSP on every response. */
function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

/**
 * Every call of the host goes through Chromium's network stack on the default session, whose proxy Settings chooses:
 * the system's proxy and PAC, and the system's certificate store, apply as they do in a browser. Only a streamed upload
 * to this computer goes over node:http instead (`notLoopbackHttp`).
 */
function sessionFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  return session.defaultSession.fetch(input instanceof URL ? input.toString() : input, init);
}

/** The update checker of an app with an https update feed; none otherwise (a build without updates, or an insecure feed). */
function updateChecker(): UpdateChecker | undefined {
  const feed: UpdateFeed = app.isPackaged ? packagedUpdateFeed() : { kind: 'none' };
  if (feed.kind === 'insecure') log(`The update feed ${feed.url} is not an https address: updates are not checked.`);
  if (feed.kind !== 'https') return undefined;
  autoUpdater.logger = { info: (message) => log(String(message)), warn: (message) => log(String(message)), error: (message) => log(String(message)) };
  return new UpdateChecker({ updater: autoUpdater, log });
}

/** The README beside the bundles is inside the app's archive, where the system's viewer cannot read it: a copy is opened. */
async function openHelp(): Promise<void> {
  const copy = path.join(app.getPath('temp'), 'Circularity Desk README.md');
  await copyFile(path.join(DIST_DIR, 'README.md'), copy);
  await openPathWithSystem(copy);
}

/** *Check for updates* of the menu: the header shows a download; the other outcomes are said here. */
async function checkForUpdatesFromMenu(updates: UpdateChecker): Promise<void> {
  const checked = await updates.checkNow();
  const message = {
    idle: `Circularity Desk ${app.getVersion()} is the latest version.`,
    checking: 'Updates are being checked.',
    downloading: 'An update is being downloaded; the header shows how far it got.',
    ready: 'An update is downloaded: choose Restart to update in the header.',
    failed: 'Checking for updates failed.',
  }[checked.state];
  await dialog.showMessageBox({ type: checked.state === 'failed' ? 'warning' : 'info', message, detail: checked.state === 'failed' ? checked.message : '' });
}

function applicationMenu(host: Promise<DesktopHost>, updates: UpdateChecker | undefined): Menu {
  const act = (what: string, action: () => Promise<unknown>) => (): void => {
    action().catch((error: unknown) => {
      log(`${what} failed`, error);
      dialog.showErrorBox(`${what} failed`, error instanceof Error ? error.message : String(error));
    });
  };
  app.setAboutPanelOptions({ applicationName: 'Circularity Desk', applicationVersion: app.getVersion(), version: `Electron ${process.versions.electron}` });
  const template = applicationMenuTemplate({
    platform: process.platform,
    appName: 'Circularity Desk',
    updatesAvailable: updates !== undefined,
    actions: {
      about: () => app.showAboutPanel(),
      openHelp: act('Opening the help', openHelp),
      openLogs: act('Opening the logs folder', async () => (await host).handlers['app:open-logs']({})),
      exportDiagnostics: act('Exporting diagnostics', async () => {
        const saved = await (await host).handlers['app:export-diagnostics']({});
        if (saved.path !== null) shell.showItemInFolder(saved.path);
      }),
      checkForUpdates: act('Checking for updates', async () => {
        if (updates !== undefined) await checkForUpdatesFromMenu(updates);
      }),
      quit: () => app.quit(),
    },
  });
  return Menu.buildFromTemplate(template);
}

/** Asks whether to wait for a window that does not answer or to reload it. */
async function askWaitOrReload(window: BrowserWindow): Promise<UnresponsiveChoice> {
  const { response } = await dialog.showMessageBox(window, {
    type: 'warning',
    buttons: ['Wait', 'Reload'],
    defaultId: 0,
    cancelId: 0,
    message: 'Circularity Desk does not respond',
    detail: 'Wait for it to finish what it is doing, or reload the window. Uploads and drop folders go on either way.',
  });
  return response === 1 ? 'reload' : 'wait';
}

let mainWindow: BrowserWindow | undefined;
let windowState: WindowStateTracker | undefined;

async function createWindow(): Promise<BrowserWindow> {
  const stateFile = windowStateFile(app.getPath('userData'));
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((display) => display.id !== primary.id);
  const placement = fitWindowState(await loadWindowState(stateFile), [primary, ...others].map((display) => display.workArea));
  const window = new BrowserWindow({
    x: placement.x,
    y: placement.y,
    width: placement.width,
    height: placement.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'Circularity Desk',
    backgroundColor: '#ffffff',
    webPreferences: {
      preload: PRELOAD_FILE, // eng-disable PRELOAD_JS_CHECK (our own bundled preload, sandboxed)
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      experimentalFeatures: false,
      // A middle click would otherwise open a link in a new window (which the window-open handler then denies).
      disableBlinkFeatures: 'Auxclick',
      safeDialogs: true,
      // Chromium's spellchecker downloads its dictionaries from Google on Linux; Windows and macOS use the OS's own.
      spellcheck: process.platform !== 'linux',
      devTools: !app.isPackaged,
    },
  });
  if (placement.maximized) window.maximize();
  windowState = trackWindowState(window, stateFile, { log });
  hideOnClose(window, {
    backgroundWork: () => runningHost !== undefined && hasBackgroundWork(runningHost.status()),
    quitting: () => quitting,
    onHidden: tellAboutTrayOnce,
  });
  window.once('ready-to-show', () => window.show());
  recoverWindowContents({ contents: window.webContents, askWaitOrReload: () => askWaitOrReload(window), log });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = undefined;
  });
  mainWindow = window;
  await window.loadURL(APP_ENTRY_URL);
  return window;
}

function showWindow(): void {
  if (mainWindow === undefined || mainWindow.isDestroyed()) {
    createWindow().catch((error: unknown) => log('Opening the window failed', error));
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/** The first time the window goes to the tray, a notification says the app keeps running there. */
function tellAboutTrayOnce(): void {
  firstHideToTray(backgroundStateFile(app.getPath('userData')))
    .then((first) => {
      if (first) showNativeNotice({ kind: 'info', title: TRAY_NOTICE.title, message: TRAY_NOTICE.body });
    })
    .catch((error: unknown) => log('Remembering that the tray was explained failed', error));
}

function trayIcon(): Electron.NativeImage {
  // nativeImage picks tray@2x.png beside it on high-density displays.
  return nativeImage.createFromPath(path.join(ELECTRON_DIR, 'tray.png'));
}

function startTray(host: DesktopHost, quit: () => void): () => void {
  const tray = new Tray(trayIcon());
  const run = (action: TrayAction): void => {
    switch (action) {
      case 'open':
        showWindow();
        return;
      case 'restart-local':
        host.handlers['local:restart']({}).catch((error: unknown) => log('Restarting the Local workspace failed', error));
        return;
      case 'quit':
        quit();
        return;
    }
  };
  const refresh = (): void => {
    const view = trayView(host.status());
    tray.setToolTip(view.tooltip);
    tray.setContextMenu(
      Menu.buildFromTemplate(
        view.items.map((item): MenuItemConstructorOptions => {
          switch (item.kind) {
            case 'label':
              return { label: item.label, enabled: false };
            case 'separator':
              return { type: 'separator' };
            case 'action':
              return { label: item.label, click: () => run(item.action) };
          }
        }),
      ),
    );
  };
  tray.on('click', showWindow);
  refresh();
  // Uploads and requests report their progress several times a second, and counting the uploads reads the drop
  // folders' ledgers: the tray is rebuilt at most once a second for them.
  let pending: ReturnType<typeof setTimeout> | undefined;
  const refreshSoon = (): void => {
    pending ??= setTimeout(() => {
      pending = undefined;
      refresh();
    }, 1_000);
  };
  const stop = host.onEvent((event) => {
    if (event === 'local:status-changed') refresh();
    if (event === 'http:activity' || event === 'uploads:changed' || event === 'dropfolders:changed' || event === 'passports:changed') refreshSoon();
  });
  return () => {
    clearTimeout(pending);
    stop();
    tray.destroy();
  };
}

async function run(): Promise<void> {
  await openLog();
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  hardenSession();
  protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_DIR));
  const updates = updateChecker();

  const userDataDir = app.getPath('userData');
  let windowCreated: () => void = () => undefined;
  const windowOpened = new Promise<void>((resolve) => {
    windowCreated = resolve;
  });
  const hostReady = FileVault.open(path.join(userDataDir, 'vault.json'), safeStorageCipher(safeStorage, process.platform)).then(async (vault) => {
    if (vault.setAside !== undefined) log(`The key vault could not be read and was moved aside to ${vault.setAside}.`);
    const proxy = await startProxyControl({ userDataDir, session: session.defaultSession, log });
    const host = await startDesktopHost({
      userDataDir,
      host: 'electron',
      version: app.getVersion(),
      vault,
      startLocalServer: launchUtilityServer,
      openExternal: openExternalSafely,
      openPath: openPathWithSystem,
      chooseFolder,
      chooseFiles,
      chooseSaveTarget,
      confirmMigration,
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
      fetch: sendingStreamsOverNodeHttp(sessionFetch, notLoopbackHttp),
      proxy,
    });
    runningHost = host;
    // Before the window's first calls are answered, so that its first screen shows the connection of --connect.
    await launchRequests.ready({
      provision: (request) => provisionFromCommandLine(host, request),
      openFiles: async (paths) => {
        await host.openFiles(paths);
        void windowOpened.then(showWindow);
      },
      log,
    });
    return host;
  });
  // The window opens while the services (and the Local workspace server) start; its first calls wait for them.
  const handlersReady = hostReady.then((host) => host.handlers);
  handlersReady.catch(() => undefined);
  Menu.setApplicationMenu(applicationMenu(hostReady, updates));
  const fromOurWindow: SenderCheck = (event) => mainWindow !== undefined && trustedSenderCheck(mainWindow, APP_ORIGIN)(event);
  const unregister = registerBridgeHandlers(ipcMain, handlersReady, fromOurWindow, log);
  const unregisterDroppedFiles = registerDroppedFilesHandler(ipcMain, async (paths) => (await hostReady).registerDroppedFiles(paths), fromOurWindow, log);
  app.on('activate', showWindow);
  await createWindow();
  windowCreated();
  const host = await hostReady;
  const stopEvents = host.onEvent(bridgeEventSender(() => mainWindow?.webContents));
  const stopNotices = host.onEvent((event, payload) => {
    if (event === 'notice') showNativeNotice(payload as Notice);
  });

  let quitState: 'running' | 'closing' | 'closed' = 'running';
  const stopTray = startTray(host, () => app.quit());
  app.on('before-quit', (event) => {
    if (quitState === 'closed') return;
    event.preventDefault();
    if (quitState === 'closing') return;
    quitState = 'closing';
    mainWindow?.hide();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, QUIT_TIMEOUT_MS).unref());
    const closing = (async () => {
      await windowState?.flush();
      stopTray();
      updates?.stop();
      stopEvents();
      stopNotices();
      unregister();
      unregisterDroppedFiles();
      await host.close();
    })();
    Promise.race([closing, timeout])
      .catch((error: unknown) => log('Closing the app failed', error))
      .finally(() => {
        quitState = 'closed';
        app.quit();
      });
  });
  app.on('window-all-closed', () => {
    if (quitsWhenAllWindowsClosed(process.platform)) app.quit();
  });

  updates?.start();
}

if (app.requestSingleInstanceLock()) {
  app.on('second-instance', (_event, argv, workingDirectory) => {
    showWindow();
    void launchRequests.commandLine(argv, workingDirectory);
  });
  // macOS hands files opened with the app (the Finder, the Dock) here, also before `ready` for the file that started it.
  app.on('open-file', (event, filePath) => {
    event.preventDefault();
    void launchRequests.openFile(filePath);
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  // On macOS an update closes the windows before the app quits: they must close then, not hide to the tray.
  nativeAutoUpdater.on('before-quit-for-update', () => {
    quitting = true;
  });
  void launchRequests.commandLine(process.argv, process.cwd());
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('child-process-gone', (_event, details) => log(childProcessGoneMessage(details)));
  app
    .whenReady()
    .then(run)
    .catch((error: unknown) => {
      log('Circularity Desk could not start', error);
      dialog.showErrorBox('Circularity Desk could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
} else {
  // Another instance runs; it has been told (second-instance) and shows its window.
  app.quit();
}
