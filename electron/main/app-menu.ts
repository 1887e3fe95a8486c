/** The application menu of the template in `application-menu.ts`, its items wired to the host and the updates. */
import type { Menu } from 'electron';
import { applicationMenuTemplate } from '../application-menu';
import type { DesktopHost } from '../desktop';
import type { UpdateChecker } from '../update-checker';
import type { ElectronApi } from './electron-api';
import { log } from './main-log';
import { openHelp } from './system-shell';
import { checkForUpdatesFromMenu } from './updates';

export function applicationMenu(electron: ElectronApi, host: Promise<DesktopHost>, updates: UpdateChecker | undefined): Menu {
  const { app, dialog, shell } = electron;
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
      openHelp: act('Opening the help', () => openHelp(electron)),
      openLogs: act('Opening the logs folder', async () => (await host).handlers['app:open-logs']({})),
      exportDiagnostics: act('Exporting diagnostics', async () => {
        const saved = await (await host).handlers['app:export-diagnostics']({});
        if (saved.path !== null) shell.showItemInFolder(saved.path);
      }),
      checkForUpdates: act('Checking for updates', async () => {
        if (updates !== undefined) await checkForUpdatesFromMenu(electron, updates);
      }),
      quit: () => app.quit(),
    },
  });
  return electron.Menu.buildFromTemplate(template);
}
