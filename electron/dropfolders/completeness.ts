/**
 * When a file in a drop folder is complete: its size and modification time stayed the same across a wait, and it can
 * be opened. Exporters write large models for minutes, copies over a network pause between chunks, and Windows keeps a
 * file that is being written locked: a change event alone says nothing about the end of a write.
 */
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** What identifies a version of a file without reading it. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** The outcome of waiting for a file. */
export type Completeness =
  | { kind: 'complete'; stamp: FileStamp }
  /** Deleted or moved away, or no longer a regular file. */
  | { kind: 'gone' }
  /** Stable but empty: exporters create the file before they write it, and an empty file is nothing to upload. */
  | { kind: 'empty' }
  /** The wait was stopped (pause, close). */
  | { kind: 'stopped' };

/** Whether a file could be opened: it is free, another program still holds it for writing, or it is gone. */
export type OpenCheck = 'free' | 'locked' | 'gone';

/** The file system calls the check makes; tests replace `open` to play a program that holds a lock. */
export interface CompletenessFs {
  stat(file: string): Promise<Stats>;
  open(file: string, flags: string): Promise<{ close(): Promise<void> }>;
}

/** How the check waits and where it runs. */
export interface CompletenessOptions {
  /** How long size and modification time must stay the same. */
  stableMs: number;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  platform?: NodeJS.Platform;
  fs?: CompletenessFs;
}

const nodeFs: CompletenessFs = { stat, open };

/** Codes of a failed open that mean another program holds the file (Windows sharing violations, denied access). */
const LOCKED_CODES: ReadonlySet<string> = new Set(['EBUSY', 'EPERM', 'EACCES']);

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

async function tryOpen(file: string, flags: string, fs: CompletenessFs): Promise<OpenCheck> {
  try {
    const handle = await fs.open(file, flags);
    await handle.close();
    return 'free';
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'EISDIR') return 'gone';
    if (code !== undefined && LOCKED_CODES.has(code)) return 'locked';
    throw error;
  }
}

/**
 * Opens the file the way that finds a writer. On Windows an open for reading and writing fails with a sharing
 * violation while another program writes the file; a file that is read-only by its attributes cannot be opened so
 * and is checked with a plain open for reading instead. Elsewhere no open is refused because of a writer, so only a
 * file that cannot be read at all counts as locked.
 */
export async function openCheck(file: string, platform: NodeJS.Platform = process.platform, fs: CompletenessFs = nodeFs): Promise<OpenCheck> {
  if (platform !== 'win32') return tryOpen(file, 'r', fs);
  const exclusive = await tryOpen(file, 'r+', fs);
  if (exclusive !== 'locked') return exclusive;
  let stats: Stats;
  try {
    stats = await fs.stat(file);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return 'gone';
    throw error;
  }
  const readOnly = (stats.mode & 0o200) === 0;
  return readOnly ? tryOpen(file, 'r', fs) : 'locked';
}

async function stampOf(file: string, fs: CompletenessFs): Promise<FileStamp | undefined> {
  try {
    const stats = await fs.stat(file);
    return stats.isFile() ? { size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Whether two stamps describe the same version of a file. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * Waits until the file is complete: unchanged over `stableMs`, then free to open. Every change and every lock starts
 * the wait again, so a writer that pauses for less than `stableMs` is never mistaken for one that finished.
 */
export async function waitUntilComplete(file: string, options: CompletenessOptions): Promise<Completeness> {
  const fs = options.fs ?? nodeFs;
  let previous = await stampOf(file, fs);
  if (previous === undefined) return { kind: 'gone' };
  for (;;) {
    await options.sleep(options.stableMs, options.signal);
    if (options.signal?.aborted === true) return { kind: 'stopped' };
    const current = await stampOf(file, fs);
    if (current === undefined) return { kind: 'gone' };
    if (!sameStamp(previous, current)) {
      previous = current;
      continue;
    }
    const check = await openCheck(file, options.platform, fs);
    if (check === 'gone') return { kind: 'gone' };
    if (check === 'locked') continue;
    // The open may have waited for a writer that changed the file just before it let go.
    const after = await stampOf(file, fs);
    if (after === undefined) return { kind: 'gone' };
    if (!sameStamp(current, after)) {
      previous = after;
      continue;
    }
    return after.size === 0 ? { kind: 'empty' } : { kind: 'complete', stamp: after };
  }
}
