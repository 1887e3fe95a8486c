/**
 * When a file in a drop folder is complete: its size and modification time stayed the same across a wait, and it can
 * be opened. Exporters write large models for minutes, copies over a network pause between chunks, and Windows keeps a
 * file that is being written locked: a change event alone says nothing about the end of a write. A file this account
 * may not read is said so at once rather than waited for as if it were locked.
 */
import { lstat, open } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { errorCodeOf, isPermissionDenied, READ_WITHOUT_FOLLOWING } from './file-access';

/** What identifies a version of a file without reading it. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** The outcome of waiting for a file. */
export type Completeness =
  | { kind: 'complete'; stamp: FileStamp }
  /** Deleted or moved away, or no longer a regular file (a symbolic link put in its place, too). */
  | { kind: 'gone' }
  /** This account may not read it (EACCES, EPERM): waiting does not help, the user has to give access. */
  | { kind: 'unreadable' }
  /** Stable but empty: exporters create the file before they write it, and an empty file is nothing to upload. */
  | { kind: 'empty' }
  /** The wait was stopped (pause, close). */
  | { kind: 'stopped' };

/** Whether a file could be opened: it is free, another program still holds it for writing, it may not be read, or it is gone. */
export type OpenCheck = 'free' | 'locked' | 'unreadable' | 'gone';

/** The file system calls the check makes; tests replace `open` to play a program that holds a lock. */
export interface CompletenessFs {
  /** Without following a symbolic link. */
  lstat(file: string): Promise<Stats>;
  open(file: string, flags: string | number): Promise<{ close(): Promise<void> }>;
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

const nodeFs: CompletenessFs = { lstat, open };

/** Codes of a failed open for writing that mean another program holds the file (Windows sharing violations, denied access). */
const LOCKED_CODES: ReadonlySet<string> = new Set(['EBUSY', 'EPERM', 'EACCES']);

/** Codes of a failed open that mean there is no regular file there any more (a symbolic link put in its place: ELOOP). */
const GONE_CODES: ReadonlySet<string> = new Set(['ENOENT', 'EISDIR', 'ELOOP']);

/** Opens for reading, never through a link: a refusal means this account may not read the file, or, on Windows, a lock. */
async function tryRead(file: string, fs: CompletenessFs): Promise<OpenCheck> {
  try {
    const handle = await fs.open(file, READ_WITHOUT_FOLLOWING);
    await handle.close();
    return 'free';
  } catch (error) {
    const code = errorCodeOf(error);
    if (code !== undefined && GONE_CODES.has(code)) return 'gone';
    if (isPermissionDenied(error)) return 'unreadable';
    if (code === 'EBUSY') return 'locked';
    throw error;
  }
}

/** Opens for reading and writing, which Windows refuses while another program writes the file. */
async function tryWrite(file: string, fs: CompletenessFs): Promise<OpenCheck> {
  try {
    const handle = await fs.open(file, 'r+');
    await handle.close();
    return 'free';
  } catch (error) {
    const code = errorCodeOf(error);
    if (code !== undefined && GONE_CODES.has(code)) return 'gone';
    if (code !== undefined && LOCKED_CODES.has(code)) return 'locked';
    throw error;
  }
}

/**
 * Opens the file the way that finds a writer. On Windows an open for reading and writing fails with a sharing
 * violation while another program writes the file; then a plain open for reading tells a file this account may not
 * read (or one another program keeps from readers) from one that can be read, and a readable file that is read-only
 * by its attributes (which no open for writing takes) is free. Elsewhere no open is refused because of a writer: an
 * open for reading only tells whether the file may be read.
 */
export async function openCheck(file: string, platform: NodeJS.Platform = process.platform, fs: CompletenessFs = nodeFs): Promise<OpenCheck> {
  if (platform !== 'win32') return tryRead(file, fs);
  const exclusive = await tryWrite(file, fs);
  if (exclusive !== 'locked') return exclusive;
  const reading = await tryRead(file, fs);
  if (reading !== 'free') return reading;
  let stats: Stats;
  try {
    stats = await fs.lstat(file);
  } catch (error) {
    if (errorCodeOf(error) === 'ENOENT') return 'gone';
    throw error;
  }
  const readOnly = (stats.mode & 0o200) === 0;
  return readOnly ? 'free' : 'locked';
}

async function stampOf(file: string, fs: CompletenessFs): Promise<FileStamp | undefined> {
  try {
    const stats = await fs.lstat(file);
    return stats.isFile() ? { size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
  } catch (error) {
    if (errorCodeOf(error) === 'ENOENT' || errorCodeOf(error) === 'ENOTDIR') return undefined;
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
    if (check === 'gone' || check === 'unreadable') return { kind: check };
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
