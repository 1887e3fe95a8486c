/**
 * The app's one window: made hardened, placed where it was last (on a display still there), shown again from the tray
 * or a notification, and hidden to the tray on close while the host has folders to watch, unless the user quits.
 */
import type { BrowserWindow } from 'electron';
import { APP_ENTRY_URL } from '../app-protocol';
import { TRAY_NOTICE, backgroundStateFile, firstHideToTray, hideOnClose } from '../background';
import { recoverWindowContents, type UnresponsiveChoice } from '../crash-recovery';
import { MIN_WINDOW_SIZE, fitWindowState, loadWindowState, trackWindowState, windowStateFile, type WindowStateTracker } from '../window-state';
import { PRELOAD_FILE } from './app-paths';
import type { ElectronApi } from './electron-api';
import { log } from './main-log';
import type { ShowNativeNotice } from './native-notices';

/** Asks whether to wait for a window that does not answer or to reload it. */
async function askWaitOrReload(electron: ElectronApi, window: BrowserWindow): Promise<UnresponsiveChoice> {
  const { response } = await electron.dialog.showMessageBox(window, {
    type: 'warning',
    buttons: ['Wait', 'Reload'],
    defaultId: 0,
    cancelId: 0,
    message: 'Circularity Desk does not respond',
    detail: 'Wait for it to finish what it is doing, or reload the window. Uploads and drop folders go on either way.',
  });
  return response === 1 ? 'reload' : 'wait';
}

/** The window's lifetime: at most one at a time, made anew when it is asked for after it was closed. */
export class MainWindow {
  readonly #electron: ElectronApi;
  readonly #showNotice: ShowNativeNotice;
  #window: BrowserWindow | undefined;
  #state: WindowStateTracker | undefined;
  /** Set once the user quits (tray, menu, shortcut, the system's shutdown): the window then closes instead of hiding. */
  #quitting = false;
  #backgroundWork: () => boolean = () => false;

  constructor(electron: ElectronApi, showNotice: ShowNativeNotice) {
    this.#electron = electron;
    this.#showNotice = showNotice;
  }

  /** The window, unless there is none or it was destroyed. */
  get current(): BrowserWindow | undefined {
    return this.#window !== undefined && !this.#window.isDestroyed() ? this.#window : undefined;
  }

  /** The window closes from now on instead of hiding to the tray. */
  markQuitting(): void {
    this.#quitting = true;
  }

  /** Closing the window hides it to the tray while `check` answers true. */
  hideToTrayWhile(check: () => boolean): void {
    this.#backgroundWork = check;
  }

  /** Writes the window's size and place now (the tracker writes them a moment after each change otherwise). */
  async flushState(): Promise<void> {
    await this.#state?.flush();
  }

  async create(): Promise<BrowserWindow> {
    const { app, screen, BrowserWindow } = this.#electron;
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
    this.#state = trackWindowState(window, stateFile, { log });
    hideOnClose(window, {
      backgroundWork: () => this.#backgroundWork(),
      quitting: () => this.#quitting,
      onHidden: () => this.#tellAboutTrayOnce(),
    });
    window.once('ready-to-show', () => window.show());
    recoverWindowContents({ contents: window.webContents, askWaitOrReload: () => askWaitOrReload(this.#electron, window), log });
    window.on('closed', () => {
      if (this.#window === window) this.#window = undefined;
    });
    this.#window = window;
    await window.loadURL(APP_ENTRY_URL);
    return window;
  }

  /** Shows the window, made anew when it was closed. */
  show(): void {
    const window = this.#window;
    if (window === undefined || window.isDestroyed()) {
      this.create().catch((error: unknown) => log('Opening the window failed', error));
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  }

  /** The first time the window goes to the tray, a notification says the app keeps running there. */
  #tellAboutTrayOnce(): void {
    firstHideToTray(backgroundStateFile(this.#electron.app.getPath('userData')))
      .then((first) => {
        if (first) this.#showNotice({ kind: 'info', title: TRAY_NOTICE.title, message: TRAY_NOTICE.body }, () => this.show());
      })
      .catch((error: unknown) => log('Remembering that the tray was explained failed', error));
  }
}
