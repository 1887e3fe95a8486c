/** The tray icon: its tooltip and menu from the host's status (`tray-status.ts`), rebuilt as that status changes. */
import path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import type { DesktopHost } from '../desktop';
import { trayView, type TrayAction } from '../tray-status';
import { ELECTRON_DIR } from './app-paths';
import type { ElectronApi } from './electron-api';
import { log } from './main-log';

/** What the tray's items and a click on it do besides the host's actions. */
export interface TrayActions {
  showWindow: () => void;
  quit: () => void;
}

/** Shows the tray until the answered function removes it. */
export function startTray({ Menu, Tray, nativeImage }: ElectronApi, host: DesktopHost, { showWindow, quit }: TrayActions): () => void {
  // nativeImage picks tray@2x.png beside it on high-density displays.
  const tray = new Tray(nativeImage.createFromPath(path.join(ELECTRON_DIR, 'tray.png')));
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
