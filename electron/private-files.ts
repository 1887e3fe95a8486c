/**
 * The app's user data is its user's alone: connections, the key vault, ledgers, spools and the Local workspace's data
 * (its own server keeps that 0600/0700 too). Folders are 0700 and files 0600 whatever the umask. On Windows the modes
 * only set the read-only flag: there the profile's access lists keep other users out of `%APPDATA%`.
 */
import { chmodSync, closeSync, openSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

/** The mode of a folder only its owner may list and enter. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** The mode of a file only its owner may read and write. */
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a folder (and its missing parents) 0700, and makes it 0700 when it was there already. */
export async function ensurePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await chmod(folder, PRIVATE_FOLDER_MODE);
}

/** Creates an empty file 0600 when it is missing, and makes it 0600 when it was there already. */
export function ensurePrivateFileSync(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}
