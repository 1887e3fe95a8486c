/** Updates of a packaged app: the checker of its https feed, and what *Check for Updates…* of the menu says. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppUpdater } from 'electron-updater';
import { UpdateChecker } from '../update-checker';
import { updateFeedOf, type UpdateFeed } from '../update-feed';
import type { ElectronApi } from './electron-api';
import { log } from './main-log';

/** The update feed electron-builder wrote into the app's resources, if any. */
function packagedUpdateFeed(): UpdateFeed {
  const file = path.join(process.resourcesPath, 'app-update.yml');
  return updateFeedOf(existsSync(file) ? readFileSync(file, 'utf8') : undefined);
}

/** The update checker of an app with an https update feed; none otherwise (a build without updates, or an insecure feed). */
export function updateChecker(app: ElectronApi['app'], autoUpdater: AppUpdater): UpdateChecker | undefined {
  const feed: UpdateFeed = app.isPackaged ? packagedUpdateFeed() : { kind: 'none' };
  if (feed.kind === 'insecure') log(`The update feed ${feed.url} is not an https address: updates are not checked.`);
  if (feed.kind !== 'https') return undefined;
  autoUpdater.logger = { info: (message) => log(String(message)), warn: (message) => log(String(message)), error: (message) => log(String(message)) };
  return new UpdateChecker({ updater: autoUpdater, log });
}

/** *Check for updates* of the menu: the header shows a download; the other outcomes are said here. */
export async function checkForUpdatesFromMenu({ app, dialog }: ElectronApi, updates: UpdateChecker): Promise<void> {
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
