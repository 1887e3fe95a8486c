/**
 * Spools: files in `<userData>/uploads/spool/` that hold the bytes the page sends of a file dropped or picked in it
 * (`uploads:open-spool`, `uploads:write-spool`), until their upload is done. A spool is opened with its size; chunks
 * come as bytes, in order, each taken only where the last one ended and never past the size, and a few may be on their
 * way at once. An upload may read a spool while it still fills (`growth`), so sending and spooling overlap.
 *
 * A spool lives in memory while it is open in this session; after a restart only its file is left, which is usable only
 * when complete. A spool that no upload claimed is deleted once nothing came for a while, and one that an upload
 * claimed but whose bytes stopped coming fails, so the upload does not wait for a page that has gone.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { BridgeError } from '../../shared/ipc';
import { SPOOL_CHUNK_BYTES, SPOOL_CHUNKS_IN_FLIGHT } from '../../shared/uploads';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../private-files';
import { completeFile, type FileGrowth } from './file-chunks';

/** The waits of spools; tests shorten them. */
export interface SpoolTiming {
  /** A spool no upload claimed is deleted after nothing came for this long. */
  unclaimedMs: number;
  /** A claimed spool that is not complete fails after nothing came for this long: the page that filled it has gone. */
  stalledMs: number;
}

/** Whether a spool's bytes can be sent: all there or still coming, or why they never will be. */
export type SpoolState = { kind: 'usable' } | { kind: 'gone'; message: string };

interface OpenSpool {
  readonly id: string;
  readonly file: string;
  readonly fileName: string;
  readonly size: number;
  /** Bytes of the chunks taken: on disk or on their way there. */
  accepted: number;
  /** Bytes on disk. */
  written: number;
  inFlight: number;
  /** The chunks' writes, one after the other. */
  writes: Promise<void>;
  handle: FileHandle | undefined;
  lastChunkAt: number;
  claimed: boolean;
  failure: string | undefined;
  readonly waiters: Set<() => void>;
}

async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.byteLength) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.byteLength - done, position + done);
    done += bytesWritten;
  }
}

/** The spools of one host. */
export class SpoolStore {
  readonly #folder: string;
  readonly #timing: SpoolTiming;
  readonly #now: () => number;
  readonly #log: (message: string, error?: unknown) => void;
  readonly #open = new Map<string, OpenSpool>();

  constructor(folder: string, timing: SpoolTiming, now: () => number, log: (message: string, error?: unknown) => void) {
    this.#folder = folder;
    this.#timing = timing;
    this.#now = now;
    this.#log = log;
  }

  /** The file of a spool (its id is ours: a UUID made here, or read from the ledger the host writes). */
  fileOf(spoolId: string): string {
    return path.join(this.#folder, spoolId);
  }

  /** Deletes every spool file but those of `keep` (at start: no spool is open yet, so the others belong to nobody). */
  async removeAllBut(keep: ReadonlySet<string>): Promise<void> {
    await mkdir(this.#folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    for (const name of await readdir(this.#folder)) {
      if (keep.has(name)) continue;
      await rm(path.join(this.#folder, name), { force: true, recursive: true });
      this.#log(`Deleted the spool ${name}: no upload needs it.`);
    }
  }

  /** Makes an empty spool for `size` bytes of `fileName`; answers its id. */
  async open(fileName: string, size: number): Promise<string> {
    await mkdir(this.#folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const id = randomUUID();
    const file = this.fileOf(id);
    const handle = await open(file, 'wx', PRIVATE_FILE_MODE);
    const spool: OpenSpool = {
      id,
      file,
      fileName,
      size,
      accepted: 0,
      written: 0,
      inFlight: 0,
      writes: Promise.resolve(),
      handle,
      lastChunkAt: this.#now(),
      claimed: false,
      failure: undefined,
      waiters: new Set(),
    };
    this.#open.set(id, spool);
    if (size === 0) await this.#closeHandle(spool);
    return id;
  }

  /**
   * Writes the next chunk at `offset`; answers the bytes on disk once it is there. Refuses a spool that is not open, a
   * chunk that is empty, larger than SPOOL_CHUNK_BYTES, not where the last one ended or past the size, and more than
   * SPOOL_CHUNKS_IN_FLIGHT chunks on their way at once.
   */
  async write(spoolId: string, offset: number, bytes: Uint8Array): Promise<number> {
    const spool = this.#open.get(spoolId);
    if (spool === undefined) throw new BridgeError('not-found', 'This file is no longer being received (its upload ended or took too long); add it again.');
    if (spool.failure !== undefined) throw new BridgeError('conflict', spool.failure);
    const length = bytes.byteLength;
    if (length === 0) throw new BridgeError('invalid-request', 'The chunk is empty.');
    if (length > SPOOL_CHUNK_BYTES) {
      throw new BridgeError('invalid-request', `The chunk holds ${length} bytes; a chunk holds at most ${SPOOL_CHUNK_BYTES}.`);
    }
    if (offset !== spool.accepted) {
      throw new BridgeError('conflict', `The chunk starts at byte ${offset}, but byte ${spool.accepted} comes next: chunks must come in order.`);
    }
    if (offset + length > spool.size) {
      throw new BridgeError('invalid-request', `The chunk ends at byte ${offset + length}, past the ${spool.size} bytes the file was announced with.`);
    }
    if (spool.inFlight >= SPOOL_CHUNKS_IN_FLIGHT) {
      throw new BridgeError('conflict', `At most ${SPOOL_CHUNKS_IN_FLIGHT} chunks may be on their way at once; wait for an answer first.`);
    }
    spool.accepted += length;
    spool.inFlight += 1;
    spool.lastChunkAt = this.#now();
    const written = spool.writes.then(async () => {
      if (spool.handle === undefined) throw new BridgeError('not-found', spool.failure ?? 'This file is no longer being received.');
      await writeAll(spool.handle, bytes, offset);
    });
    spool.writes = written.catch(() => undefined);
    try {
      await written;
    } catch (error) {
      if (error instanceof BridgeError) throw error;
      this.#log(`Writing to the spool of ${spool.fileName} failed.`, error);
      this.#fail(spool, `${spool.fileName} could not be kept on this computer's disk (is it full?); add it again.`);
      throw new BridgeError('storage-failed', `${spool.fileName} could not be kept on this computer's disk (is it full?).`);
    } finally {
      spool.inFlight -= 1;
    }
    spool.written = offset + length;
    spool.lastChunkAt = this.#now();
    if (spool.written === spool.size) await this.#closeHandle(spool);
    this.#notify(spool);
    return spool.written;
  }

  /** Gives an open spool to an upload of `size` bytes; refuses one that is not open, of another size, or claimed already. */
  claim(spoolId: string, size: number): void {
    const spool = this.#open.get(spoolId);
    if (spool === undefined) throw new BridgeError('not-found', 'This file is no longer being received (it took too long); add it again.');
    if (spool.size !== size) {
      throw new BridgeError('invalid-request', `The upload is of ${size} bytes, but the file was announced with ${spool.size}.`);
    }
    if (spool.claimed) throw new BridgeError('conflict', 'An upload of this file has been started already.');
    if (spool.failure !== undefined) throw new BridgeError('conflict', spool.failure);
    spool.claimed = true;
  }

  /** Whether a spool's `size` bytes can be sent: those of an open spool while they may still come, else a complete file. */
  async state(spoolId: string, size: number): Promise<SpoolState> {
    const spool = this.#open.get(spoolId);
    if (spool?.failure !== undefined) return { kind: 'gone', message: spool.failure };
    let found: number;
    try {
      found = (await stat(this.fileOf(spoolId))).size;
    } catch {
      return { kind: 'gone', message: 'The file kept for this upload was deleted; add the file again.' };
    }
    if (spool !== undefined) return { kind: 'usable' };
    if (found === size) return { kind: 'usable' };
    return { kind: 'gone', message: 'The file had not arrived completely when the app stopped; add it again.' };
  }

  /** How much of a spool can be read; an open spool grows as its chunks come, any other is complete. */
  growth(spoolId: string, size: number): FileGrowth {
    const spool = this.#open.get(spoolId);
    if (spool === undefined) return completeFile(size);
    return {
      available: () => spool.written,
      failure: () => spool.failure,
      grown: (signal) =>
        new Promise<void>((resolve) => {
          if (signal.aborted || spool.failure !== undefined || spool.written >= spool.size) {
            resolve();
            return;
          }
          const done = (): void => {
            spool.waiters.delete(done);
            signal.removeEventListener('abort', done);
            resolve();
          };
          spool.waiters.add(done);
          signal.addEventListener('abort', done, { once: true });
        }),
    };
  }

  /** Deletes a spool; a reader of it fails, a chunk on its way is refused. */
  async remove(spoolId: string): Promise<void> {
    const spool = this.#open.get(spoolId);
    if (spool !== undefined) {
      this.#open.delete(spoolId);
      this.#fail(spool, 'The file kept for this upload was deleted; add the file again.');
      await spool.writes;
      await this.#closeHandle(spool);
    }
    await rm(this.fileOf(spoolId), { force: true });
  }

  /** Deletes the spools no upload claimed that received nothing for a while, and fails claimed ones whose bytes stopped coming. */
  async expire(): Promise<void> {
    const now = this.#now();
    for (const spool of [...this.#open.values()]) {
      const idle = now - spool.lastChunkAt;
      if (!spool.claimed && idle >= this.#timing.unclaimedMs) {
        this.#log(`Deleted the spool of ${spool.fileName}: no upload was started for it.`);
        await this.remove(spool.id);
      } else if (spool.claimed && spool.failure === undefined && spool.written < spool.size && spool.inFlight === 0 && idle >= this.#timing.stalledMs) {
        this.#log(`The spool of ${spool.fileName} stopped at ${spool.written} of ${spool.size} bytes.`);
        this.#fail(spool, `${spool.fileName} stopped arriving before all of it was here; add it again.`);
        await spool.writes;
        await this.#closeHandle(spool);
      }
    }
  }

  /** Closes the files of open spools (their files stay: a complete one is sent after the restart). */
  async close(): Promise<void> {
    for (const spool of this.#open.values()) {
      await spool.writes;
      await this.#closeHandle(spool);
    }
    this.#open.clear();
  }

  #fail(spool: OpenSpool, message: string): void {
    spool.failure ??= message;
    this.#notify(spool);
  }

  #notify(spool: OpenSpool): void {
    for (const waiter of [...spool.waiters]) waiter();
  }

  async #closeHandle(spool: OpenSpool): Promise<void> {
    const { handle } = spool;
    spool.handle = undefined;
    await handle?.close();
  }
}
