/**
 * Watching a drop folder: chokidar's events (or its polling, for network drives, where the OS sends no events) for
 * quick reactions, and a walk of the whole tree for the periodic rescan that catches whatever the events missed.
 * Both only name candidate files; whether a file is complete and new is the service's to find out. Neither follows a
 * symbolic link: a link is named as one (so the user can be told it is not uploaded), never descended into, so a link
 * in a drop folder cannot send what lies elsewhere on the machine.
 */
import { realpathSync } from 'node:fs';
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { watch } from 'chokidar';

/** How one folder is watched. */
export interface WatchFolderOptions {
  polling: boolean;
  /** How often polling looks at each file. */
  pollIntervalMs: number;
  /** Whether an absolute path is never a candidate (hidden, temporary, the state folder); a skipped folder hides all it holds. */
  ignored: (absolutePath: string) => boolean;
  /** A file was added or changed (also once for every file present when watching starts). */
  onFile: (absolutePath: string) => void;
  /** A symbolic link (to a file or a folder) was found; it is never entered. */
  onLink: (absolutePath: string) => void;
  /** The first reading of the tree is done. */
  onReady: () => void;
  onError: (error: Error) => void;
}

/** A folder being watched. */
export interface WatchedFolder {
  close(): Promise<void>;
}

/** Starts watching a folder; the service takes this as an option, so tests can play a watcher that misses events. */
export type WatchFolder = (folder: string, options: WatchFolderOptions) => WatchedFolder;

/** The real path of a folder, or the folder as given when it cannot be resolved (the watcher then reports the error). */
function realPathOf(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/**
 * Watches with chokidar. The folder itself may be a link the user chose: chokidar, following no links, would not enter
 * it, so it watches the folder's real path and names what it finds below the folder as given.
 */
export const watchWithChokidar: WatchFolder = (folder, options) => {
  const root = realPathOf(folder);
  const asGiven = (candidate: string): string => path.join(folder, path.relative(root, candidate));
  const watcher = watch(root, {
    ignored: (candidate: string) => candidate !== root && options.ignored(asGiven(candidate)),
    ignoreInitial: false,
    usePolling: options.polling,
    interval: options.pollIntervalMs,
    binaryInterval: options.pollIntervalMs,
    // Completeness is decided by the service's own check, which also looks at locks.
    awaitWriteFinish: false,
    followSymlinks: false,
    // The stats of what was added (by lstat, as links are not followed) tell a link from a file.
    alwaysStat: true,
    ignorePermissionErrors: true,
  });
  watcher.on('add', (file, stats) => (stats?.isSymbolicLink() === true ? options.onLink(asGiven(file)) : options.onFile(asGiven(file))));
  watcher.on('change', (file) => options.onFile(asGiven(file)));
  watcher.on('ready', () => options.onReady());
  watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))));
  return { close: () => watcher.close() };
};

/** A file or a symbolic link the walk found. */
export interface WalkedEntry {
  absolutePath: string;
  link: boolean;
}

/**
 * Every file and symbolic link below `folder` that `ignored` does not skip; a link to a folder is named, not entered.
 * A folder that vanishes during the walk is passed over; the root folder not being readable is thrown, so the caller
 * can tell the user.
 */
export async function* walkFiles(folder: string, ignored: (absolutePath: string) => boolean): AsyncGenerator<WalkedEntry> {
  const pending = [folder];
  let root = true;
  while (pending.length > 0) {
    const directory = pending.pop() as string;
    let entries;
    try {
      entries = await opendir(directory);
    } catch (error) {
      if (root) throw error;
      continue;
    } finally {
      root = false;
    }
    for await (const entry of entries) {
      const absolute = path.join(directory, entry.name);
      if (ignored(absolute)) continue;
      if (entry.isDirectory()) pending.push(absolute);
      else if (entry.isFile() || entry.isSymbolicLink()) yield { absolutePath: absolute, link: entry.isSymbolicLink() };
    }
  }
}
