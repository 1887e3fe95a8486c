/**
 * How the files of a drop folder are opened: never through a symbolic link (a link swapped in after the checks must
 * not send the file it points to), and with a refusal of the operating system told apart from a lock.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** Open flags for reading a file that fail on a symbolic link (ELOOP) where the platform can tell; Windows cannot. */
export const READ_WITHOUT_FOLLOWING: number = constants.O_RDONLY | ((constants as Partial<typeof constants>).O_NOFOLLOW ?? 0);

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

/** A file's content in chunks of `chunkSize`, opened without following a link; rejects when `signal` aborts. */
export async function* readWithoutFollowing(file: string, chunkSize: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const handle = await open(file, READ_WITHOUT_FOLLOWING);
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: chunkSize, signal })) yield chunk as Buffer;
  } finally {
    await handle.close();
  }
}
