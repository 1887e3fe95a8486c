/**
 * Which folders may never be drop folders: everything below a drop folder is walked and its files are uploaded, so
 * the user's home, a system folder, a drive's root or a folder that holds a passport folder would send far more than
 * the user meant (or every passport again). Folders are compared by their real path, so a symbolic link or another
 * spelling of the same folder does not slip through, and without regard to case where the file system ignores it.
 */
import { homedir } from 'node:os';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** What the check compares a folder with; everything but the passport folders has a default of this machine. */
export interface FolderSafetyContext {
  /** The folders passports are saved into. */
  passportFolders: readonly string[];
  platform?: NodeJS.Platform;
  home?: string;
  env?: NodeJS.ProcessEnv;
}

/** System folders of Unix and macOS, refused with everything inside them. */
const POSIX_SYSTEM_FOLDERS = [
  '/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/sbin', '/sys', '/usr',
  '/System', '/Library', '/private/etc',
] as const;

/** Windows' system folders, from its environment; the usual places when a variable is missing. */
function windowsSystemFolders(env: NodeJS.ProcessEnv): string[] {
  return [
    env.SystemRoot ?? env.windir ?? 'C:\\Windows',
    env.ProgramFiles ?? 'C:\\Program Files',
    env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)',
    env.ProgramW6432 ?? 'C:\\Program Files',
    env.ProgramData ?? 'C:\\ProgramData',
  ];
}

/** Whether the platform's file systems ignore case (NTFS and APFS as they come). */
function ignoresCase(platform: NodeJS.Platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/** Whether `inner` is `outer` or lies inside it, on `platform`'s paths and case rules. */
export function isWithinFolder(outer: string, inner: string, platform: NodeJS.Platform = process.platform): boolean {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const fold = (folder: string): string => (ignoresCase(platform) ? folder.toLowerCase() : folder);
  const relative = paths.relative(fold(outer), fold(inner));
  return relative === '' || (!relative.startsWith('..') && !paths.isAbsolute(relative));
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
  const paths = platform === 'win32' ? path.win32 : path.posix;
  return isWithinFolder(await realFolder(outer, paths), await realFolder(inner, paths), platform);
}

/** Why `folder` may not be a drop folder, or null when it may. */
export async function unsafeDropFolderReason(folder: string, context: FolderSafetyContext): Promise<string | null> {
  const platform = context.platform ?? process.platform;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const real = await realFolder(folder, paths);
  const shown = real === paths.resolve(folder) ? folder : `${folder} (${real})`;
  if (paths.parse(real).root === real) return `${shown} is the root of a drive: a drop folder there would upload everything on it.`;
  const home = await realFolder(context.home ?? homedir(), paths);
  if (isWithinFolder(real, home, platform)) {
    return `${shown} is your home folder or holds it: a drop folder there would upload everything in it. Choose a folder made for the exports.`;
  }
  const systemFolders = platform === 'win32' ? windowsSystemFolders(context.env ?? process.env) : POSIX_SYSTEM_FOLDERS;
  if (systemFolders.some((system) => isWithinFolder(system, real, platform))) return `${shown} is a system folder: it cannot be a drop folder.`;
  for (const passportFolder of context.passportFolders) {
    if (await isWithinByRealPath(real, passportFolder, platform)) {
      return `${shown} holds the passport folder ${passportFolder}: every passport saved there would be uploaded as a new file.`;
    }
  }
  return null;
}
