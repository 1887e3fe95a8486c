/**
 * Running in the background, as file-sync apps do: while drop folders or passport folders are set, closing the window
 * hides it and the app keeps watching, uploading and saving passports from the tray; the first time, the user is told.
 * Without such folders closing the window ends the app on Windows and Linux, and on macOS the app stays in the Dock
 * as every macOS app does. Plain decisions, so main.ts only wires Electron's events to them.
 */
import path from 'node:path';
import { Type } from 'typebox';
import { readJsonFile, writeJsonFile } from './json-file';

/** What a close of the window does: hide it (the app keeps running in the tray), or let it close. */
export type CloseAction = 'hide' | 'close';

/** What the close decision looks at. */
export interface CloseSituation {
  /** Drop folders or passport folders are set: there is work that goes on without the window. */
  backgroundWork: boolean;
  /** The user quit (tray, menu, shortcut, system shutdown): the window closes whatever else holds. */
  quitting: boolean;
}

/** Hides the window while there is background work, unless the app is quitting. */
export function closeAction(situation: CloseSituation): CloseAction {
  return situation.backgroundWork && !situation.quitting ? 'hide' : 'close';
}

/** The part of a BrowserWindow the close handling needs. */
export interface HideableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): void;
  hide(): void;
}

/** What the close handling asks of the app. */
export interface HideOnCloseContext {
  backgroundWork(): boolean;
  quitting(): boolean;
  /** The window was hidden instead of closed (the tray keeps the app). */
  onHidden(): void;
}

/** Makes a close of `window` hide it while `closeAction` says so. */
export function hideOnClose(window: HideableWindow, context: HideOnCloseContext): void {
  window.on('close', (event) => {
    if (closeAction({ backgroundWork: context.backgroundWork(), quitting: context.quitting() }) === 'close') return;
    event.preventDefault();
    window.hide();
    context.onHidden();
  });
}

/** Whether the app ends its last window is closed: on Windows and Linux yes, on macOS it stays in the Dock. */
export function quitsWhenAllWindowsClosed(platform: NodeJS.Platform): boolean {
  return platform !== 'darwin';
}

/** Whether drop folders or passport folders are set, whose work goes on without the window. */
export function hasBackgroundWork(status: { dropFolders: number; passportFolders: number }): boolean {
  return status.dropFolders > 0 || status.passportFolders > 0;
}

/** What the user is told the first time the window goes to the tray. */
export const TRAY_NOTICE = {
  title: 'Circularity Desk keeps running',
  body: 'Your drop folders and passport folders are still watched. Open the app from its icon in the tray (the menu bar on macOS); Quit there ends it.',
} as const;

const BackgroundDocument = Type.Object({ toldAboutTray: Type.Boolean() });

/** The file in the user-data folder that remembers whether the user was told the app stays in the tray. */
export function backgroundStateFile(userDataDir: string): string {
  return path.join(userDataDir, 'background.json');
}

/**
 * Answers true once, the first time the window is hidden to the tray, and remembers that in `file`; an unreadable
 * file counts as not told (one message too many is better than none).
 */
export async function firstHideToTray(file: string): Promise<boolean> {
  const read = await readJsonFile(file, BackgroundDocument);
  if (read.kind === 'ok' && read.value.toldAboutTray) return false;
  await writeJsonFile(file, { toldAboutTray: true });
  return true;
}
