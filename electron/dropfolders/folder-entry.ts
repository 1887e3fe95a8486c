/** What lies at a path of a drop folder, read without following a link, and why some of it is never uploaded. */
import { lstat } from 'node:fs/promises';
import type { FileStamp } from './completeness';
import { errorCodeOf, HARD_LINK_NOTE, LINKED_FOLDER_NOTE, passesThroughLink } from './file-access';
import { absolutePathOf } from './file-rules';

/** Why a symbolic link in a drop folder is not uploaded: a link may point anywhere on the machine. */
export const SYMBOLIC_LINK_NOTE =
  'This is a symbolic link: links are not followed, so nothing it points to is uploaded. Put the file itself (or a copy) in the folder.';

/** Why a file this account may not read is not uploaded; waiting does not change that. */
export const PERMISSION_DENIED_NOTE = 'The file cannot be read (permission denied): give this account read access to it, then retry.';

/**
 * What lies at a path of a drop folder, without following a link: a regular file of the folder itself, or something
 * that is never uploaded (a symbolic link, a file with more than one link, a file below a linked folder) with the
 * reason; with its stamp either way.
 */
export type Entry = { kind: 'file'; stamp: FileStamp } | { kind: 'refused'; note: string; stamp: FileStamp };

export async function entryOf(folder: string, relativeKey: string): Promise<Entry | undefined> {
  try {
    const stats = await lstat(absolutePathOf(folder, relativeKey));
    if (!stats.isFile() && !stats.isSymbolicLink()) return undefined;
    const stamp = { size: stats.size, mtimeMs: stats.mtimeMs };
    if (stats.isSymbolicLink()) return { kind: 'refused', note: SYMBOLIC_LINK_NOTE, stamp };
    if (await passesThroughLink(folder, relativeKey)) return { kind: 'refused', note: LINKED_FOLDER_NOTE, stamp };
    if (stats.nlink > 1) return { kind: 'refused', note: HARD_LINK_NOTE, stamp };
    return { kind: 'file', stamp };
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The stamp of a regular file of the folder; undefined when there is none (gone, or something refused in its place). */
export async function stampOf(folder: string, relativeKey: string): Promise<FileStamp | undefined> {
  const entry = await entryOf(folder, relativeKey);
  return entry?.kind === 'file' ? entry.stamp : undefined;
}
