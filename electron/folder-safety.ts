/**
 * Which folders may never be drop folders or passport folders. Everything below a drop folder is walked and its files
 * are uploaded, and passports are written into a passport folder: neither may be a drive's root, a system folder, a
 * folder of secrets (SSH and GnuPG keys, keychains) or the app's own data, or lie in one; a drop folder may not hold
 * one either, nor the user's home or a passport folder. Folders are compared by their real path, so a symbolic link or another spelling of the same
 * folder does not slip through, and without regard to case where the file system ignores it. One function serves both
 * kinds of folder, on the paths of Linux, macOS and Windows alike (`platform`).
 */
import { homedir } from 'node:os';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { assertNever } from '../shared/api/enums';

/** What a folder is chosen for. */
export type FolderUse = 'drop' | 'passport';

/** What the check compares a folder with; everything but the passport folders has a default of this machine. */
export interface FolderSafetyContext {
  /** The folders passports are saved into, which no drop folder may hold. */
  passportFolders: readonly string[];
  /** The app's user-data folder (its keys, ledgers and Local workspace), which neither kind may be, lie in or hold. */
  appDataFolder?: string;
  platform?: NodeJS.Platform;
  home?: string;
  env?: NodeJS.ProcessEnv;
}

/** System folders of Linux and macOS, refused with everything inside them. */
const POSIX_SYSTEM_TREES = [
  '/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc', '/root', '/run', '/sbin', '/snap',
  '/sys', '/usr', '/var/cache', '/var/db', '/var/lib', '/var/log', '/var/mail', '/var/root', '/var/run', '/var/spool',
  '/Applications', '/Library', '/System', '/private/etc', '/private/var/db', '/private/var/log', '/private/var/root',
] as const;

/**
 * Folders of Linux and macOS that every user shares or that hold other users' folders: refused themselves, while a
 * folder made inside them for the exports is taken.
 */
const POSIX_SHARED_FOLDERS = [
  '/home', '/media', '/mnt', '/private', '/private/tmp', '/private/var', '/srv', '/tmp', '/Users', '/var', '/var/tmp', '/Volumes',
] as const;

/** Windows' system folders, from its environment; the usual places when a variable is missing. */
function windowsSystemTrees(env: NodeJS.ProcessEnv): string[] {
  return [
    env.SystemRoot ?? env.windir ?? 'C:\\Windows',
    env.ProgramFiles ?? 'C:\\Program Files',
    env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)',
    env.ProgramW6432 ?? 'C:\\Program Files',
    env.ProgramData ?? 'C:\\ProgramData',
  ];
}

/** The folder of Windows that holds every user's profile. */
function windowsSharedFolders(env: NodeJS.ProcessEnv): string[] {
  return [`${env.SystemDrive ?? 'C:'}\\Users`];
}

/** Names of folders that hold secrets wherever they are: nothing is read from or written into them. */
const SECRET_FOLDER_NAMES: ReadonlySet<string> = new Set(['.ssh', '.gnupg', '.password-store']);

/** Folders of secrets in the user's home: keychains and the stores of keys and credentials. */
function homeSecretFolders(platform: NodeJS.Platform): string[][] {
  if (platform === 'win32') {
    return [
      ['AppData', 'Roaming', 'Microsoft', 'Credentials'],
      ['AppData', 'Roaming', 'Microsoft', 'Crypto'],
      ['AppData', 'Roaming', 'Microsoft', 'Protect'],
      ['AppData', 'Roaming', 'Microsoft', 'SystemCertificates'],
      ['AppData', 'Local', 'Microsoft', 'Credentials'],
    ];
  }
  return [['Library', 'Keychains'], ['.local', 'share', 'keyrings']];
}

/** Whether the platform's file systems ignore case (NTFS and APFS as they come). */
function ignoresCase(platform: NodeJS.Platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

function pathsOf(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** Whether `inner` is `outer` or lies inside it, on `platform`'s paths and case rules. */
export function isWithinFolder(outer: string, inner: string, platform: NodeJS.Platform = process.platform): boolean {
  const paths = pathsOf(platform);
  const fold = (folder: string): string => (ignoresCase(platform) ? folder.toLowerCase() : folder);
  const relative = paths.relative(fold(outer), fold(inner));
  return relative === '' || (!relative.startsWith('..') && !paths.isAbsolute(relative));
}

function isSameFolder(one: string, other: string, platform: NodeJS.Platform): boolean {
  return isWithinFolder(one, other, platform) && isWithinFolder(other, one, platform);
}

/** Whether either folder lies in the other (or they are one). */
function overlaps(one: string, other: string, platform: NodeJS.Platform): boolean {
  return isWithinFolder(one, other, platform) || isWithinFolder(other, one, platform);
}

/**
 * The real path of a folder: links resolved, one spelling. Of a folder that is not there (yet), the real path of its
 * nearest existing parent with the rest as given.
 */
async function realFolder(folder: string, paths: path.PlatformPath): Promise<string> {
  const resolved = paths.resolve(folder);
  const missing: string[] = [];
  for (let current = resolved; ; current = paths.dirname(current)) {
    try {
      return paths.join(await realpath(current), ...missing);
    } catch {
      if (paths.dirname(current) === current) return resolved;
      missing.unshift(paths.basename(current));
    }
  }
}

/** Whether `inner` is `outer` or lies inside it, compared by their real paths (links resolved). */
export async function isWithinByRealPath(outer: string, inner: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const paths = pathsOf(platform);
  return isWithinFolder(await realFolder(outer, paths), await realFolder(inner, paths), platform);
}

/** Whether `real` is a folder of `use` would reach into `folder`: lies in it, or (a drop folder) holds it. */
function reaches(use: FolderUse, real: string, folder: string, platform: NodeJS.Platform): boolean {
  return use === 'drop' ? overlaps(folder, real, platform) : isWithinFolder(folder, real, platform);
}

/** Whether `real` is or lies in a folder of secrets, or (a drop folder) holds one of those of the home. */
function reachesSecrets(use: FolderUse, real: string, home: string, platform: NodeJS.Platform): boolean {
  const paths = pathsOf(platform);
  const names = real.slice(paths.parse(real).root.length).split(paths.sep);
  if (names.some((name) => SECRET_FOLDER_NAMES.has(ignoresCase(platform) ? name.toLowerCase() : name))) return true;
  return homeSecretFolders(platform).some((parts) => reaches(use, real, paths.join(home, ...parts), platform));
}

/** What a refusal says the folder cannot be. */
function cannotBe(use: FolderUse): string {
  switch (use) {
    case 'drop':
      return 'it cannot be a drop folder';
    case 'passport':
      return 'passports cannot be saved there';
    default:
      return assertNever(use, 'folder use');
  }
}

/** Why `folder` may not be a folder of this use, or null when it may. */
export async function unsafeFolderReason(folder: string, use: FolderUse, context: FolderSafetyContext): Promise<string | null> {
  const platform = context.platform ?? process.platform;
  const env = context.env ?? process.env;
  const paths = pathsOf(platform);
  const real = await realFolder(folder, paths);
  const shown = real === paths.resolve(folder) ? folder : `${folder} (${real})`;
  const refused = `${cannotBe(use)}. Choose a folder made for ${use === 'drop' ? 'the exports' : 'the passports'}.`;
  if (paths.parse(real).root === real) return `${shown} is the root of a drive: ${refused}`;
  const home = await realFolder(context.home ?? homedir(), paths);
  if (use === 'drop' && isWithinFolder(real, home, platform)) {
    return `${shown} is your home folder or holds it: a drop folder there would upload everything in it. Choose a folder made for the exports.`;
  }
  const holdsToo = use === 'drop' ? ', holds' : '';
  if (context.appDataFolder !== undefined && reaches(use, real, await realFolder(context.appDataFolder, paths), platform)) {
    return `${shown} is${holdsToo} or lies in the app's own data folder (${context.appDataFolder}), with its keys and ledgers: ${refused}`;
  }
  if (reachesSecrets(use, real, home, platform)) return `${shown} is${holdsToo} or lies in a folder of keys or passwords: ${refused}`;
  const trees = platform === 'win32' ? windowsSystemTrees(env) : POSIX_SYSTEM_TREES;
  if (trees.some((system) => isWithinFolder(system, real, platform))) return `${shown} is a system folder: ${refused}`;
  const shared = platform === 'win32' ? windowsSharedFolders(env) : POSIX_SHARED_FOLDERS;
  if (shared.some((each) => isSameFolder(each, real, platform))) {
    return `${shown} is a folder every user of this computer shares: ${cannotBe(use)}. Make a folder of your own inside it.`;
  }
  if (use === 'drop') {
    for (const passportFolder of context.passportFolders) {
      if (await isWithinByRealPath(real, passportFolder, platform)) {
        return `${shown} holds the passport folder ${passportFolder}: every passport saved there would be uploaded as a new file.`;
      }
    }
  }
  return null;
}
