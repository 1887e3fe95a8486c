/**
 * Which files of a drop folder are ours: not hidden, not the temporary files that exporters, Office and browsers write
 * while they work, and of a type the mapping takes. Names only, so the watcher can decide before it stats anything.
 */
import path from 'node:path';
import { INFORMATION_FILE_TYPES, type DropFileKind, type DropFolderSettings } from '../../shared/dropfolders';

/** Temporary and backup names: Office owner files (`~$x.xlsx`), downloads and copies in progress, editor backups. */
const TEMPORARY_NAME = /^~\$|\.(tmp|temp|part|partial|crdownload|download|swp|bak)$|~$/i;

/** Files the operating system leaves in folders. */
const SYSTEM_NAMES: ReadonlySet<string> = new Set(['thumbs.db', 'desktop.ini', 'icon\r']);

/** Whether one file or folder name is never ours: hidden (`.x`, LibreOffice's `.~lock.x#` too), temporary or a system file. */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || TEMPORARY_NAME.test(name) || SYSTEM_NAMES.has(name.toLowerCase());
}

/** Whether a path relative to a drop folder passes through an ignored name (a hidden folder hides all it holds). */
export function isIgnoredRelativePath(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => segment !== '' && isIgnoredName(segment));
}

/** A path below `folder` as the ledger keys it: relative, `/`-separated; undefined for the folder itself or outside it. */
export function relativeKeyOf(folder: string, absolutePath: string): string | undefined {
  const relative = path.relative(folder, absolutePath);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** The absolute path of a ledger key below `folder`. */
export function absolutePathOf(folder: string, relativeKey: string): string {
  return path.join(folder, ...relativeKey.split('/'));
}

/** How a file is uploaded under a mapping's settings, or undefined when the mapping does not take it. */
export function fileKindOf(
  relativePath: string,
  settings: Pick<DropFolderSettings, 'fileTypes' | 'informationFiles'>,
): DropFileKind | undefined {
  if (isIgnoredRelativePath(relativePath)) return undefined;
  const extension = path.posix.extname(relativePath).toLowerCase();
  if ((settings.fileTypes as readonly string[]).includes(extension)) return 'source';
  if (settings.informationFiles && (INFORMATION_FILE_TYPES as readonly string[]).includes(extension)) return 'information';
  return undefined;
}

/**
 * The building folder of a file in a portfolio mapping: its first-level subfolder. Undefined for a file that lies in
 * the mapped folder itself, which belongs to no building.
 */
export function buildingFolderOf(relativePath: string): string | undefined {
  const slash = relativePath.indexOf('/');
  return slash <= 0 ? undefined : relativePath.slice(0, slash);
}
