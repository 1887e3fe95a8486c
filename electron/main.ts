/**
 * The Electron main process: one hardened window showing the renderer from `app://renderer/`, the Bridge over IPC,
 * the tray, updates, and the desktop services of desktop.ts. Bundled to `dist/electron/main.cjs`, next to the
 * preload; the built renderer is in `dist/renderer/` and the embedded server in `dist/server/`. The parts of the shell
 * are in `main/` and receive Electron from here; this file wires them to the app's lifecycle.
 */
import * as electron from 'electron';
import { autoUpdater } from 'electron-updater';
import type { Notice } from '../shared/ipc';
import { APP_ORIGIN, APP_SCHEME, createAppProtocolHandler } from './app-protocol';
import { quitsWhenAllWindowsClosed } from './background';
import { childProcessGoneMessage } from './crash-recovery';
import { registerDroppedFilesHandler } from './dropped-files';
import { bridgeEventSender, registerBridgeHandlers, trustedSenderCheck, type SenderCheck } from './ipc';
import { userDataDirOf } from './launch-arguments';
import { LaunchRequests } from './launch-requests';
import { applicationMenu } from './main/app-menu';
import { RENDERER_DIR } from './main/app-paths';
import { closeBeforeQuit } from './main/graceful-quit';
import { hardenSession, hardenWebContents } from './main/hardening';
import { log, openLog } from './main/main-log';
import { MainWindow } from './main/main-window';
import { nativeNotices } from './main/native-notices';
import { startHost } from './main/start-host';
import { startTray } from './main/tray';
import { updateChecker } from './main/updates';

const { app, autoUpdater: nativeAutoUpdater, crashReporter, dialog, ipcMain, protocol } = electron;

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

/** What launches of the app asked for (this one's command line, a second launch's, macOS open-file), acted on once the host runs. */
const launchRequests = new LaunchRequests();
const showNativeNotice = nativeNotices(electron);
const mainWindow = new MainWindow(electron, showNativeNotice);
const showWindow = (): void => mainWindow.show();

async function run(): Promise<void> {
  await openLog(app.getPath('logs'));
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  hardenSession(electron.session.defaultSession);
  protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_DIR));
  const updates = updateChecker(app, autoUpdater);

  let windowCreated: () => void = () => undefined;
  const windowOpened = new Promise<void>((resolve) => {
    windowCreated = resolve;
  });
  const hostReady = startHost(electron, { updates, window: mainWindow, launchRequests, windowOpened });
  // The window opens while the services (and the Local workspace server) start; its first calls wait for them.
  const handlersReady = hostReady.then((host) => host.handlers);
  handlersReady.catch(() => undefined);
  electron.Menu.setApplicationMenu(applicationMenu(electron, hostReady, updates));
  const fromOurWindow: SenderCheck = (event) => {
    const window = mainWindow.current;
    return window !== undefined && trustedSenderCheck(window, APP_ORIGIN)(event);
  };
  const unregister = registerBridgeHandlers(ipcMain, handlersReady, fromOurWindow, log);
  const unregisterDroppedFiles = registerDroppedFilesHandler(ipcMain, async (paths) => (await hostReady).registerDroppedFiles(paths), fromOurWindow, log);
  app.on('activate', showWindow);
  await mainWindow.create();
  windowCreated();
  const host = await hostReady;
  const stopEvents = host.onEvent(bridgeEventSender(() => mainWindow.current?.webContents));
  const stopNotices = host.onEvent((event, payload) => {
    if (event === 'notice') showNativeNotice(payload as Notice, showWindow);
  });

  const stopTray = startTray(electron, host, { showWindow, quit: () => app.quit() });
  closeBeforeQuit(
    app,
    () => mainWindow.current?.hide(),
    async () => {
      await mainWindow.flushState();
      stopTray();
      updates?.stop();
      stopEvents();
      stopNotices();
      unregister();
      unregisterDroppedFiles();
      await host.close();
    },
  );
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
  app.on('before-quit', () => mainWindow.markQuitting());
  // On macOS an update closes the windows before the app quits: they must close then, not hide to the tray.
  nativeAutoUpdater.on('before-quit-for-update', () => mainWindow.markQuitting());
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
