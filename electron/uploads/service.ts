/**
 * The uploads the user starts in the app: a model, a spreadsheet or a document for a building, or a document for a
 * portfolio, from a file chosen in the host's dialog or from a spool the page fills. Each goes through its connection's
 * queued client — create the remote file (unless it is a new version of an existing one), record it, send the bytes —
 * and every step is in the ledger before the next one begins, so the work carries on after a restart:
 * `creating` creates again under the same Idempotency-Key (or uses the file recorded), `sending` sends again from the
 * start into the recorded file unless the server shows the bytes landed, `waiting` waits. `done` is never sent again.
 *
 * While the server cannot be reached an upload waits, trying again after a doubling wait or at once when its connection
 * shows signs of life (`wake`); what the server refuses, or bytes that are gone, end it as `failed`.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { BridgeError } from '../../shared/ipc';
import type { ChosenFiles, UploadEntry, UploadStart } from '../../shared/uploads';
import type { QueuedClient } from '../http/queued-client';
import { SlotQueue } from '../http/slot-queue';
import { attemptUpload, type AttemptContext } from './attempt';
import { ChoiceRegistry } from './choices';
import { problemOf, type UploadFailure } from './failure';
import { UploadLedger, type StoredSource } from './ledger';
import { OfflineWaits, offlineDelayMs } from './offline-wait';
import { deleteRemoteFile, isEmpty, readRemoteFile } from './remote';
import { SpoolStore } from './spool';
import { DEFAULT_UPLOAD_TIMING, type UploadTiming } from './timing';
import { sourceProblem } from './upload-bytes';
import { ACTIVE_STATES, UploadRecords } from './upload-records';

export type { UploadTiming } from './timing';

/** Uploads sending at once, over all connections: the rest wait, and a connection's client keeps slots for other calls. */
const UPLOADS_AT_ONCE = 2;

/** What the service works with. */
export interface UploadServiceOptions {
  /** `<userData>/uploads`: the ledger and the spools. */
  stateDir: string;
  /** The queued client of a connection; undefined when the connection no longer exists. */
  clientFor(connectionId: string): QueuedClient | undefined;
  hasKey(connectionId: string): Promise<boolean>;
  /** Hears every change of an upload: its state, and its progress at most every `progressEveryMs`. */
  onChange(entry: UploadEntry): void;
  log(message: string, error?: unknown): void;
  timing?: Partial<UploadTiming>;
  now?: () => Date;
  random?: () => number;
}

/** The running upload service. */
export interface UploadService {
  /** Remembers files the host's dialog answered, for `start`; the page gets ids, never paths. */
  registerChoices(paths: readonly string[]): Promise<ChosenFiles>;
  /** Makes a spool for `size` bytes the page will send; answers its id. */
  openSpool(fileName: string, size: number): Promise<string>;
  /** Writes the next chunk of a spool; answers the bytes it holds. */
  writeSpool(spoolId: string, offset: number, bytes: Uint8Array): Promise<number>;
  /** Starts an upload; it runs on its own from here, and its changes are heard through `onChange`. */
  start(request: UploadStart): Promise<UploadEntry>;
  /** The uploads of one connection or all, newest first. */
  list(connectionId?: string): UploadEntry[];
  /** Stops an upload that has not ended; a remote file it created and that got no content is deleted (best effort). */
  cancel(uploadId: string): Promise<UploadEntry>;
  /** Starts a failed or cancelled upload again, when its bytes are still there. */
  retry(uploadId: string): Promise<UploadEntry>;
  /** Removes an upload that has ended, its spool, and an empty remote file it created. */
  forget(uploadId: string): Promise<void>;
  /** The connection may be reachable now (a call succeeded, its address changed): its waiting uploads try at once. */
  wake(connectionId: string): void;
  /** Stops the uploads where they are (the ledger keeps them for the next start) and closes the spools. */
  close(): Promise<void>;
}

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

class Uploads implements UploadService {
  readonly #options: UploadServiceOptions;
  readonly #timing: UploadTiming;
  readonly #now: () => Date;
  readonly #random: () => number;
  readonly #records: UploadRecords;
  readonly #attemptContext: AttemptContext;
  readonly #spools: SpoolStore;
  readonly #choices = new ChoiceRegistry();
  readonly #waits = new OfflineWaits();
  readonly #slots = new SlotQueue(UPLOADS_AT_ONCE);
  readonly #runs = new Map<string, Run>();
  /** Deletions of remote files after a cancel, by upload. */
  readonly #deletions = new Map<string, Promise<void>>();
  /** Spools of ended uploads removed after `keepEndedSpoolMs`, so a sweep does not remove them again. */
  readonly #expiredSpools = new Set<string>();
  readonly #sweepTimer: ReturnType<typeof setInterval>;
  /** Aborts when the service closes, also the work that belongs to no upload's run (deletions of remote files). */
  readonly #closing = new AbortController();
  #sweeping = false;

  constructor(options: UploadServiceOptions, timing: UploadTiming, ledger: UploadLedger, spools: SpoolStore) {
    this.#options = options;
    this.#timing = timing;
    this.#now = options.now ?? (() => new Date());
    this.#random = options.random ?? Math.random;
    this.#records = new UploadRecords(ledger, options.onChange, this.#now, timing.progressEveryMs);
    this.#spools = spools;
    this.#attemptContext = {
      records: this.#records,
      spools,
      clientFor: options.clientFor,
      hasKey: options.hasKey,
      log: options.log,
    };
    const sweepEveryMs = Math.max(10, Math.min(timing.unclaimedMs, timing.stalledMs) / 4);
    this.#sweepTimer = setInterval(() => void this.#sweep(), sweepEveryMs);
    this.#sweepTimer.unref();
  }

  /** Carries on every upload that had not ended when the host stopped. */
  resume(): void {
    for (const record of this.#records.list()) {
      if (!ACTIVE_STATES.has(record.entry.state)) continue;
      this.#records.set(record.entry.id, { sentBytes: 0, bytesPerSecond: null, secondsLeft: null });
      this.#launch(record.entry.id);
    }
  }

  registerChoices(paths: readonly string[]): Promise<ChosenFiles> {
    return this.#choices.register(paths);
  }

  openSpool(fileName: string, size: number): Promise<string> {
    return this.#spools.open(fileName, size);
  }

  writeSpool(spoolId: string, offset: number, bytes: Uint8Array): Promise<number> {
    return this.#spools.write(spoolId, offset, bytes);
  }

  async start(request: UploadStart): Promise<UploadEntry> {
    if (this.#closing.signal.aborted) throw new BridgeError('unavailable', 'The app is closing; add the file again after it started.');
    if (this.#options.clientFor(request.connectionId) === undefined) throw new BridgeError('not-found', 'This connection no longer exists.');
    const { target } = request;
    if (target.kind === 'building-file' && target.replaceFileId !== undefined && target.fileType !== 0) {
      throw new BridgeError('invalid-request', 'Only a source file takes a new version; add a document as a new file.');
    }
    let source: StoredSource;
    switch (request.source.kind) {
      case 'chosen': {
        const choice = this.#choices.get(request.source.choiceId);
        if (choice.size !== request.size) {
          throw new BridgeError('invalid-request', `The upload is of ${request.size} bytes, but the chosen file has ${choice.size}.`);
        }
        source = { kind: 'chosen', path: choice.path };
        break;
      }
      case 'spool':
        this.#spools.claim(request.source.spoolId, request.size);
        source = { kind: 'spool', spoolId: request.source.spoolId };
        break;
    }
    const id = randomUUID();
    const now = this.#now().toISOString();
    const entry: UploadEntry = {
      id,
      connectionId: request.connectionId,
      target,
      fileName: request.fileName,
      size: request.size,
      state: 'waiting',
      remoteFileId: target.kind === 'building-file' ? (target.replaceFileId ?? null) : null,
      sentBytes: 0,
      bytesPerSecond: null,
      secondsLeft: null,
      problem: null,
      createdAt: now,
      updatedAt: now,
      doneAt: null,
    };
    this.#records.add({ entry, source, createdRemote: false, createKey: id, remoteStamp: null });
    try {
      await this.#records.save();
    } catch (error) {
      // An upload the ledger does not hold would not survive a restart: it is not started at all.
      this.#records.remove(id);
      throw error;
    }
    this.#options.onChange(entry);
    this.#launch(id);
    return entry;
  }

  list(connectionId?: string): UploadEntry[] {
    return this.#records
      .list()
      .reverse()
      .filter((record) => connectionId === undefined || record.entry.connectionId === connectionId)
      .map((record) => record.entry);
  }

  async cancel(uploadId: string): Promise<UploadEntry> {
    const record = this.#records.get(uploadId);
    if (!ACTIVE_STATES.has(record.entry.state)) throw new BridgeError('conflict', 'This upload has ended already; there is nothing to cancel.');
    // The state first: the run sees its abort as a stop that changes nothing.
    this.#records.set(uploadId, { state: 'cancelled', problem: null, bytesPerSecond: null, secondsLeft: null });
    const run = this.#runs.get(uploadId);
    run?.controller.abort();
    await run?.done;
    await this.#records.save();
    this.#discardCreatedFile(uploadId);
    return this.#records.get(uploadId).entry;
  }

  async retry(uploadId: string): Promise<UploadEntry> {
    const record = this.#records.get(uploadId);
    const { state } = record.entry;
    if (state !== 'failed' && state !== 'cancelled') throw new BridgeError('conflict', 'Only a failed or cancelled upload can be tried again.');
    await this.#deletions.get(uploadId);
    const gone = await sourceProblem(record, this.#spools);
    if (gone !== undefined) {
      this.#records.set(uploadId, { state: 'failed', problem: { code: 'source-gone', message: gone } });
      await this.#records.save();
      throw new BridgeError('not-found', gone);
    }
    const entry = this.#records.set(uploadId, { state: 'waiting', problem: null, sentBytes: 0, bytesPerSecond: null, secondsLeft: null, doneAt: null }).entry;
    await this.#records.save();
    this.#launch(uploadId);
    return entry;
  }

  async forget(uploadId: string): Promise<void> {
    const record = this.#records.get(uploadId);
    if (ACTIVE_STATES.has(record.entry.state)) throw new BridgeError('conflict', 'This upload is still running; cancel it first.');
    // An empty file it made on the server is not left behind (the deletion goes on in the background).
    this.#discardCreatedFile(uploadId);
    this.#records.remove(uploadId);
    await this.#records.save();
    if (record.source.kind === 'spool') await this.#spools.remove(record.source.spoolId);
  }

  wake(connectionId: string): void {
    this.#waits.wake(connectionId);
  }

  async close(): Promise<void> {
    if (this.#closing.signal.aborted) return;
    this.#closing.abort();
    clearInterval(this.#sweepTimer);
    this.#slots.close();
    const runs = [...this.#runs.values()];
    for (const run of runs) run.controller.abort();
    await Promise.all([...runs.map((run) => run.done), ...this.#deletions.values()]);
    await this.#records.save();
    await this.#spools.close();
  }

  #launch(uploadId: string): void {
    const controller = new AbortController();
    const done = this.#drive(uploadId, controller.signal)
      .catch((error: unknown) => this.#options.log('An upload stopped on an unexpected error.', error))
      .finally(() => {
        if (this.#runs.get(uploadId)?.controller === controller) this.#runs.delete(uploadId);
      });
    this.#runs.set(uploadId, { controller, done });
  }

  /** Runs an upload until it is done, fails or is stopped, waiting for the server as long as it cannot be reached. */
  async #drive(uploadId: string, signal: AbortSignal): Promise<void> {
    let offline = 0;
    for (;;) {
      const release = await this.#slots.acquire(signal);
      if (release === undefined) return;
      let end: 'done' | UploadFailure;
      try {
        end = await attemptUpload(this.#attemptContext, uploadId, signal);
      } finally {
        release();
      }
      if (signal.aborted || end === 'done' || end.kind === 'stopped') return;
      if (end.kind !== 'offline') {
        this.#records.set(uploadId, { state: 'failed', problem: problemOf(end), bytesPerSecond: null, secondsLeft: null });
        await this.#records.save();
        const { source } = this.#records.get(uploadId);
        if (end.kind === 'source-gone') {
          // Bytes that are gone can never be sent: their spool goes now rather than after a day, and so does the empty
          // file made for them.
          if (source.kind === 'spool') await this.#spools.remove(source.spoolId);
          this.#discardCreatedFile(uploadId);
        }
        return;
      }
      offline += 1;
      const { connectionId } = this.#records.get(uploadId).entry;
      // A sign of the server from here on, while the ledger is written, still cuts the wait short.
      const wakeUps = this.#waits.wakeUps(connectionId);
      this.#records.set(uploadId, { state: 'waiting', problem: problemOf(end), sentBytes: 0, bytesPerSecond: null, secondsLeft: null });
      await this.#records.save();
      await this.#waits.wait(connectionId, offlineDelayMs(offline, this.#timing.retryBaseMs, this.#timing.retryMaxMs, this.#random), signal, wakeUps);
    }
  }

  /** Deletes the remote file an upload that ended created, once, in the background (a retry waits for it). */
  #discardCreatedFile(uploadId: string): void {
    if (this.#deletions.has(uploadId)) return;
    const deletion = this.#deleteCreatedFile(uploadId).finally(() => this.#deletions.delete(uploadId));
    this.#deletions.set(uploadId, deletion);
  }

  /** Deletes the remote file the upload created, if it got no content; the upload keeps nothing of it. */
  async #deleteCreatedFile(uploadId: string): Promise<void> {
    const record = this.#records.find(uploadId);
    const fileId = record?.entry.remoteFileId ?? null;
    if (record === undefined || !record.createdRemote || fileId === null) return;
    const client = this.#options.clientFor(record.entry.connectionId);
    if (client === undefined) return;
    const { signal } = this.#closing;
    try {
      const file = await readRemoteFile(client, record.entry.target, fileId, signal);
      if (file !== undefined && !isEmpty(file)) return;
      if (file !== undefined) await deleteRemoteFile(client, record.entry.target, fileId, signal);
    } catch (error) {
      this.#options.log(`The empty file of the ended upload of ${record.entry.fileName} could not be deleted on the server.`, error);
      return;
    }
    const now = this.#records.find(uploadId);
    if (now === undefined || ACTIVE_STATES.has(now.entry.state) || now.entry.remoteFileId !== fileId) return;
    this.#records.set(uploadId, { remoteFileId: null }, { createdRemote: false, createKey: randomUUID(), remoteStamp: null });
    await this.#records.save();
  }

  /** Deletes spools nobody needs: unclaimed or stalled ones (the spool store's rules), and those of uploads ended long ago. */
  async #sweep(): Promise<void> {
    if (this.#sweeping || this.#closing.signal.aborted) return;
    this.#sweeping = true;
    try {
      await this.#spools.expire();
      const now = this.#now().getTime();
      for (const record of this.#records.list()) {
        const { state, updatedAt } = record.entry;
        if (record.source.kind !== 'spool' || (state !== 'failed' && state !== 'cancelled')) continue;
        if (this.#expiredSpools.has(record.source.spoolId) || now - Date.parse(updatedAt) < this.#timing.keepEndedSpoolMs) continue;
        this.#expiredSpools.add(record.source.spoolId);
        await this.#spools.remove(record.source.spoolId);
      }
    } catch (error) {
      this.#options.log('Deleting spools nobody needs failed.', error);
    } finally {
      this.#sweeping = false;
    }
  }
}

/**
 * Opens the ledger (an unreadable one is set aside with a log line), deletes spool files no upload needs, and carries
 * on the uploads that had not ended.
 */
export async function startUploadService(options: UploadServiceOptions): Promise<UploadService> {
  const timing: UploadTiming = { ...DEFAULT_UPLOAD_TIMING, ...options.timing };
  const now = options.now ?? (() => new Date());
  const opened = await UploadLedger.open(path.join(options.stateDir, 'uploads.json'));
  if (opened.setAside !== undefined) {
    options.log(`The upload ledger could not be read (${opened.reason ?? 'unknown reason'}) and was moved aside to ${opened.setAside}; the list of uploads starts empty.`);
  }
  const spools = new SpoolStore(path.join(options.stateDir, 'spool'), timing, () => now().getTime(), options.log);
  const needed = opened.ledger
    .list()
    .filter((record) => record.entry.state !== 'done')
    .flatMap((record) => (record.source.kind === 'spool' ? [record.source.spoolId] : []));
  await spools.removeAllBut(new Set(needed));
  const uploads = new Uploads(options, timing, opened.ledger, spools);
  uploads.resume();
  return uploads;
}
