/**
 * The temporary folders of imports: each import writes its temporary files (its worker's `os.tmpdir()`, a blob fetched
 * to disk) into a folder of its own under one root, removed when the import ends however it ends, and at the next start
 * of a server on the same machine when the process that made it died. A folder's name says whose it is:
 * `<host>~<pid>~<process token>-<random>`, so a start removes the folders of dead processes (or of an earlier process
 * that had its pid) and leaves those of live servers sharing the root.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/** Tells this process's folders from those of an earlier process that had the same pid. */
const processToken = randomBytes(6).toString('hex');

/** The host as a folder name may hold it. */
const host = hostname().replace(/[^A-Za-z0-9.-]/gu, '_') || 'host';

const NAME = /^(?<host>[A-Za-z0-9._-]+)~(?<pid>\d+)~(?<token>[0-9a-f]+)-/u;

/** Makes the root (owner only) and checks it is a folder of this user's, not a link another user planted. */
async function ensureRoot(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const found = await lstat(root);
  if (!found.isDirectory() || (process.getuid !== undefined && found.uid !== process.getuid())) {
    throw new Error(`The folder for temporary import files, ${root}, is not a folder of this user's.`);
  }
}

/** A temporary folder of one import. */
export interface ImportTempFolder {
  readonly path: string;
  /** Removes the folder and everything in it; safe to call more than once. */
  remove(): Promise<void>;
}

/** Creates the temporary folder of one import under `root`. */
export async function createImportTempFolder(root: string): Promise<ImportTempFolder> {
  await ensureRoot(root);
  const folder = await mkdtemp(path.join(root, `${host}~${process.pid}~${processToken}-`));
  return { path: folder, remove: () => rm(folder, { recursive: true, force: true, maxRetries: 3 }) };
}

/** Whether a process with this pid runs (one of another user's counts: it cannot be told apart). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the folders under `root` that imports of dead processes on this host left behind (the process was killed
 * during an import); returns how many. Folders of live processes, of other hosts and of other names stay.
 */
export async function removeLeftoverImportFolders(root: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const owner = NAME.exec(name)?.groups;
    if (owner?.['host'] !== host) continue;
    const pid = Number(owner['pid']);
    const mine = pid === process.pid && owner['token'] === processToken;
    const dead = pid === process.pid ? !mine : !isRunning(pid);
    if (!dead) continue;
    await rm(path.join(root, name), { recursive: true, force: true, maxRetries: 3 });
    removed += 1;
  }
  return removed;
}

/** Bytes of the files under `folder`, its subfolders included; 0 once it is gone. */
export async function folderBytes(folder: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    try {
      bytes += (await lstat(path.join(entry.parentPath, entry.name))).size;
    } catch (error) {
      // Removed between the listing and the look: it takes no space.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return bytes;
}
