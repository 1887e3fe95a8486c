import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autostartDir, autostartEntry, execArgument, startAtLogin, type LoginItemApi } from '../../../electron/start-at-login';

/** Electron's login items, which cannot run here: what was set is what is read back. */
class FakeLoginItems implements LoginItemApi {
  openAtLogin = false;
  calls: { openAtLogin: boolean; args?: string[] }[] = [];
  readArgs: (string[] | undefined)[] = [];
  getLoginItemSettings(options?: { args?: string[] }): { openAtLogin: boolean } {
    this.readArgs.push(options?.args);
    return { openAtLogin: this.openAtLogin };
  }
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void {
    this.calls.push(settings);
    this.openAtLogin = settings.openAtLogin;
  }
}

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'start-at-login-'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function options(platform: NodeJS.Platform, loginItems: LoginItemApi, env: NodeJS.ProcessEnv = {}, args: string[] = []) {
  return { platform, loginItems, executable: '/opt/Circularity Desk/circularity-desk', args, entryName: 'circularity-desk', displayName: 'Circularity Desk', env, homeDir: home };
}

describe('startAtLogin on Windows and macOS', () => {
  it.each(['win32', 'darwin'] as const)('uses Electron’s login items on %s and writes no file', async (platform) => {
    const items = new FakeLoginItems();
    const setting = startAtLogin(options(platform, items));
    expect(await setting.enabled()).toBe(false);
    await setting.set(true);
    expect(items.calls).toEqual([{ openAtLogin: true }]);
    expect(await setting.enabled()).toBe(true);
    await setting.set(false);
    expect(await setting.enabled()).toBe(false);
    await expect(stat(path.join(home, '.config'))).rejects.toThrow();
  });

  it('gives a development run’s arguments when setting and reading the login item', async () => {
    const items = new FakeLoginItems();
    const setting = startAtLogin(options('win32', items, {}, ['C:\\work\\desk']));
    await setting.set(true);
    expect(await setting.enabled()).toBe(true);
    expect(items.calls).toEqual([{ openAtLogin: true, args: ['C:\\work\\desk'] }]);
    expect(items.readArgs).toEqual([['C:\\work\\desk']]);
  });
});

describe('startAtLogin on Linux', () => {
  it('writes and removes a desktop entry in ~/.config/autostart, never touching login items', async () => {
    const items = new FakeLoginItems();
    const setting = startAtLogin(options('linux', items));
    const file = path.join(home, '.config', 'autostart', 'circularity-desk.desktop');
    expect(await setting.enabled()).toBe(false);
    await setting.set(true);
    expect(await setting.enabled()).toBe(true);
    const entry = await readFile(file, 'utf8');
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Circularity Desk\n');
    expect(entry).toContain('Exec="/opt/Circularity Desk/circularity-desk"\n');
    await setting.set(false);
    expect(await setting.enabled()).toBe(false);
    await expect(stat(file)).rejects.toThrow();
    await setting.set(false);
    expect(items.calls).toEqual([]);
  });

  it('follows an absolute XDG_CONFIG_HOME', async () => {
    const configHome = path.join(home, 'xdg');
    const setting = startAtLogin(options('linux', new FakeLoginItems(), { XDG_CONFIG_HOME: configHome }));
    await setting.set(true);
    expect((await stat(path.join(configHome, 'autostart', 'circularity-desk.desktop'))).isFile()).toBe(true);
  });

  it('ignores a relative XDG_CONFIG_HOME, as the spec says', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: 'relative' }, '/home/ann')).toBe('/home/ann/.config/autostart');
    expect(autostartDir({}, '/home/ann')).toBe('/home/ann/.config/autostart');
  });
});

describe('execArgument', () => {
  it('leaves a plain path as it is and quotes one with spaces or special characters, escaping them', () => {
    expect(execArgument('/usr/bin/circularity-desk')).toBe('/usr/bin/circularity-desk');
    expect(execArgument('/home/ann/Apps/Desk $1 "new".AppImage')).toBe('"/home/ann/Apps/Desk \\$1 \\"new\\".AppImage"');
  });

  it('puts the quoted program and its arguments in the entry', () => {
    expect(autostartEntry('/a b/c', [], 'Desk')).toContain('Exec="/a b/c"\n');
    expect(autostartEntry('/usr/lib/electron/electron', ['/home/ann/work desk'], 'Desk')).toContain('Exec=/usr/lib/electron/electron "/home/ann/work desk"\n');
  });
});
