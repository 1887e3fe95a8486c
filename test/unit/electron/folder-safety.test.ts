import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWithinFolder, unsafeFolderReason, type FolderSafetyContext } from '../../../electron/folder-safety';

let root: string;
let home: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'cd-folder-safety-')));
  home = path.join(root, 'home');
  await mkdir(path.join(home, 'exports'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Why a folder may not be a drop folder, or null. */
function unsafeDropFolderReason(folder: string, context: FolderSafetyContext): Promise<string | null> {
  return unsafeFolderReason(folder, 'drop', context);
}

describe('unsafeFolderReason for drop folders', () => {
  it('takes a folder made for the exports', async () => {
    expect(await unsafeDropFolderReason(path.join(home, 'exports'), { passportFolders: [], home })).toBeNull();
  });

  it('refuses the home folder, a folder that holds it, and either reached through a symbolic link', async () => {
    await symlink(home, path.join(root, 'home-link'));
    expect(await unsafeDropFolderReason(home, { passportFolders: [], home })).toMatch(/is your home folder or holds it/);
    expect(await unsafeDropFolderReason(root, { passportFolders: [], home })).toMatch(/is your home folder or holds it/);
    expect(await unsafeDropFolderReason(path.join(root, 'home-link'), { passportFolders: [], home })).toMatch(/home-link \(.*home\) is your home folder/);
    expect(await unsafeDropFolderReason(homedir(), { passportFolders: [] })).toMatch(/is your home folder or holds it/);
  });

  it('refuses the root and the system folders with what they hold', async () => {
    const context = { passportFolders: [], home, platform: 'linux' } as const;
    expect(await unsafeDropFolderReason('/', context)).toMatch(/is the root of a drive/);
    for (const folder of ['/etc', '/usr', '/usr/share/exports', '/bin', '/System/Library', '/Library']) {
      expect(await unsafeDropFolderReason(folder, context)).toMatch(/is a system folder/);
    }
  });

  it('refuses a folder that holds a passport folder, compared by real path', async () => {
    const drop = path.join(root, 'drop');
    await mkdir(path.join(drop, 'passports'), { recursive: true });
    await symlink(drop, path.join(root, 'drop-link'));
    const throughLink = path.join(root, 'drop-link', 'passports');
    expect(await unsafeDropFolderReason(drop, { passportFolders: [throughLink], home })).toMatch(/holds the passport folder .*drop-link/);
    expect(await unsafeDropFolderReason(path.join(root, 'drop-link'), { passportFolders: [path.join(drop, 'passports')], home })).toMatch(
      /holds the passport folder/,
    );
    expect(await unsafeDropFolderReason(path.join(drop, 'passports'), { passportFolders: [path.join(drop, 'passports')], home })).toMatch(
      /holds the passport folder/,
    );
    expect(await unsafeDropFolderReason(path.join(home, 'exports'), { passportFolders: [path.join(drop, 'passports')], home })).toBeNull();
  });

  it('on Windows refuses a drive root and the system folders, whatever their case', async () => {
    const context = { passportFolders: ['D:\\Passports'], home: 'C:\\Users\\Ann', platform: 'win32', env: { ProgramFiles: 'C:\\Program Files' } } as const;
    expect(await unsafeDropFolderReason('D:\\', context)).toMatch(/is the root of a drive/);
    expect(await unsafeDropFolderReason('c:\\users\\ann', context)).toMatch(/is your home folder/);
    expect(await unsafeDropFolderReason('C:\\WINDOWS\\Temp', context)).toMatch(/is a system folder/);
    expect(await unsafeDropFolderReason('c:\\program files (x86)\\Exporter', context)).toMatch(/is a system folder/);
    expect(await unsafeDropFolderReason('c:\\PROGRAMDATA', context)).toMatch(/is a system folder/);
    expect(await unsafeDropFolderReason('d:\\', context)).toMatch(/is the root of a drive/);
    expect(await unsafeDropFolderReason('D:\\PASSPORTS', context)).toMatch(/holds the passport folder/);
    expect(await unsafeDropFolderReason('C:\\Users\\Ann\\Exports', context)).toBeNull();
  });

  it('on macOS compares without regard to case', async () => {
    expect(await unsafeDropFolderReason('/library/exports', { passportFolders: [], home, platform: 'darwin' })).toMatch(/is a system folder/);
    expect(await unsafeDropFolderReason('/library/exports', { passportFolders: [], home, platform: 'linux' })).toBeNull();
  });
});

/**
 * The folders the review found accepted, and more of their kind, per platform: `folders` refused for both uses,
 * `dropOnly` (they hold the home, the app's data or a keychain) only as drop folders.
 */
const REFUSED: Readonly<Record<'linux' | 'darwin' | 'win32', { home: string; appData: string; folders: readonly string[]; dropOnly: readonly string[] }>> = {
  linux: {
    home: '/home/ann',
    appData: '/home/ann/.config/Circularity Desk',
    folders: [
      '/', '/etc', '/etc/cron.d', '/usr/local/bin', '/var/log', '/var/log/apt', '/var/lib/docker', '/tmp', '/var/tmp', '/run',
      '/run/user/1000', '/opt', '/opt/tool', '/srv', '/var', '/home', '/mnt', '/root', '/snap', '/boot/efi',
      '/home/ann/.ssh', '/home/ann/.ssh/keys', '/home/ann/.gnupg', '/home/ann/.local/share/keyrings',
      '/media/usb/backup/.ssh', '/home/ann/.config/Circularity Desk', '/home/ann/.config/Circularity Desk/local-workspace',
    ],
    dropOnly: ['/home/ann/.config', '/home/ann/.local/share', '/home/ann'],
  },
  darwin: {
    home: '/Users/ann',
    appData: '/Users/ann/Library/Application Support/Circularity Desk',
    folders: [
      '/', '/System/Library', '/Library/LaunchDaemons', '/Applications', '/private/etc', '/private/var/log', '/private/tmp',
      '/Users', '/Volumes', '/usr/local/bin', '/Users/ann/.ssh', '/users/ann/.SSH', '/Users/ann/Library/Keychains',
      '/Users/ann/.gnupg', '/Users/ann/Library/Application Support/Circularity Desk',
      '/users/ann/library/application support/circularity desk/dropfolders',
    ],
    dropOnly: ['/Users/ann/Library', '/Users/ann/Library/Application Support', '/Users/ann'],
  },
  win32: {
    home: 'C:\\Users\\Ann',
    appData: 'C:\\Users\\Ann\\AppData\\Roaming\\Circularity Desk',
    folders: [
      'C:\\', 'D:\\', 'C:\\Windows', 'c:\\windows\\System32\\Tasks', 'C:\\Program Files', 'C:\\Program Files\\Exporter',
      'C:\\Program Files (x86)\\Exporter', 'C:\\ProgramData', 'C:\\Users', 'C:\\Users\\Ann\\.ssh',
      'C:\\Users\\Ann\\AppData\\Roaming\\Microsoft\\Credentials', 'C:\\Users\\Ann\\AppData\\Roaming\\Microsoft\\Protect\\S-1-5-21',
      'C:\\Users\\Ann\\AppData\\Local\\Microsoft\\Credentials', 'C:\\Users\\Ann\\AppData\\Roaming\\Circularity Desk',
      'c:\\users\\ann\\appdata\\roaming\\circularity desk\\passports',
    ],
    dropOnly: ['C:\\Users\\Ann\\AppData\\Roaming', 'C:\\Users\\Ann'],
  },
};

/** Folders made for the exports or the passports, per platform: taken for both uses. */
const TAKEN: Readonly<Record<keyof typeof REFUSED, readonly string[]>> = {
  linux: ['/home/ann/exports', '/srv/exports', '/tmp/exports', '/mnt/share/models', '/media/usb/models', '/var/tmp/exports', '/home/ann/.config/other-app'],
  darwin: ['/Users/ann/Exports', '/Volumes/Share/Models', '/private/tmp/exports', '/Users/ann/Library/Mobile Documents/Models'],
  win32: ['C:\\Users\\Ann\\Exports', 'D:\\Models', 'C:\\Users\\Ann\\AppData\\Roaming\\Other', '\\\\server\\share\\models'],
};

describe('unsafeFolderReason for drop and passport folders alike', () => {
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    const { home, appData, folders, dropOnly } = REFUSED[platform];
    const context = { passportFolders: [], home, appDataFolder: appData, platform, env: {} };
    for (const use of ['drop', 'passport'] as const) {
      it(`refuses system folders, folders of secrets and the app's data as ${use} folders on ${platform}`, async () => {
        for (const folder of folders) {
          expect([folder, await unsafeFolderReason(folder, use, context)]).toEqual([folder, expect.stringMatching(/.+/)]);
        }
      });

      it(`takes folders made for the files as ${use} folders on ${platform}`, async () => {
        for (const folder of TAKEN[platform]) expect([folder, await unsafeFolderReason(folder, use, context)]).toEqual([folder, null]);
      });

      it(`${use === 'drop' ? 'refuses' : 'takes'} folders that hold the home, the app's data or a keychain as ${use} folders on ${platform}`, async () => {
        for (const folder of dropOnly) {
          expect([folder, await unsafeFolderReason(folder, use, context)]).toEqual([folder, use === 'drop' ? expect.stringMatching(/.+/) : null]);
        }
      });
    }
  }

  it('says why, in words of the folder’s use', async () => {
    const context = { passportFolders: [], home: '/home/ann', appDataFolder: '/home/ann/.config/Circularity Desk', platform: 'linux', env: {} } as const;
    expect(await unsafeFolderReason('/etc/cron.d', 'passport', context)).toBe('/etc/cron.d is a system folder: passports cannot be saved there. Choose a folder made for the passports.');
    expect(await unsafeFolderReason('/var/log', 'drop', context)).toBe('/var/log is a system folder: it cannot be a drop folder. Choose a folder made for the exports.');
    expect(await unsafeFolderReason('/home/ann/.ssh', 'passport', context)).toMatch(/is or lies in a folder of keys or passwords: passports cannot be saved there/);
    expect(await unsafeFolderReason('/home/ann/.config/Circularity Desk/passports', 'passport', context)).toMatch(/the app's own data folder \(\/home\/ann\/\.config\/Circularity Desk\)/);
    expect(await unsafeFolderReason('/tmp', 'drop', context)).toBe('/tmp is a folder every user of this computer shares: it cannot be a drop folder. Make a folder of your own inside it.');
    // The home folder itself may take passports; no drop folder may hold it.
    expect(await unsafeFolderReason('/home/ann', 'passport', context)).toBeNull();
    expect(await unsafeFolderReason('/home/ann', 'drop', context)).toMatch(/is your home folder/);
  });
});

describe('isWithinFolder', () => {
  it('ignores case on Windows and macOS only', () => {
    expect(isWithinFolder('C:\\Data', 'c:\\data\\drop', 'win32')).toBe(true);
    expect(isWithinFolder('/Users/Ann', '/users/ann/drop', 'darwin')).toBe(true);
    expect(isWithinFolder('/home/Ann', '/home/ann/drop', 'linux')).toBe(false);
    expect(isWithinFolder('/home/ann', '/home/anna', 'linux')).toBe(false);
  });
});
