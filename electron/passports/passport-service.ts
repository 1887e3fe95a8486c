/**
 * Passports that land in a folder by themselves. A target names a building or portfolio of a connection, a folder,
 * the formats and the language; the service asks the server for passports when told to (`request`) and, when the
 * target says so, every time a source file reaches Mapped. It polls the target's files and saves every finished
 * passport (building files of type 1000/1001, portfolio files of type 1000, status Uploaded) through its signed
 * address into the folder as `<name> - passport - <YYYY-MM-DD>.pdf|xlsx`, exactly once: a ledger on disk remembers
 * what was saved, and a download cut short by a crash is cleaned up and done again at the next start.
 *
 * Passports made on the server by someone else after the target's first check are saved too (origin `found`);
 * those that were there before are left alone. Only documented endpoints are used, so it works against any server
 * of the spec; the passport file of a request is taken from the answer (decisions §3) or, when the answer does not
 * name it, from the next new passport file of its format.
 *
 * This file opens the records (passport-records.ts: state, ledger, events), makes the context the checks work with
 * (passport-context.ts) and the check loop (check-loop.ts), and answers the host's calls; a check of a target is
 * check-target.ts, which follows each passport file (follow-passport.ts) and downloads the finished ones
 * (download-passport.ts).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Value } from 'typebox/value';
import { BridgeError } from '../../shared/ipc';
import { unsafeFolderReason, type FolderSafetyContext } from '../folder-safety';
import type { QueuedClient } from '../http/queued-client';
import {
  PassportRequestOptions,
  PassportTargetChanges,
  PassportTargetDraft,
  type PassportEntry,
  type PassportEvent,
  type PassportFormat,
  type PassportSubject,
  type PassportTarget,
} from '../../shared/passports';
import { CheckLoop } from './check-loop';
import type { PassportContext } from './passport-context';
import { publicEntry, publicTarget, type StoredTarget } from './passport-model';
import { PassportRecords } from './passport-records';
import type { PlaceFunction, PlaceRetryPolicy } from './save-into-folder';

/** How the service is run. */
export interface PassportServiceOptions {
  /** Where `passports.json` (targets, history, the ledger of saved files) is kept. */
  stateDir: string;
  /** The queued API client of a connection; may throw when the connection no longer exists. */
  clientFor(connectionId: string): QueuedClient | Promise<QueuedClient>;
  /** Hears every change of the targets and of every passport. */
  onEvent?(event: PassportEvent): void;
  clock?: () => Date;
  /** Pause between two checks of all targets (default 15 s). */
  pollIntervalMs?: number;
  /**
   * The quiet period: how long a source file must have been Mapped, with no file of its building in processing, before
   * passports are requested for it (default 5 minutes), so that a run of edits, each sent through processing, makes
   * one passport; `sourceFileMapped` skips the wait.
   */
  mappedSettleMs?: number;
  /** A passport still not generated after this long is given up (default 1 hour). */
  generationTimeoutMs?: number;
  /** Finished passports kept in the history (default 500); passports under way are always kept. */
  historyLimit?: number;
  /** The largest passport downloaded (default 512 MiB): a larger or endless body is cut off and the passport fails. */
  maxDownloadBytes?: number;
  place?: PlaceFunction;
  placeRetry?: PlaceRetryPolicy;
  /** Waits between placement attempts; ends early when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  log?: (message: string, error?: unknown) => void;
  /** What a passport folder is checked against: no system or secret folder, nor the app's data (`unsafeFolderReason`). */
  folderSafety?: Omit<FolderSafetyContext, 'passportFolders'>;
}

/** The running service. Methods that change something throw a `BridgeError` the Bridge can pass on. */
export interface PassportService {
  /** The targets, as plain JSON. */
  targets(): PassportTarget[];
  /** The passports, newest first; of one target when `targetId` is given. */
  history(targetId?: string): PassportEntry[];
  /** Adds a target (`invalid-request` for settings that cannot work); its first check starts at once. */
  addTarget(draft: PassportTargetDraft): Promise<PassportTarget>;
  /** Changes a target's settings; `not-found` for an unknown target. */
  updateTarget(targetId: string, changes: PassportTargetChanges): Promise<PassportTarget>;
  /** Removes a target with its history and ledger; work under way for it stops and its temporary file goes. */
  removeTarget(targetId: string): Promise<void>;
  /** Asks for passports now, one per format; resolves with the recorded requests, which are then sent. */
  request(targetId: string, options?: PassportRequestOptions): Promise<PassportEntry[]>;
  /** Starts a failed passport over: asked for again when it never reached the server, else downloaded again. */
  retry(entryId: string): Promise<PassportEntry>;
  /** Says a source file of the building reached Mapped: targets that want it request passports without waiting. */
  sourceFileMapped(buildingId: string): Promise<void>;
  /** Checks every target now; resolves when a check that started after the call has ended. */
  checkNow(): Promise<void>;
  /** Stops polling, stops the work under way cleanly (temporary files removed, state saved) and waits for it. */
  close(): Promise<void>;
}

/** The default of `maxDownloadBytes`: far above any real passport, far below a disk filled by a server gone wrong. */
const DEFAULT_MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

function invalidSettings(): BridgeError {
  return new BridgeError('invalid-request', 'The passport folder settings are not valid.');
}

function checkSettings(subject: PassportSubject, formats: readonly PassportFormat[], folder: string): void {
  if (subject.kind === 'portfolio' && formats.includes('xlsx')) {
    throw new BridgeError('invalid-request', 'A portfolio passport exists only as PDF.');
  }
  if (!path.isAbsolute(folder)) throw new BridgeError('invalid-request', 'The passports folder must be an absolute path.');
}

/** A new target from its draft, not yet checked. */
function newTarget(draft: PassportTargetDraft, createdAt: string): StoredTarget {
  return {
    id: randomUUID(),
    connectionId: draft.connectionId,
    subject: { ...draft.subject },
    folder: path.resolve(draft.folder),
    formats: [...draft.formats],
    language: draft.language,
    requestOnMapped: draft.requestOnMapped,
    name: null,
    createdAt,
    lastCheckedAt: null,
    lastError: null,
    preexisting: null,
    sourceFiles: {},
    sourceFilesKnown: false,
  };
}

/** Starts the service over the document in `stateDir`; the first check of every target starts at once. */
export async function startPassportService(options: PassportServiceOptions): Promise<PassportService> {
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const records = await PassportRecords.open({
    stateDir: options.stateDir,
    clock,
    historyLimit: options.historyLimit ?? 500,
    onEvent: options.onEvent,
    log,
  });
  const context: PassportContext = {
    records,
    clientFor: options.clientFor,
    clock,
    log,
    folderWriting: { place: options.place, placeRetry: options.placeRetry, sleep: options.sleep },
    mappedSettleMs: options.mappedSettleMs ?? 5 * 60_000,
    generationTimeoutMs: options.generationTimeoutMs ?? 60 * 60_000,
    maxDownloadBytes: options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
  };
  const loop = new CheckLoop(context, options.pollIntervalMs ?? 15_000);
  await records.recoverInterruptedDownloads();
  void loop.checkSoon();
  return serviceOver(context, loop, async (folder) => {
    const reason = await unsafeFolderReason(folder, 'passport', { passportFolders: [], ...options.folderSafety });
    if (reason !== null) throw new BridgeError('invalid-request', reason);
  });
}

/** The service's methods over its records and its check loop; `refuseUnsafe` throws for a folder no passport may go to. */
function serviceOver({ records, clock }: PassportContext, loop: CheckLoop, refuseUnsafe: (folder: string) => Promise<void>): PassportService {
  let stopped: Promise<void> | undefined;

  function requireOpen(): void {
    if (loop.closed) throw new BridgeError('unavailable', 'The passport service has stopped.');
  }

  function requireTarget(targetId: string): StoredTarget {
    requireOpen();
    const target = records.target(targetId);
    if (target === undefined) throw new BridgeError('not-found', 'This passport folder no longer exists.');
    return target;
  }

  return {
    targets: () => records.targets(),

    history: (targetId) => records.history(targetId),

    async addTarget(draft) {
      requireOpen();
      if (!Value.Check(PassportTargetDraft, draft)) throw invalidSettings();
      checkSettings(draft.subject, draft.formats, draft.folder);
      await refuseUnsafe(draft.folder);
      const target = newTarget(draft, clock().toISOString());
      await records.addTarget(target);
      void loop.checkSoon();
      return publicTarget(target);
    },

    async updateTarget(targetId, changes) {
      if (!Value.Check(PassportTargetChanges, changes)) throw invalidSettings();
      const target = requireTarget(targetId);
      const formats = changes.formats ?? target.formats;
      checkSettings(target.subject, formats, changes.folder ?? target.folder);
      if (changes.folder !== undefined) await refuseUnsafe(changes.folder);
      await records.changeTarget(target, {
        folder: changes.folder === undefined ? target.folder : path.resolve(changes.folder),
        formats,
        language: changes.language ?? target.language,
        requestOnMapped: changes.requestOnMapped ?? target.requestOnMapped,
      });
      return publicTarget(target);
    },

    async removeTarget(targetId) {
      const target = requireTarget(targetId);
      loop.stopTarget(targetId);
      await records.removeTarget(target);
    },

    async request(targetId, requestOptions = {}) {
      if (!Value.Check(PassportRequestOptions, requestOptions)) {
        throw new BridgeError('invalid-request', 'The passport request is not valid.');
      }
      const target = requireTarget(targetId);
      const formats = requestOptions.formats ?? target.formats;
      checkSettings(target.subject, formats, target.folder);
      // On disk before the server is asked: a crash in between asks again, with the same idempotency key.
      const recorded = await records.addRequests(target, formats, requestOptions.language ?? target.language);
      void loop.checkSoon();
      return recorded;
    },

    async retry(entryId) {
      requireOpen();
      const entry = records.entry(entryId);
      if (entry === undefined) throw new BridgeError('not-found', 'This passport is no longer in the history.');
      if (entry.state !== 'failed') throw new BridgeError('conflict', 'Only a failed passport can be retried.');
      records.retried(entry);
      await records.save();
      void loop.checkSoon();
      return publicEntry(entry);
    },

    sourceFileMapped(buildingId) {
      loop.signalMapped(buildingId);
      return loop.checkSoon();
    },

    checkNow: () => loop.checkSoon(),

    close() {
      stopped ??= (async () => {
        await loop.close();
        await records.saveQuietly();
      })();
      return stopped;
    },
  };
}
