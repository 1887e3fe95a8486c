/**
 * What the server keeps on disk is its own user's alone: the database holds the download-signing secret and every
 * key's hash, the blobs hold the users' files. Folders are 0700 and files 0600 whatever the umask. On Windows the modes
 * only set the read-only flag: there the user's profile folders' access lists keep other users out.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';

/** The mode of a folder only its owner may list and enter. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** The mode of a file only its owner may read and write. */
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a folder (and its missing parents) 0700, and makes it 0700 when it was there already. */
export function ensurePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/** Creates an empty file 0600 when it is missing, and makes it 0600 when it was there already. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}
