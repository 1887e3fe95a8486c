/**
 * Watching a drop folder: chokidar's events (or its polling, for network drives, where the OS sends no events) for
 * quick reactions, and a walk of the whole tree for the periodic rescan that catches whatever the events missed.
 * Both only name candidate files; whether a file is complete and new is the service's to find out.
 */
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

/** Watches with chokidar. */
export const watchWithChokidar: WatchFolder = (folder, options) => {
  const watcher = watch(folder, {
    ignored: (candidate: string) => candidate !== folder && options.ignored(candidate),
    ignoreInitial: false,
    usePolling: options.polling,
    interval: options.pollIntervalMs,
    binaryInterval: options.pollIntervalMs,
    // Completeness is decided by the service's own check, which also looks at locks.
    awaitWriteFinish: false,
    ignorePermissionErrors: true,
  });
  watcher.on('add', (file) => options.onFile(file));
  watcher.on('change', (file) => options.onFile(file));
  watcher.on('ready', () => options.onReady());
  watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))));
  return { close: () => watcher.close() };
};

/**
 * Every file below `folder` that `ignored` does not skip. A folder that vanishes during the walk is passed over;
 * the root folder not being readable is thrown, so the caller can tell the user.
 */
export async function* walkFiles(folder: string, ignored: (absolutePath: string) => boolean): AsyncGenerator<string> {
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
      else if (entry.isFile()) yield absolute;
    }
  }
}
