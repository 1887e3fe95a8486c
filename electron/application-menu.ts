/**
 * The application menu as plain data: Electron's roles for editing, view and windows, and the app's own items (About,
 * Help, Open logs folder, Export diagnostics, Check for updates, Quit), laid out as each platform expects. main.ts
 * only hands the template to `Menu.buildFromTemplate`.
 */
import type { MenuItemConstructorOptions } from 'electron';

/** What the app's own menu items do. */
export interface ApplicationMenuActions {
  about: () => void;
  openHelp: () => void;
  openLogs: () => void;
  exportDiagnostics: () => void;
  checkForUpdates: () => void;
  quit: () => void;
}

/** What the menu is built for. */
export interface ApplicationMenuContext {
  platform: NodeJS.Platform;
  appName: string;
  /** False when the app has no update feed it may use: *Check for updates* is then greyed out. */
  updatesAvailable: boolean;
  actions: ApplicationMenuActions;
}

/** The menu's template; macOS gets its app menu with About and Quit, Windows and Linux find them under File and Help. */
export function applicationMenuTemplate(context: ApplicationMenuContext): MenuItemConstructorOptions[] {
  const { actions, appName } = context;
  const mac = context.platform === 'darwin';
  const about: MenuItemConstructorOptions = { id: 'about', label: `About ${appName}`, click: actions.about };
  const checkForUpdates: MenuItemConstructorOptions = {
    id: 'check-for-updates',
    label: 'Check for Updates…',
    enabled: context.updatesAvailable,
    click: actions.checkForUpdates,
  };
  const help: MenuItemConstructorOptions[] = [
    { id: 'help', label: `${appName} Help`, click: actions.openHelp },
    { type: 'separator' },
    { id: 'open-logs', label: 'Open Logs Folder', click: actions.openLogs },
    { id: 'export-diagnostics', label: 'Export Diagnostics…', click: actions.exportDiagnostics },
  ];
  if (mac) {
    return [
      {
        label: appName,
        submenu: [
          about,
          checkForUpdates,
          { type: 'separator' },
          { role: 'services' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          { id: 'quit', label: `Quit ${appName}`, accelerator: 'Command+Q', click: actions.quit },
        ],
      },
      { role: 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
      { role: 'help', submenu: help },
    ];
  }
  return [
    { label: '&File', submenu: [{ id: 'quit', label: 'Quit', accelerator: 'Ctrl+Q', click: actions.quit }] },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    { role: 'help', submenu: [...help, { type: 'separator' }, checkForUpdates, about] },
  ];
}
