import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backgroundStateFile, closeAction, firstHideToTray, hasBackgroundWork, hideOnClose, quitsWhenAllWindowsClosed } from '../../../electron/background';

describe('closeAction', () => {
  it('hides the window while drop or passport folders are set', () => {
    expect(closeAction({ backgroundWork: true, quitting: false })).toBe('hide');
  });

  it('closes it without background work, and always when the user quits', () => {
    expect(closeAction({ backgroundWork: false, quitting: false })).toBe('close');
    expect(closeAction({ backgroundWork: true, quitting: true })).toBe('close');
    expect(closeAction({ backgroundWork: false, quitting: true })).toBe('close');
  });
});

describe('quitsWhenAllWindowsClosed', () => {
  it('ends the app on Windows and Linux, and keeps it in the Dock on macOS', () => {
    expect(quitsWhenAllWindowsClosed('win32')).toBe(true);
    expect(quitsWhenAllWindowsClosed('linux')).toBe(true);
    expect(quitsWhenAllWindowsClosed('darwin')).toBe(false);
  });
});

describe('hasBackgroundWork', () => {
  it('counts drop folders and passport folders alike', () => {
    expect(hasBackgroundWork({ dropFolders: 0, passportFolders: 0 })).toBe(false);
    expect(hasBackgroundWork({ dropFolders: 1, passportFolders: 0 })).toBe(true);
    expect(hasBackgroundWork({ dropFolders: 0, passportFolders: 2 })).toBe(true);
  });
});

describe('firstHideToTray', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'background-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers true the first time only, also after a restart', async () => {
    const file = backgroundStateFile(dir);
    expect(await firstHideToTray(file)).toBe(true);
    expect(await firstHideToTray(file)).toBe(false);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ toldAboutTray: true });
    expect(await firstHideToTray(backgroundStateFile(dir))).toBe(false);
  });

  it('tells again when its file cannot be read', async () => {
    const file = backgroundStateFile(dir);
    await writeFile(file, '{ not json');
    expect(await firstHideToTray(file)).toBe(true);
    expect(await firstHideToTray(file)).toBe(false);
  });
});

/** A BrowserWindow as far as closing goes: `close()` is the user's click on the window's close button. */
class FakeWindow {
  readonly #listeners: ((event: { preventDefault(): void }) => void)[] = [];
  visible = true;
  closed = false;
  on(_event: 'close', listener: (event: { preventDefault(): void }) => void): void {
    this.#listeners.push(listener);
  }
  hide(): void {
    this.visible = false;
  }
  close(): void {
    let prevented = false;
    for (const listener of this.#listeners) listener({ preventDefault: () => (prevented = true) });
    if (!prevented) this.closed = true;
  }
}

describe('hideOnClose', () => {
  function wired(state: { backgroundWork: boolean; quitting: boolean }) {
    const window = new FakeWindow();
    let hidden = 0;
    hideOnClose(window, { backgroundWork: () => state.backgroundWork, quitting: () => state.quitting, onHidden: () => (hidden += 1) });
    return { window, hidden: () => hidden };
  }

  it('hides the window to the tray while folders are set, and reports that it did', () => {
    const { window, hidden } = wired({ backgroundWork: true, quitting: false });
    window.close();
    expect(window).toMatchObject({ visible: false, closed: false });
    expect(hidden()).toBe(1);
  });

  it('lets the window close without folders', () => {
    const { window, hidden } = wired({ backgroundWork: false, quitting: false });
    window.close();
    expect(window.closed).toBe(true);
    expect(hidden()).toBe(0);
  });

  it('looks at the folders at the moment of closing, and lets a quit close the window', () => {
    const state = { backgroundWork: false, quitting: false };
    const { window, hidden } = wired(state);
    state.backgroundWork = true;
    state.quitting = true;
    window.close();
    expect(window.closed).toBe(true);
    expect(hidden()).toBe(0);
  });
});
