/**
 * How the files of a drop folder are opened: only a file that lies in the folder itself, and with a refusal of the
 * operating system told apart from a lock. A file is opened with `O_NOFOLLOW`, which guards the last component of its
 * path only, so the checks that matter come after the open, on what was opened: it is a regular file with one link (a
 * hard link names a file that may lie anywhere on the same disk), its device and inode are those of the path's own
 * `lstat` (a link or another file swapped in meanwhile differs), and every folder between the drop folder and the file
 * is a folder, not a symbolic link (or a Windows junction). Windows has no `O_NOFOLLOW`: there the open follows a link,
 * and the same checks after it refuse what it reached, since a link's `lstat` is the link's own, not its target's.
 */
import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { absolutePathOf } from './file-rules';

/** Open flags for reading a file that fail on a symbolic link (ELOOP) where the platform can tell; Windows cannot. */
export const READ_WITHOUT_FOLLOWING: number = constants.O_RDONLY | ((constants as Partial<typeof constants>).O_NOFOLLOW ?? 0);

/** Why a file with more than one link is not uploaded. */
export const HARD_LINK_NOTE =
  'This file has more than one name on the disk (a hard link): its other name may lie outside the folder, so it is not uploaded. Put a copy of the file in the folder.';

/** Why a file in a folder reached through a symbolic link is not uploaded. */
export const LINKED_FOLDER_NOTE =
  'This file lies in a folder that is a symbolic link (or junction) to elsewhere: links are not followed, so it is not uploaded. Put the folder itself (or a copy) in the drop folder.';

/** Why what was opened is not read: a hard link, a file below a linked folder, or another file than the path's. */
export type UnsafeFileReason = 'hard-link' | 'linked-folder' | 'replaced';

const UNSAFE_FILE_NOTES: Readonly<Record<UnsafeFileReason, string>> = {
  'hard-link': HARD_LINK_NOTE,
  'linked-folder': LINKED_FOLDER_NOTE,
  replaced: 'The file was replaced while it was opened.',
};

/** A file of a drop folder that must not be read: what was opened is not a file of the folder itself. */
export class UnsafeFileError extends Error {
  constructor(readonly reason: UnsafeFileReason) {
    super(UNSAFE_FILE_NOTES[reason]);
    this.name = 'UnsafeFileError';
  }
}

/** The error code of a failed file system call, if it has one. */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether a failed open means this account may not read the file. */
export function isPermissionDenied(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code === 'EACCES' || code === 'EPERM';
}

/**
 * Whether a folder between `folder` and the file `relativeKey` is a symbolic link or junction, or not a folder; a
 * missing one throws ENOENT as an open would.
 */
export async function passesThroughLink(folder: string, relativeKey: string): Promise<boolean> {
  const folders = relativeKey.split('/').slice(0, -1);
  let current = folder;
  for (const name of folders) {
    current = path.join(current, name);
    const stats = await lstat(current);
    if (stats.isSymbolicLink() || !stats.isDirectory()) return true;
  }
  return false;
}

function sameFile(opened: BigIntStats, named: BigIntStats): boolean {
  return opened.dev === named.dev && opened.ino === named.ino;
}

/**
 * Opens the file `relativeKey` of `folder` for reading, and keeps it open only when it is a regular file of the folder
 * itself with one link (see above); throws `UnsafeFileError` with the reason otherwise, and the open's own errors.
 */
export async function openInsideFolder(folder: string, relativeKey: string): Promise<FileHandle> {
  const file = absolutePathOf(folder, relativeKey);
  const handle = await open(file, READ_WITHOUT_FOLLOWING);
  try {
    const opened = await handle.stat({ bigint: true });
    if (!opened.isFile()) throw new UnsafeFileError('replaced');
    if (opened.nlink > 1n) throw new UnsafeFileError('hard-link');
    const named = await lstat(file, { bigint: true });
    if (named.isSymbolicLink() || !sameFile(opened, named)) throw new UnsafeFileError('replaced');
    if (await passesThroughLink(folder, relativeKey)) throw new UnsafeFileError('linked-folder');
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The content of the file `relativeKey` of `folder` in chunks of `chunkSize`, opened by `openInsideFolder`; rejects when `signal` aborts. */
export async function* readInsideFolder(folder: string, relativeKey: string, chunkSize: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const handle = await openInsideFolder(folder, relativeKey);
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: chunkSize, signal })) yield chunk as Buffer;
  } finally {
    await handle.close();
  }
}
