/**
 * The way of one file from its drop folder to a Mapped building file: wait until it is complete, hash it, and upload
 * it when its content is new, then follow the server's processing to its end, activate it if the mapping says so and
 * give notice. Each step is written to the ledger before the next begins, so the work continues after a restart from
 * the last state reached: `uploading` is uploaded again from the start (into the remote file recorded before the first
 * byte was sent), `processing` is polled (`processing-follower.ts`). Every state change goes through
 * `file-state-changes.ts`, which announces it.
 */
import path from 'node:path';
import { assertNever, BuildingFileStatuses } from '../../shared/api/enums';
import type { BuildingFileResponse } from '../../shared/api/schemas';
import type { DropFolderMapping } from '../../shared/dropfolders';
import { MAX_UPLOAD_BYTES, tooLargeToUpload } from '../../shared/uploads';
import { sameStamp, waitUntilComplete } from './completeness';
import { sha256OfFile } from './content-hash';
import { errorCodeOf, isPermissionDenied, UnsafeFileError } from './file-access';
import { absolutePathOf, buildingFolderOf, fileKindOf } from './file-rules';
import { FileProgress } from './file-progress';
import { isTerminal, keyOf, noticeOf } from './file-rows';
import { FileStateChanges } from './file-state-changes';
import { entryOf, PERMISSION_DENIED_NOTE, stampOf } from './folder-entry';
import type { LedgerKey, LedgerRow } from './ledger';
import { followProcessing, type ProcessingWork } from './processing-follower';
import { acceptsUpload, getFile, RemoteFailure, uploadFile, type DropFolderClient } from './remote';
import { adoptOrCreate, buildingOf } from './remote-target';
import { retryDelayMs } from './timing';
import type { UploaderContext } from './uploader-context';

/** The work on the files of one mapping. */
export class MappingUploader {
  readonly #ctx: UploaderContext;
  readonly #mapping: DropFolderMapping;
  readonly #signal: AbortSignal;
  readonly #progress: FileProgress;
  readonly #states: FileStateChanges;
  /** What following a file's processing works with: this uploader's own. */
  readonly #work: ProcessingWork;

  constructor(ctx: UploaderContext, mapping: DropFolderMapping, signal: AbortSignal) {
    this.#ctx = ctx;
    this.#mapping = mapping;
    this.#signal = signal;
    this.#progress = new FileProgress(ctx);
    this.#states = new FileStateChanges(ctx, this.#progress);
    this.#work = { ctx, mapping, signal, progress: this.#progress, states: this.#states, client: () => this.#client() };
  }

  /**
   * Takes a file as far as it goes: to an end, or until the work is stopped. Answers true when the file must be looked
   * at again straight away (it changed while it was being handled).
   */
  async run(relativePath: string): Promise<boolean> {
    const key: LedgerKey = { mappingId: this.#mapping.id, path: relativePath };
    let row = this.#ctx.ledger.get(key);
    if (row?.state === 'processing') {
      await followProcessing(this.#work, row);
      return true;
    }
    const kind = fileKindOf(relativePath, this.#mapping);
    if (kind === undefined) return false;
    const { folder } = this.#mapping;
    const absolute = absolutePathOf(folder, relativePath);
    const entry = await entryOf(folder, relativePath);
    if (entry === undefined) {
      if (row !== undefined) this.#vanished(row);
      return false;
    }
    const seen = entry.stamp;
    if (row !== undefined && sameStamp(row, seen)) {
      if (isTerminal(row.state)) return false;
      if (row.state === 'uploading') return this.#upload(row);
    }
    const changes = { kind, size: seen.size, mtimeMs: seen.mtimeMs, progress: null };
    if (row === undefined) {
      row = this.#ctx.ledger.insert(key, changes);
      this.#states.announce(row, null);
    } else {
      row = this.#states.change(row, 'detected', changes);
    }
    if (entry.kind === 'refused') {
      this.#states.change(row, 'failed', { lastError: entry.note }, entry.note);
      return false;
    }
    if (this.#mapping.target.kind === 'portfolio' && buildingFolderOf(relativePath) === undefined) {
      this.#states.change(row, 'failed', {
        lastError: 'A file directly in a portfolio folder belongs to no building: put it in a subfolder named after its building.',
      });
      return false;
    }

    const completeness = await waitUntilComplete(absolute, {
      stableMs: this.#ctx.timing.stableMs,
      sleep: this.#ctx.sleep,
      signal: this.#signal,
      platform: this.#ctx.platform,
    });
    switch (completeness.kind) {
      case 'stopped':
        return false;
      case 'gone':
      case 'empty':
        this.#vanished(row);
        return false;
      case 'unreadable':
        this.#states.change(row, 'failed', { lastError: PERMISSION_DENIED_NOTE }, PERMISSION_DENIED_NOTE);
        return false;
      case 'complete':
        break;
      default:
        return assertNever(completeness, 'completeness');
    }
    // Refused before a byte is read: hashing and sending it would only end in the server's 413.
    if (completeness.stamp.size > MAX_UPLOAD_BYTES) {
      const reason = tooLargeToUpload(path.posix.basename(relativePath));
      this.#states.change(row, 'failed', { size: completeness.stamp.size, mtimeMs: completeness.stamp.mtimeMs, lastError: reason }, reason);
      return false;
    }

    const release = await this.#ctx.diskSlots.acquire(this.#signal);
    if (release === undefined) return false;
    let sha256: string;
    try {
      row = this.#states.change(row, 'hashing', { size: completeness.stamp.size, mtimeMs: completeness.stamp.mtimeMs }, `${completeness.stamp.size} bytes`);
      try {
        ({ sha256 } = await sha256OfFile(folder, relativePath, this.#signal));
      } catch (error) {
        if (this.#signal.aborted) return false;
        if (errorCodeOf(error) === 'ENOENT') {
          this.#vanished(row);
          return false;
        }
        if (isPermissionDenied(error)) {
          this.#states.change(row, 'failed', { lastError: PERMISSION_DENIED_NOTE }, PERMISSION_DENIED_NOTE);
          return false;
        }
        // A link or another file put in the file's place after it was found complete: looked at again, it is told
        // as what it is. A hard link made meanwhile, or a folder on the way turned into a link, is refused as such.
        if (errorCodeOf(error) === 'ELOOP' || (error instanceof UnsafeFileError && error.reason === 'replaced')) return true;
        if (error instanceof UnsafeFileError) {
          this.#states.change(row, 'failed', { lastError: error.message }, error.message);
          return false;
        }
        throw error;
      }
    } finally {
      release();
    }
    const after = await stampOf(folder, relativePath);
    if (after === undefined || !sameStamp(after, completeness.stamp)) {
      this.#states.change(row, 'detected', after === undefined ? {} : { size: after.size, mtimeMs: after.mtimeMs }, 'changed while it was read');
      return true;
    }
    if (row.result !== null && row.deliveredSha256 === sha256) {
      this.#states.change(row, row.result, { sha256 }, 'unchanged content: nothing uploaded');
      return false;
    }
    row = this.#states.change(
      row,
      'uploading',
      { sha256, attempts: 0, lastError: null, remoteStamp: null, remoteStatus: null, remoteMessage: null },
      row.fileId === null ? 'new file' : 'changed content',
    );
    return this.#upload(row);
  }

  /** Starts the work again from the beginning for a failed file, uploading even content that was delivered before. */
  retry(row: LedgerRow): void {
    this.#states.change(row, 'detected', { deliveredSha256: null, result: null, lastError: null, attempts: 0 }, 'retry');
  }

  /** The local file went away before its content was delivered: back to what the last delivery reached, or forgotten. */
  #vanished(row: LedgerRow): void {
    if (isTerminal(row.state) || row.state === 'processing') return;
    if (row.result !== null) {
      this.#states.change(row, row.result, { progress: null }, 'the file was removed; the server keeps the last version');
      return;
    }
    this.#ctx.ledger.remove(keyOf(row));
    this.#progress.clear(row);
    this.#ctx.emit({ kind: 'file-removed', mappingId: row.mappingId, path: row.path });
  }

  /** Uploads the row's content until it is delivered, given up, or the work stops. */
  async #upload(start: LedgerRow): Promise<boolean> {
    let row = start;
    const { folder } = this.#mapping;
    let failures = 0;
    let gone = 0;
    for (;;) {
      if (this.#signal.aborted) return false;
      const seen = await stampOf(folder, row.path);
      if (seen === undefined) {
        this.#vanished(row);
        return false;
      }
      if (!sameStamp(seen, row)) {
        this.#states.change(row, 'detected', { size: seen.size, mtimeMs: seen.mtimeMs, progress: null }, 'changed before it was uploaded');
        return true;
      }
      try {
        const client = this.#client();
        const buildingId = await buildingOf(this.#ctx, this.#mapping, row, client, this.#signal);
        if (row.buildingId !== buildingId) row = this.#ctx.ledger.update(keyOf(row), { buildingId });
        let file = row.fileId === null ? undefined : await getFile(client, buildingId, row.fileId, this.#signal);
        if (file !== undefined && this.#landed(row, file)) return await this.#delivered(row, row.sha256);
        if (file === undefined || (row.kind === 'information' && file.status !== BuildingFileStatuses.Creating)) {
          file = await adoptOrCreate(this.#ctx, row, client, buildingId, this.#signal);
          // Recorded before any byte is sent: a restart uploads into this file instead of creating another.
          row = this.#ctx.ledger.update(keyOf(row), { fileId: file.id, remoteStamp: null });
        }
        while (!acceptsUpload(row.kind, file.status)) {
          // A previous version is still being processed; a new one is accepted once that has ended.
          await this.#ctx.sleep(this.#ctx.timing.statusPollMs, this.#signal);
          if (this.#signal.aborted) return false;
          file = await getFile(client, buildingId, file.id, this.#signal);
          if (file === undefined) throw new RemoteFailure('gone', 'The file was deleted on the server.', 404);
        }
        const attempt = { remoteStamp: file.lastModifiedDate, attempts: row.attempts + 1 };
        // A repeat (after a failure or a restart) is worth a line of its own; the first attempt was announced already.
        row = row.attempts === 0 ? this.#ctx.ledger.update(keyOf(row), attempt) : this.#states.change(row, 'uploading', attempt, `attempt ${attempt.attempts}`);
        const release = await this.#ctx.diskSlots.acquire(this.#signal);
        if (release === undefined) return false;
        try {
          this.#progress.report(row, { step: 'upload', done: 0, total: row.size }, true);
          await uploadFile(
            client,
            { buildingId, fileId: file.id, fileName: path.posix.basename(row.path), folder, relativeKey: row.path, size: row.size },
            (transfer) => this.#progress.report(row, { step: 'upload', done: transfer.loaded, total: transfer.total ?? row.size }, false),
            this.#signal,
          );
        } finally {
          release();
        }
        // The content sent was read again from disk: it is the hashed one only if the file did not change meanwhile.
        const afterUpload = await stampOf(folder, row.path);
        return await this.#delivered(row, afterUpload !== undefined && sameStamp(afterUpload, row) ? row.sha256 : null);
      } catch (error) {
        if (!(error instanceof RemoteFailure)) throw error;
        switch (error.kind) {
          case 'stopped':
            return false;
          case 'transient': {
            failures += 1;
            const delay = retryDelayMs(this.#ctx.timing, failures, this.#ctx.random);
            row = this.#states.change(row, 'uploading', { lastError: error.message, progress: null }, `retrying in ${Math.round(delay / 1000)} s: ${error.message}`);
            await this.#ctx.sleep(delay, this.#signal);
            continue;
          }
          case 'conflict':
            // Busy or changed meanwhile (our own upload may have landed before its answer was lost): look again.
            row = this.#ctx.ledger.update(keyOf(row), { lastError: error.message });
            await this.#ctx.sleep(this.#ctx.timing.statusPollMs, this.#signal);
            continue;
          case 'gone':
            gone += 1;
            if (gone <= 2 && row.fileId !== null) {
              row = this.#ctx.ledger.update(keyOf(row), { fileId: null, remoteStamp: null });
              continue;
            }
            if (gone <= 2 && this.#mapping.target.kind === 'portfolio') {
              const folderName = buildingFolderOf(row.path);
              if (folderName !== undefined) this.#ctx.ledger.forgetBuilding(this.#mapping.id, folderName);
              row = this.#ctx.ledger.update(keyOf(row), { buildingId: null, fileId: null, remoteStamp: null });
              continue;
            }
            this.#states.fail(row, error.message);
            return false;
          case 'permanent':
            this.#states.fail(row, error.message);
            return false;
          default:
            return assertNever(error.kind, 'failure kind');
        }
      }
    }
  }

  /** Whether the row's upload reached the remote file already (an answer lost in a crash or on the network). */
  #landed(row: LedgerRow, file: BuildingFileResponse): boolean {
    return (
      row.remoteStamp !== null &&
      file.status !== BuildingFileStatuses.Creating &&
      file.lastModifiedDate !== row.remoteStamp &&
      file.fileSize === row.size
    );
  }

  /** The upload is on the server: an information file is done, a source file is processed next. */
  async #delivered(start: LedgerRow, deliveredSha256: string | null): Promise<boolean> {
    this.#progress.clear(start);
    const common = { deliveredSha256, lastError: null, progress: null };
    if (start.kind === 'information') {
      const row = this.#states.change(start, 'stored', { ...common, result: 'stored', remoteStatus: BuildingFileStatuses.Uploaded }, `file ${start.fileId}`);
      this.#ctx.emit(noticeOf(row, 'stored', 'Stored as an information file.'));
      return true;
    }
    const row = this.#states.change(start, 'processing', { ...common, result: null }, `file ${start.fileId}`);
    await followProcessing(this.#work, row);
    return true;
  }

  /** The mapping's client; a connection that is gone is waited for like a server that cannot be reached. */
  #client(): DropFolderClient {
    const client = this.#ctx.clientFor(this.#mapping.connectionId);
    if (client === undefined) throw new RemoteFailure('transient', `The connection ${this.#mapping.connectionId} is not available.`);
    return client;
  }
}
