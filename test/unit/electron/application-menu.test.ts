/** The application menu's template on each platform, built without Electron. */
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { applicationMenuTemplate, type ApplicationMenuActions } from '../../../electron/application-menu';

function menu(platform: NodeJS.Platform, updatesAvailable = true) {
  const clicked: string[] = [];
  const action = (name: keyof ApplicationMenuActions) => () => clicked.push(name);
  const template = applicationMenuTemplate({
    platform,
    appName: 'Circularity Desk',
    updatesAvailable,
    actions: {
      about: action('about'),
      openHelp: action('openHelp'),
      openLogs: action('openLogs'),
      exportDiagnostics: action('exportDiagnostics'),
      checkForUpdates: action('checkForUpdates'),
      quit: action('quit'),
    },
  });
  return { template, clicked };
}

/** Every item of the template, submenus included. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}

function byId(template: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions | undefined {
  return items(template).find((item) => item.id === id);
}

function click(item: MenuItemConstructorOptions | undefined): void {
  (item?.click as (() => void) | undefined)?.();
}

describe('applicationMenuTemplate', () => {
  it.each(['darwin', 'win32', 'linux'] as const)('on %s has About, Help, Open logs, Export diagnostics, Check for updates and Quit, each doing its own', (platform) => {
    const { template, clicked } = menu(platform);
    const ids = ['about', 'help', 'open-logs', 'export-diagnostics', 'check-for-updates', 'quit'];
    for (const id of ids) click(byId(template, id));
    expect(clicked).toEqual(['about', 'openHelp', 'openLogs', 'exportDiagnostics', 'checkForUpdates', 'quit']);
    expect(byId(template, 'about')?.label).toBe('About Circularity Desk');
    expect(byId(template, 'help')?.label).toBe('Circularity Desk Help');
    expect(template.map((item) => item.role).filter((role) => role !== undefined)).toEqual(
      expect.arrayContaining(['editMenu', 'viewMenu', 'windowMenu', 'help']),
    );
  });

  it('puts About and Quit in the app menu on macOS, and under Help and File on Windows and Linux', () => {
    const mac = menu('darwin').template;
    expect(mac[0]?.label).toBe('Circularity Desk');
    const appMenu = mac[0]?.submenu as MenuItemConstructorOptions[];
    expect(appMenu.map((item) => item.id ?? item.role ?? item.type)).toEqual([
      'about',
      'check-for-updates',
      'separator',
      'services',
      'separator',
      'hide',
      'hideOthers',
      'unhide',
      'separator',
      'quit',
    ]);
    expect(byId(mac, 'quit')?.accelerator).toBe('Command+Q');

    const windows = menu('win32').template;
    expect(windows[0]?.label).toBe('&File');
    expect((windows[0]?.submenu as MenuItemConstructorOptions[]).map((item) => item.id)).toEqual(['quit']);
    expect(byId(windows, 'quit')?.accelerator).toBe('Ctrl+Q');
    const help = windows.find((item) => item.role === 'help')?.submenu as MenuItemConstructorOptions[];
    expect(help.map((item) => item.id ?? item.type)).toEqual(['help', 'separator', 'open-logs', 'export-diagnostics', 'separator', 'check-for-updates', 'about']);
  });

  it('greys out Check for updates in an app that has no update feed it may use', () => {
    expect(byId(menu('linux', false).template, 'check-for-updates')?.enabled).toBe(false);
    expect(byId(menu('linux', true).template, 'check-for-updates')?.enabled).toBe(true);
  });
});
