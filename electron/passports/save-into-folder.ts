/**
 * Saves a download into a folder the user chose without ever leaving half a file under its final name: the content
 * goes to a hidden temporary file beside it (flushed to disk and closed), which is then linked into place. A link is
 * an exclusive create: a name that exists, even one that appeared a moment ago, is never replaced. A name that is
 * taken by other content gets ` (2)`, ` (3)`…; one taken by the same content is reused, so a save repeated after a
 * crash does not make a copy. A placement that a lock blocks (Windows: a virus scanner or an indexer holding the
 * file, EBUSY/EPERM/EACCES) is retried with backoff; what cannot be done ends in a `SaveError` with a message for the
 * user, and the temporary file is removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { copyFile, link, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { abortableSleep } from '../../shared/abortable-sleep';
import { MAX_NAME_NUMBER, numberedFileName, temporaryFileName } from './passport-names';

/**
 * Gives the content of file `from` the new name `to`, failing with EEXIST when `to` exists; `placeExclusively` unless a
 * test makes it meet a lock.
 */
export type PlaceFunction = (from: string, to: string) => Promise<void>;

/** How long a placement blocked by a lock is retried: `attempts` in all, waits doubling from `firstDelayMs` up to `maxDelayMs`. */
export interface PlaceRetryPolicy {
  attempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

/** About 15 s of retries: long enough for a virus scanner or a cloud-sync client to let go of a new file. */
export const DEFAULT_PLACE_RETRY: PlaceRetryPolicy = { attempts: 12, firstDelayMs: 100, maxDelayMs: 2_000 };

/** Codes of a placement that another program's lock blocked, on Windows; worth waiting for. */
const LOCK_CODES: ReadonlySet<string> = new Set(['EBUSY', 'EPERM', 'EACCES']);

/** A save that could not be done, with a message meant for the user. */
export class SaveError extends Error {
  constructor(
    message: string,
    /** The error code of the file system (ENOSPC, EACCES…), when there was one. */
    readonly code: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SaveError';
  }
}

/** What the writer did: all of the content written and the destination ended, or nothing usable, for a reason of its own. */
export type WriteOutcome<F> = { kind: 'written' } | { kind: 'not-written'; failure: F };

/** The outcome of a save. `existing`: the folder already held this content under `path`, and nothing was added. */
export type SaveResult<F> =
  | { kind: 'saved'; path: string; bytes: number; existing: boolean }
  | { kind: 'not-written'; failure: F }
  | { kind: 'aborted' };

/** What to save where, and how. */
export interface SaveIntoFolderOptions<F> {
  folder: string;
  /** The wanted name, already safe for the file system (`passport-names.ts`). */
  fileName: string;
  /**
   * Writes the content to `destination` and ends it. It rejects only when writing fails (a full disk), and resolves
   * `not-written` for any other reason to give up (the network); the temporary file is removed in both cases.
   */
  write(destination: NodeJS.WritableStream): Promise<WriteOutcome<F>>;
  /** Hears the temporary file's path before the file is made, so it can be recorded and removed after a crash. */
  beforeCreate?(temporaryPath: string): Promise<void>;
  place?: PlaceFunction;
  placeRetry?: PlaceRetryPolicy;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** 12 hex digits for the temporary name. */
  token?: () => string;
  /** Stops waiting for a locked placement; the temporary file is removed and the save ends `aborted`. */
  signal?: AbortSignal;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A message for the user about a file-system error met while saving into `folder`. */
export function describeSaveError(error: unknown, folder: string): string {
  const code = codeOf(error);
  switch (code) {
    case 'ENOSPC':
      return `The disk that holds ${folder} is full (ENOSPC); the passport was not saved.`;
    case 'EDQUOT':
      return `Your disk quota for ${folder} is used up (EDQUOT); the passport was not saved.`;
    case 'EACCES':
    case 'EPERM':
      return `${folder} cannot be written to (${code}): the app has no permission to create files there.`;
    case 'ENOTDIR':
      return `${folder} cannot be used as a folder (ENOTDIR): a part of that path is a file, not a folder.`;
    case 'EEXIST':
      return `${folder} cannot be used as a folder (EEXIST): it is a file.`;
    case 'EROFS':
      return `${folder} is on a read-only disk (EROFS); the passport was not saved.`;
    case 'ENOENT':
      return `${folder} cannot be reached (ENOENT): is its drive or network share connected?`;
    case 'ENAMETOOLONG':
      return `The path of ${folder} is too long for its file system (ENAMETOOLONG).`;
    case 'EIO':
      return `The disk that holds ${folder} reported a read or write error (EIO); the passport was not saved.`;
    default: {
      const detail = error instanceof Error ? error.message : String(error);
      return `Saving the passport in ${folder} failed (${code ?? 'unknown error'}): ${detail}`;
    }
  }
}

function saveError(error: unknown, folder: string): SaveError {
  return error instanceof SaveError ? error : new SaveError(describeSaveError(error, folder), codeOf(error), { cause: error });
}

/** Opens `file` for writing, failing if it exists; resolves once it is open, so a folder that refuses files fails here. */
function openExclusive(file: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const stream = createWriteStream(file, { flags: 'wx', flush: true });
    const onError = (error: Error): void => {
      stream.removeListener('open', onOpen);
      reject(error);
    };
    const onOpen = (): void => {
      stream.removeListener('error', onError);
      resolve(stream);
    };
    stream.once('error', onError);
    stream.once('open', onOpen);
  });
}

/** Waits until the stream's file is closed: a file still open cannot be linked on Windows. */
function closed(stream: WriteStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => stream.once('close', () => resolve()));
}

/** Ends a stream that will not be used, and waits until its file is closed. */
async function discard(stream: WriteStream): Promise<void> {
  // A destroyed stream may still emit the error that destroyed it; nobody else listens any more.
  stream.on('error', () => undefined);
  stream.destroy();
  await closed(stream);
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function sameContent(a: string, b: string): Promise<boolean> {
  const [first, second] = await Promise.all([stat(a), stat(b)]);
  if (!first.isFile() || !second.isFile() || first.size !== second.size) return false;
  const [hashA, hashB] = await Promise.all([sha256(a), sha256(b)]);
  return hashA === hashB;
}

/**
 * A hard link of `from` named `to`, or where the file system has no hard links (FAT, some network shares), a copy made
 * with COPYFILE_EXCL; both fail with EEXIST when `to` exists, so nothing is ever overwritten.
 */
export async function placeExclusively(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
  }
}

/**
 * Writes content into `folder` under `fileName` (or its first free numbered form) through a temporary file. Resolves
 * `saved`, `not-written` when the writer gave up, or `aborted`; rejects with a `SaveError` for every file-system
 * problem. Nothing is ever left under a final name unless all of it was written.
 */
export async function saveIntoFolder<F>(options: SaveIntoFolderOptions<F>): Promise<SaveResult<F>> {
  const { folder, fileName } = options;
  const place = options.place ?? placeExclusively;
  const retry = options.placeRetry ?? DEFAULT_PLACE_RETRY;
  const sleep = options.sleep ?? abortableSleep;
  const token = options.token ?? (() => randomBytes(6).toString('hex'));

  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw saveError(error, folder);
  }
  const temporary = path.join(folder, temporaryFileName(fileName, token()));
  await options.beforeCreate?.(temporary);
  let stream: WriteStream;
  try {
    stream = await openExclusive(temporary);
  } catch (error) {
    throw saveError(error, folder);
  }

  try {
    let outcome: WriteOutcome<F>;
    try {
      outcome = await options.write(stream);
    } catch (error) {
      await discard(stream);
      throw saveError(error, folder);
    }
    if (outcome.kind === 'not-written') {
      await discard(stream);
      return outcome;
    }
    await closed(stream);
    const { size } = await stat(temporary);

    for (let n = 1; n <= MAX_NAME_NUMBER; n += 1) {
      const candidate = path.join(folder, numberedFileName(fileName, n));
      const placed = await placeWithRetry(place, temporary, candidate, retry, sleep, options.signal);
      if (placed === 'aborted') return { kind: 'aborted' };
      if (placed === 'placed') return { kind: 'saved', path: candidate, bytes: size, existing: false };
      if (await sameContent(candidate, temporary)) return { kind: 'saved', path: candidate, bytes: size, existing: true };
    }
    throw new SaveError(`${folder} already holds ${MAX_NAME_NUMBER} different files named like ${fileName}.`, 'EEXIST');
  } catch (error) {
    throw saveError(error, folder);
  } finally {
    // Placed or not, the temporary name goes: the content lives on under its final name when it was placed.
    await rm(temporary, { force: true, maxRetries: 5, retryDelay: 200 }).catch(() => undefined);
  }
}

/**
 * Places the file under `to`, waiting and trying again while a lock blocks it; `taken` when `to` exists. Any other
 * error, or the last blocked attempt, throws.
 */
async function placeWithRetry(
  place: PlaceFunction,
  from: string,
  to: string,
  policy: PlaceRetryPolicy,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<'placed' | 'taken' | 'aborted'> {
  let delay = policy.firstDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await place(from, to);
      return 'placed';
    } catch (error) {
      const code = codeOf(error);
      if (code === 'EEXIST') return 'taken';
      if (code === undefined || !LOCK_CODES.has(code)) throw error;
      if (attempt >= policy.attempts) {
        throw new SaveError(
          `The passport could not be moved into place as ${to}: the file or its folder stayed locked by another program ` +
            `(${code}) through ${policy.attempts} attempts. Close programs that may hold it (a viewer, a virus scanner, a ` +
            'sync client) and try again.',
          code,
          { cause: error },
        );
      }
    }
    await sleep(delay, signal);
    if (signal?.aborted === true) return 'aborted';
    delay = Math.min(delay * 2, policy.maxDelayMs);
  }
}
