/** What lies at a path of a drop folder, read without following a link, and why some of it is never uploaded. */
import { lstat } from 'node:fs/promises';
import type { FileStamp } from './completeness';
import { errorCodeOf } from './file-access';

/** Why a symbolic link in a drop folder is not uploaded: a link may point anywhere on the machine. */
export const SYMBOLIC_LINK_NOTE =
  'This is a symbolic link: links are not followed, so nothing it points to is uploaded. Put the file itself (or a copy) in the folder.';

/** Why a file this account may not read is not uploaded; waiting does not change that. */
export const PERMISSION_DENIED_NOTE = 'The file cannot be read (permission denied): give this account read access to it, then retry.';

/** What lies at a path of a drop folder, without following a link: a regular file or a link, with its stamp. */
export interface Entry {
  link: boolean;
  stamp: FileStamp;
}

export async function entryOf(file: string): Promise<Entry | undefined> {
  try {
    const stats = await lstat(file);
    if (!stats.isFile() && !stats.isSymbolicLink()) return undefined;
    return { link: stats.isSymbolicLink(), stamp: { size: stats.size, mtimeMs: stats.mtimeMs } };
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The stamp of a regular file; undefined when there is none (gone, or a link put in its place). */
export async function stampOf(file: string): Promise<FileStamp | undefined> {
  const entry = await entryOf(file);
  return entry === undefined || entry.link ? undefined : entry.stamp;
}
