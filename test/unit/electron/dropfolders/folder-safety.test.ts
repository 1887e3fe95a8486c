import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWithinFolder, unsafeDropFolderReason } from '../../../../electron/dropfolders/folder-safety';

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

describe('unsafeDropFolderReason', () => {
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

describe('isWithinFolder', () => {
  it('ignores case on Windows and macOS only', () => {
    expect(isWithinFolder('C:\\Data', 'c:\\data\\drop', 'win32')).toBe(true);
    expect(isWithinFolder('/Users/Ann', '/users/ann/drop', 'darwin')).toBe(true);
    expect(isWithinFolder('/home/Ann', '/home/ann/drop', 'linux')).toBe(false);
    expect(isWithinFolder('/home/ann', '/home/anna', 'linux')).toBe(false);
  });
});
