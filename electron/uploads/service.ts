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
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { BuildingFileType } from '../../shared/api/enums';
import { BridgeError } from '../../shared/ipc';
import type { ChosenFiles, UploadEntry, UploadStart, UploadState } from '../../shared/uploads';
import type { QueuedClient } from '../http/queued-client';
import { SlotQueue } from '../http/slot-queue';
import { ChoiceRegistry } from './choices';
import { fileChunks, SourceGoneError, completeFile } from './file-chunks';
import { problemOf, UploadFailure } from './failure';
import { UploadLedger, type StoredSource, type UploadRecord } from './ledger';
import { OfflineWaits, offlineDelayMs } from './offline-wait';
import { createRemoteFile, deleteRemoteFile, isEmpty, readRemoteFile, sendContent, takesUpload, type RemoteFile } from './remote';
import { SpoolStore, type SpoolTiming } from './spool';
import { TransferRate } from './transfer-rate';

/** The waits of uploads; tests shorten them. */
export interface UploadTiming extends SpoolTiming {
  /** The first wait after the server could not be reached; it doubles up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Progress of an upload is sent at most this often. */
  progressEveryMs: number;
  /** A failed or cancelled upload keeps its spool this long, for a retry. */
  keepEndedSpoolMs: number;
}

/** The waits of a service that sets none. */
export const DEFAULT_UPLOAD_TIMING: Readonly<UploadTiming> = {
  retryBaseMs: 5_000,
  retryMaxMs: 5 * 60_000,
  progressEveryMs: 250,
  keepEndedSpoolMs: 24 * 60 * 60_000,
  unclaimedMs: 15 * 60_000,
  stalledMs: 30_000,
};

/** Uploads sending at once, over all connections: the rest wait, and a connection's client keeps slots for other calls. */
const UPLOADS_AT_ONCE = 2;

const ACTIVE_STATES: ReadonlySet<UploadState> = new Set(['waiting', 'creating', 'sending']);

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

/** What one attempt got to. `file-gone`: the remote file it worked with was deleted meanwhile. */
type AttemptEnd = 'done' | 'file-gone' | UploadFailure;

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

/** Passes a file's pieces on; tells `onLoss` when they cannot all be read, before the stream fails. */
async function* reportingLoss(chunks: AsyncGenerator<Uint8Array>, onLoss: (message: string) => void): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    if (error instanceof SourceGoneError) onLoss(error.message);
    throw error;
  }
}

/**
 * Whether the bytes of an upload are in the remote file already: the answer to the send was lost, or the host stopped
 * before it came. A file this upload created holds them once it is no longer empty; an existing file took them when it
 * changed since just before they were sent. Either way with this upload's size.
 */
export function hasLanded(record: UploadRecord, file: RemoteFile): boolean {
  if (isEmpty(file) || file.fileSize !== record.entry.size) return false;
  return record.createdRemote || (record.remoteStamp !== null && file.lastModifiedDate !== record.remoteStamp);
}

class Uploads implements UploadService {
  readonly #options: UploadServiceOptions;
  readonly #timing: UploadTiming;
  readonly #now: () => Date;
  readonly #random: () => number;
  readonly #ledger: UploadLedger;
  readonly #spools: SpoolStore;
  readonly #choices = new ChoiceRegistry();
  readonly #waits = new OfflineWaits();
  readonly #slots = new SlotQueue(UPLOADS_AT_ONCE);
  readonly #runs = new Map<string, Run>();
  /** Deletions of remote files after a cancel, by upload. */
  readonly #deletions = new Map<string, Promise<void>>();
  readonly #progressSentAt = new Map<string, number>();
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
    this.#ledger = ledger;
    this.#spools = spools;
    const sweepEveryMs = Math.max(10, Math.min(timing.unclaimedMs, timing.stalledMs) / 4);
    this.#sweepTimer = setInterval(() => void this.#sweep(), sweepEveryMs);
    this.#sweepTimer.unref();
  }

  /** Carries on every upload that had not ended when the host stopped. */
  resume(): void {
    for (const record of this.#ledger.list()) {
      if (!ACTIVE_STATES.has(record.entry.state)) continue;
      this.#set(record.entry.id, { sentBytes: 0, bytesPerSecond: null, secondsLeft: null });
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
    this.#ledger.put({ entry, source, createdRemote: false, createKey: id, remoteStamp: null });
    try {
      await this.#ledger.save();
    } catch (error) {
      // An upload the ledger does not hold would not survive a restart: it is not started at all.
      this.#ledger.remove(id);
      throw error;
    }
    this.#options.onChange(entry);
    this.#launch(id);
    return entry;
  }

  list(connectionId?: string): UploadEntry[] {
    return this.#ledger
      .list()
      .reverse()
      .filter((record) => connectionId === undefined || record.entry.connectionId === connectionId)
      .map((record) => record.entry);
  }

  async cancel(uploadId: string): Promise<UploadEntry> {
    const record = this.#recordOf(uploadId);
    if (!ACTIVE_STATES.has(record.entry.state)) throw new BridgeError('conflict', 'This upload has ended already; there is nothing to cancel.');
    // The state first: the run sees its abort as a stop that changes nothing.
    this.#set(uploadId, { state: 'cancelled', problem: null, bytesPerSecond: null, secondsLeft: null });
    const run = this.#runs.get(uploadId);
    run?.controller.abort();
    await run?.done;
    await this.#ledger.save();
    this.#discardCreatedFile(uploadId);
    return this.#recordOf(uploadId).entry;
  }

  async retry(uploadId: string): Promise<UploadEntry> {
    const record = this.#recordOf(uploadId);
    const { state } = record.entry;
    if (state !== 'failed' && state !== 'cancelled') throw new BridgeError('conflict', 'Only a failed or cancelled upload can be tried again.');
    await this.#deletions.get(uploadId);
    const gone = await this.#sourceProblem(record);
    if (gone !== undefined) {
      this.#set(uploadId, { state: 'failed', problem: { code: 'source-gone', message: gone } });
      await this.#ledger.save();
      throw new BridgeError('not-found', gone);
    }
    const entry = this.#set(uploadId, { state: 'waiting', problem: null, sentBytes: 0, bytesPerSecond: null, secondsLeft: null, doneAt: null }).entry;
    await this.#ledger.save();
    this.#launch(uploadId);
    return entry;
  }

  async forget(uploadId: string): Promise<void> {
    const record = this.#recordOf(uploadId);
    if (ACTIVE_STATES.has(record.entry.state)) throw new BridgeError('conflict', 'This upload is still running; cancel it first.');
    // An empty file it made on the server is not left behind (the deletion goes on in the background).
    this.#discardCreatedFile(uploadId);
    this.#ledger.remove(uploadId);
    this.#progressSentAt.delete(uploadId);
    await this.#ledger.save();
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
    await this.#ledger.save();
    await this.#spools.close();
  }

  #recordOf(uploadId: string): UploadRecord {
    const record = this.#ledger.get(uploadId);
    if (record === undefined) throw new BridgeError('not-found', 'This upload is no longer in the list.');
    return record;
  }

  /** Changes an upload in memory and tells the screens; the caller saves the ledger where a restart needs the change. */
  #set(uploadId: string, changes: Partial<UploadEntry>, recordChanges: Partial<Omit<UploadRecord, 'entry'>> = {}): UploadRecord {
    const record = this.#recordOf(uploadId);
    const entry: UploadEntry = { ...record.entry, ...changes, updatedAt: this.#now().toISOString() };
    const next: UploadRecord = { ...record, ...recordChanges, entry };
    this.#ledger.put(next);
    this.#options.onChange(entry);
    return next;
  }

  /** `#set` for a run: a run that was stopped (a cancel, the host closing) changes nothing any more. */
  #setWhileRunning(uploadId: string, signal: AbortSignal, changes: Partial<UploadEntry>, recordChanges: Partial<Omit<UploadRecord, 'entry'>> = {}): UploadRecord {
    if (signal.aborted) throw new UploadFailure('stopped', 'The upload was stopped.');
    return this.#set(uploadId, changes, recordChanges);
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
        end = await this.#attempt(uploadId, signal);
      } finally {
        release();
      }
      if (signal.aborted || end === 'done' || end.kind === 'stopped') return;
      if (end.kind !== 'offline') {
        this.#set(uploadId, { state: 'failed', problem: problemOf(end), bytesPerSecond: null, secondsLeft: null });
        await this.#ledger.save();
        const { source } = this.#recordOf(uploadId);
        if (end.kind === 'source-gone') {
          // Bytes that are gone can never be sent: their spool goes now rather than after a day, and so does the empty
          // file made for them.
          if (source.kind === 'spool') await this.#spools.remove(source.spoolId);
          this.#discardCreatedFile(uploadId);
        }
        return;
      }
      offline += 1;
      const { connectionId } = this.#recordOf(uploadId).entry;
      // A sign of the server from here on, while the ledger is written, still cuts the wait short.
      const wakeUps = this.#waits.wakeUps(connectionId);
      this.#set(uploadId, { state: 'waiting', problem: problemOf(end), sentBytes: 0, bytesPerSecond: null, secondsLeft: null });
      await this.#ledger.save();
      await this.#waits.wait(connectionId, offlineDelayMs(offline, this.#timing.retryBaseMs, this.#timing.retryMaxMs, this.#random), signal, wakeUps);
    }
  }

  /** One attempt; a remote file of ours that was deleted meanwhile is made anew once. */
  async #attempt(uploadId: string, signal: AbortSignal): Promise<'done' | UploadFailure> {
    try {
      for (let remade = 0; ; remade += 1) {
        const end = await this.#attemptOnce(uploadId, signal);
        if (end !== 'file-gone') return end;
        const record = this.#recordOf(uploadId);
        if (!record.createdRemote) return new UploadFailure('refused', 'The file to add a version to no longer exists on the server.');
        if (remade >= 1) return new UploadFailure('refused', 'The file on the server was deleted while it was being uploaded.');
        // A new key: the old one would answer the deleted file again.
        this.#setWhileRunning(uploadId, signal, { remoteFileId: null }, { createdRemote: false, createKey: randomUUID(), remoteStamp: null });
      }
    } catch (error) {
      if (error instanceof UploadFailure) return error;
      if (error instanceof SourceGoneError) return new UploadFailure('source-gone', error.message);
      if (signal.aborted) return new UploadFailure('stopped', 'The upload was stopped.');
      this.#options.log('An upload attempt failed on an unexpected error.', error);
      return new UploadFailure('internal', 'Something went wrong in the app; the details are in its log.');
    }
  }

  async #attemptOnce(uploadId: string, signal: AbortSignal): Promise<AttemptEnd> {
    let record = this.#recordOf(uploadId);
    const { connectionId, target, fileName, size } = record.entry;
    const client = this.#options.clientFor(connectionId);
    if (client === undefined) return new UploadFailure('refused', 'Its connection was removed, so the file cannot be sent.');
    if (!(await this.#options.hasKey(connectionId))) {
      return new UploadFailure('no-key', 'This connection has no key; set one under Connections, then retry.');
    }
    const gone = await this.#sourceProblem(record);
    if (gone !== undefined) return new UploadFailure('source-gone', gone);

    let remote: RemoteFile;
    if (record.entry.remoteFileId === null) {
      record = this.#setWhileRunning(uploadId, signal, { state: 'creating', problem: null });
      await this.#ledger.save();
      remote = await createRemoteFile(client, target, fileName, record.createKey, signal);
      // Recorded before any byte is sent: a restart sends into this file instead of making another.
      record = this.#setWhileRunning(uploadId, signal, { remoteFileId: remote.id }, { createdRemote: true, remoteStamp: remote.lastModifiedDate });
      await this.#ledger.save();
    } else {
      const found = await readRemoteFile(client, target, record.entry.remoteFileId, signal);
      if (found === undefined) return 'file-gone';
      if (hasLanded(record, found)) return this.#finish(uploadId, signal);
      if (!takesUpload(found)) return new UploadFailure('refused', this.#busyReason(found));
      record = this.#setWhileRunning(uploadId, signal, {}, { remoteStamp: found.lastModifiedDate });
      remote = found;
    }

    record = this.#setWhileRunning(uploadId, signal, { state: 'sending', problem: null, sentBytes: 0, bytesPerSecond: null, secondsLeft: null });
    await this.#ledger.save();
    const lost = new AbortController();
    let lostMessage: string | undefined;
    const sendSignal = AbortSignal.any([signal, lost.signal]);
    const { file, growth } = this.#bytesOf(record);
    const body = (): Readable =>
      Readable.from(
        reportingLoss(fileChunks(file, size, growth, sendSignal, fileName), (message) => {
          lostMessage = message;
          lost.abort();
        }),
        { highWaterMark: 4 },
      );
    const rate = new TransferRate();
    rate.record(performance.now(), 0);
    try {
      await sendContent(client, target, {
        fileId: remote.id,
        fileName,
        body,
        size,
        onProgress: (progress) => this.#progress(uploadId, signal, rate, progress.loaded),
        signal: sendSignal,
      });
    } catch (error) {
      if (lostMessage !== undefined) return new UploadFailure('source-gone', lostMessage);
      if (!(error instanceof UploadFailure)) throw error;
      if (error.kind === 'gone') return 'file-gone';
      if (error.kind !== 'busy') throw error;
      // A send repeated after a lost answer meets the bytes it sent before.
      const after = await readRemoteFile(client, target, remote.id, signal);
      if (after === undefined) return 'file-gone';
      if (hasLanded(this.#recordOf(uploadId), after)) return this.#finish(uploadId, signal);
      return new UploadFailure('refused', this.#busyReason(after));
    }
    return this.#finish(uploadId, signal);
  }

  /** Why a file takes no upload now, for the user. */
  #busyReason(file: RemoteFile): string {
    if (file.type === BuildingFileType.Source) {
      return 'The file on the server is still being processed; a new version can be added once that has ended.';
    }
    return 'The file on the server has its content already; add the file as a new one.';
  }

  async #finish(uploadId: string, signal: AbortSignal): Promise<'done'> {
    const { size } = this.#recordOf(uploadId).entry;
    const record = this.#setWhileRunning(uploadId, signal, {
      state: 'done',
      problem: null,
      sentBytes: size,
      bytesPerSecond: null,
      secondsLeft: null,
      doneAt: this.#now().toISOString(),
    });
    this.#progressSentAt.delete(uploadId);
    await this.#ledger.save();
    if (record.source.kind === 'spool') await this.#spools.remove(record.source.spoolId);
    return 'done';
  }

  /** Keeps the bytes sent in the entry, and tells the screens at most every `progressEveryMs` (and at the end). */
  #progress(uploadId: string, signal: AbortSignal, rate: TransferRate, sent: number): void {
    const record = this.#ledger.get(uploadId);
    if (signal.aborted || record === undefined || record.entry.state !== 'sending') return;
    const at = performance.now();
    rate.record(at, sent);
    const { size } = record.entry;
    const entry: UploadEntry = { ...record.entry, sentBytes: sent, bytesPerSecond: rate.bytesPerSecond(), secondsLeft: rate.secondsLeft(size) };
    this.#ledger.put({ ...record, entry });
    const last = this.#progressSentAt.get(uploadId);
    if (sent < size && last !== undefined && at - last < this.#timing.progressEveryMs) return;
    this.#progressSentAt.set(uploadId, at);
    this.#options.onChange(entry);
  }

  /** Where an upload's bytes are read from, and how much of them is there. */
  #bytesOf(record: UploadRecord): { file: string; growth: ReturnType<SpoolStore['growth']> } {
    const { source } = record;
    if (source.kind === 'chosen') return { file: source.path, growth: completeFile(record.entry.size) };
    return { file: this.#spools.fileOf(source.spoolId), growth: this.#spools.growth(source.spoolId, record.entry.size) };
  }

  /** Why an upload's bytes cannot be sent (gone, changed, not all there), or undefined when they can. */
  async #sourceProblem(record: UploadRecord): Promise<string | undefined> {
    const { source, entry } = record;
    if (source.kind === 'spool') {
      const state = await this.#spools.state(source.spoolId, entry.size);
      return state.kind === 'gone' ? state.message : undefined;
    }
    const info = await stat(source.path).catch(() => undefined);
    if (info === undefined || !info.isFile()) return `${path.basename(source.path)} is no longer where it was chosen; choose it again.`;
    if (info.size !== entry.size) return `${path.basename(source.path)} changed since it was chosen; choose it again.`;
    return undefined;
  }

  /** Deletes the remote file an upload that ended created, once, in the background (a retry waits for it). */
  #discardCreatedFile(uploadId: string): void {
    if (this.#deletions.has(uploadId)) return;
    const deletion = this.#deleteCreatedFile(uploadId).finally(() => this.#deletions.delete(uploadId));
    this.#deletions.set(uploadId, deletion);
  }

  /** Deletes the remote file the upload created, if it got no content; the upload keeps nothing of it. */
  async #deleteCreatedFile(uploadId: string): Promise<void> {
    const record = this.#ledger.get(uploadId);
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
    const now = this.#ledger.get(uploadId);
    if (now === undefined || ACTIVE_STATES.has(now.entry.state) || now.entry.remoteFileId !== fileId) return;
    this.#set(uploadId, { remoteFileId: null }, { createdRemote: false, createKey: randomUUID(), remoteStamp: null });
    await this.#ledger.save();
  }

  /** Deletes spools nobody needs: unclaimed or stalled ones (the spool store's rules), and those of uploads ended long ago. */
  async #sweep(): Promise<void> {
    if (this.#sweeping || this.#closing.signal.aborted) return;
    this.#sweeping = true;
    try {
      await this.#spools.expire();
      const now = this.#now().getTime();
      for (const record of this.#ledger.list()) {
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
