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
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { assertNever } from '../../shared/api/enums';
import { BridgeError } from '../../shared/ipc';
import type { QueuedClient } from '../http/queued-client';
import {
  PassportRequestOptions,
  PassportTargetChanges,
  PassportTargetDraft,
  type PassportEntry,
  type PassportEvent,
  type PassportFormat,
  type PassportLanguage,
  type PassportOrigin,
  type PassportState,
  type PassportSubject,
  type PassportTarget,
} from '../../shared/passports';
import type { SeenSourceFile, StoredEntry, StoredTarget } from './passport-model';
import { passportFileName } from './passport-names';
import {
  downloadLink,
  elementsFingerprint,
  failureMessage,
  fileStatusMessage,
  listPortfolioSources,
  listSubjectFiles,
  requestPassport,
  subjectName,
  type RemotePassport,
  type RemoteSourceFile,
} from './passport-remote';
import { openPassportDocument, PassportDocumentWriter } from './passport-store';
import { saveIntoFolder, SaveError, type PlaceFunction, type PlaceRetryPolicy } from './save-into-folder';
import { SizeCapExceededError, sizeCappedWritable } from './size-capped-writable';

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

/** Download addresses fetched for one download before giving up: an expired one is replaced. */
const MAX_LINKS_PER_DOWNLOAD = 3;
/** An address this close to its expiry is not used. */
const LINK_EXPIRY_MARGIN_MS = 10_000;
/** Answers of a signed address that has expired (or whose signature the server no longer accepts). */
const EXPIRED_LINK_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 410]);

/** The default of `maxDownloadBytes`: far above any real passport, far below a disk filled by a server gone wrong. */
const DEFAULT_MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

/** Why a download got no content: the server's answer (`status`) or none (offline), or a body over the size cap. */
interface DownloadFailure {
  message: string;
  status: number | undefined;
  tooLarge: boolean;
}

function sizeText(bytes: number): string {
  const mebibyte = 1024 * 1024;
  return bytes >= mebibyte ? `${Math.round(bytes / mebibyte)} MiB` : `${bytes} bytes`;
}

function publicTarget(target: StoredTarget): PassportTarget {
  const { preexisting: _preexisting, sourceFiles: _sourceFiles, sourceFilesKnown: _known, ...rest } = target;
  return structuredClone(rest);
}

function publicEntry(entry: StoredEntry): PassportEntry {
  const { idempotencyKey: _key, temporaryPath: _temporary, stateSince: _since, ...rest } = entry;
  return structuredClone(rest);
}

function fallbackName(subject: PassportSubject): string {
  return subject.kind === 'building' ? 'Building' : 'Portfolio';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function invalidSettings(): BridgeError {
  return new BridgeError('invalid-request', 'The passport folder settings are not valid.');
}

function checkSettings(subject: PassportSubject, formats: readonly PassportFormat[], folder: string): void {
  if (subject.kind === 'portfolio' && formats.includes('xlsx')) {
    throw new BridgeError('invalid-request', 'A portfolio passport exists only as PDF.');
  }
  if (!path.isAbsolute(folder)) throw new BridgeError('invalid-request', 'The passports folder must be an absolute path.');
}

/** Starts the service over the document in `stateDir`; the first check of every target starts at once. */
export async function startPassportService(options: PassportServiceOptions): Promise<PassportService> {
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const pollIntervalMs = options.pollIntervalMs ?? 15_000;
  const mappedSettleMs = options.mappedSettleMs ?? 5 * 60_000;
  const generationTimeoutMs = options.generationTimeoutMs ?? 60 * 60_000;
  const historyLimit = options.historyLimit ?? 500;
  const maxDownloadBytes = options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;

  const opened = await openPassportDocument(options.stateDir);
  if (opened.setAside !== undefined) {
    log(`The passports state could not be read and was moved aside to ${opened.setAside}; it starts empty.`);
  }
  const document = opened.document;
  const writer = new PassportDocumentWriter(options.stateDir, () => document);
  const ledgerKey = (targetId: string, remoteFileId: string): string => `${targetId}/${remoteFileId}`;
  const ledger = new Set(document.downloaded.map((item) => ledgerKey(item.targetId, item.remoteFileId)));
  const closing = new AbortController();
  const targetAborts = new Map<string, AbortController>();
  /** Buildings told about by `sourceFileMapped` since the last check began. */
  const signalled = new Set<string>();

  const now = (): string => clock().toISOString();

  function emit(event: PassportEvent): void {
    try {
      options.onEvent?.(event);
    } catch (error) {
      log('A passport event listener failed.', error);
    }
  }

  function emitTargets(): void {
    emit({ type: 'targets-changed', targets: document.targets.map(publicTarget) });
  }

  /** Saves for a caller who must know: a failure is a `storage-failed` BridgeError. */
  async function saveOrThrow(): Promise<void> {
    try {
      await writer.save();
    } catch (error) {
      log('The passports state could not be saved.', error);
      throw new BridgeError('storage-failed', `The passport settings could not be saved: ${messageOf(error)}`);
    }
  }

  /** Saves during a check: a state folder that cannot be written is logged, and written again with the next change. */
  async function saveQuietly(): Promise<void> {
    try {
      await writer.save();
    } catch (error) {
      log('The passports state could not be saved.', error);
    }
  }

  function requireTarget(targetId: string): StoredTarget {
    requireOpen();
    const target = document.targets.find((each) => each.id === targetId);
    if (target === undefined) throw new BridgeError('not-found', 'This passport folder no longer exists.');
    return target;
  }

  function requireOpen(): void {
    if (closing.signal.aborted) throw new BridgeError('unavailable', 'The passport service has stopped.');
  }

  function isCurrent(target: StoredTarget): boolean {
    return document.targets.includes(target);
  }

  /** Aborts when the service closes or the target is removed. */
  function targetSignal(targetId: string): AbortSignal {
    let controller = targetAborts.get(targetId);
    if (controller === undefined) {
      controller = new AbortController();
      targetAborts.set(targetId, controller);
    }
    return AbortSignal.any([closing.signal, controller.signal]);
  }

  function setTargetError(target: StoredTarget, message: string | null): void {
    if (target.lastError === message) return;
    target.lastError = message;
    emitTargets();
  }

  /** Changes an entry and tells the host; the caller saves. */
  function update(entry: StoredEntry, change: Partial<Omit<StoredEntry, 'id' | 'targetId'>>): void {
    const at = now();
    if (change.state !== undefined && change.state !== entry.state) entry.stateSince = at;
    Object.assign(entry, change, { updatedAt: at });
    if (document.entries.includes(entry)) emit({ type: 'entry-changed', entry: publicEntry(entry) });
  }

  function addEntry(
    target: StoredTarget,
    fields: { format: PassportFormat; language: PassportLanguage | null; origin: PassportOrigin; state: PassportState } & Partial<
      Pick<StoredEntry, 'remoteFileId' | 'sourceFiles'>
    >,
  ): StoredEntry {
    const at = now();
    const entry: StoredEntry = {
      id: randomUUID(),
      targetId: target.id,
      subject: { ...target.subject },
      sourceFiles: [],
      remoteFileId: null,
      requestedAt: at,
      updatedAt: at,
      filePath: null,
      bytes: null,
      error: null,
      idempotencyKey: randomUUID(),
      temporaryPath: null,
      stateSince: at,
      ...fields,
    };
    document.entries.push(entry);
    pruneHistory();
    emit({ type: 'entry-changed', entry: publicEntry(entry) });
    return entry;
  }

  /** Keeps the newest `historyLimit` finished passports; the ledger, not the history, keeps them from coming back. */
  function pruneHistory(): void {
    const finished = document.entries.filter((entry) => entry.state === 'downloaded' || entry.state === 'failed');
    if (finished.length <= historyLimit) return;
    const oldest = [...finished].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).slice(0, finished.length - historyLimit);
    const dropped = new Set(oldest);
    document.entries = document.entries.filter((entry) => !dropped.has(entry));
  }

  // --- the steps of a check ---------------------------------------------------------------------------------------

  /** The building's or portfolio's name for a file name, refreshed from the server when it answers. */
  async function nameOf(target: StoredTarget, client: QueuedClient, signal: AbortSignal): Promise<string> {
    const read = await subjectName(client, target.subject, signal);
    if (read.ok && read.value !== '' && read.value !== target.name && isCurrent(target)) {
      target.name = read.value;
      emitTargets();
    }
    return target.name ?? fallbackName(target.subject);
  }

  /**
   * Drops what is remembered of passport files the server no longer lists: they cannot come back, so the ledger and
   * the list of files older than the target stay as small as the server's list.
   */
  function forgetDeleted(target: StoredTarget, listed: ReadonlySet<string>): void {
    const gone = document.downloaded.filter((item) => item.targetId === target.id && !listed.has(item.remoteFileId));
    if (gone.length > 0) {
      document.downloaded = document.downloaded.filter((item) => !gone.includes(item));
      for (const item of gone) ledger.delete(ledgerKey(item.targetId, item.remoteFileId));
    }
    if (target.preexisting !== null) target.preexisting = target.preexisting.filter((id) => listed.has(id));
  }

  /**
   * Notes source files that reached Mapped and records passport requests for those whose change has settled: the file
   * has been Mapped for the quiet period and the server works on no other file of its building (or the building was
   * signalled). A file whose elements are the same as when passports were last asked for it (a refinement that changed
   * nothing) asks for none. One request per format covers all files that became due in the same check.
   */
  async function detectMapped(
    target: StoredTarget,
    sources: ReadonlyMap<string, RemoteSourceFile[]>,
    signals: ReadonlySet<string>,
    client: QueuedClient,
    signal: AbortSignal,
  ): Promise<void> {
    const at = clock();
    const seen = target.sourceFiles;
    const before = JSON.stringify(seen);
    const firstCheck = !target.sourceFilesKnown;
    const candidates: { buildingId: string; file: RemoteSourceFile; record: SeenSourceFile }[] = [];
    const present = new Set<string>();
    for (const [buildingId, files] of sources) {
      const buildingBusy = files.some((file) => file.busy);
      for (const file of files) {
        present.add(file.id);
        const earlier = seen[file.id];
        if (!file.mapped) {
          seen[file.id] = { lastModifiedDate: file.lastModifiedDate, mappedSince: null, handled: false, fingerprint: earlier?.fingerprint };
          continue;
        }
        let record = earlier;
        // Reaching Mapped again (a new version, a refinement) changes lastModifiedDate, even when no check saw the steps between.
        if (record === undefined || record.mappedSince === null || record.lastModifiedDate !== file.lastModifiedDate) {
          record = { lastModifiedDate: file.lastModifiedDate, mappedSince: at.toISOString(), handled: !target.sourceFilesKnown, fingerprint: earlier?.fingerprint };
          seen[file.id] = record;
        }
        const quiet = record.mappedSince !== null && at.getTime() - Date.parse(record.mappedSince) >= mappedSettleMs && !buildingBusy;
        const baselineMissing = record.handled && record.fingerprint === undefined;
        if (baselineMissing || (!record.handled && (quiet || signals.has(buildingId)))) candidates.push({ buildingId, file, record });
      }
    }
    for (const id of Object.keys(seen)) if (!present.has(id)) delete seen[id];
    target.sourceFilesKnown = true;

    const due: RemoteSourceFile[] = [];
    for (const { buildingId, file, record } of candidates) {
      if (signal.aborted || !isCurrent(target)) return;
      const fingerprint = await elementsFingerprint(client, buildingId, file.id, signal);
      // Without the elements nothing is decided: the next check tries again.
      if (!fingerprint.ok) continue;
      if (!record.handled && fingerprint.value !== record.fingerprint) due.push(file);
      else if (!record.handled) log(`${file.name ?? file.id} was processed again with the same elements; no new passport.`);
      record.handled = true;
      record.fingerprint = fingerprint.value;
    }
    if (due.length > 0) {
      const sourceFiles = due.map((file) => ({ id: file.id, name: file.name }));
      for (const format of target.formats) {
        addEntry(target, { format, language: target.language, origin: 'on-mapped', state: 'requested', sourceFiles });
      }
    }
    // The handled marks and the new requests are written together, so a restart neither repeats nor loses a request.
    if (firstCheck || due.length > 0 || JSON.stringify(seen) !== before) await saveQuietly();
  }

  /** Asks the server for one passport; the entry moves to `generating`, `failed` (refused) or stays `requested` (offline). */
  async function send(target: StoredTarget, entry: StoredEntry, client: QueuedClient, signal: AbortSignal): Promise<void> {
    const request = { format: entry.format, language: entry.language ?? target.language, idempotencyKey: entry.idempotencyKey };
    const sent = await requestPassport(client, target.subject, request, signal);
    if (!isCurrent(target)) return;
    if (sent.ok) {
      update(entry, { state: 'generating', remoteFileId: sent.value, error: null });
    } else if (sent.aborted) {
      return;
    } else if (sent.status === undefined) {
      update(entry, { error: `Not sent yet: ${sent.message}` });
    } else {
      update(entry, { state: 'failed', error: `The server refused the passport request: ${sent.message}` });
    }
    await saveQuietly();
  }

  /** Writes a passport's content to `destination` through a fresh signed address, replacing one that expired. */
  async function fetchContent(
    target: StoredTarget,
    remote: RemotePassport,
    destination: NodeJS.WritableStream,
    client: QueuedClient,
    signal: AbortSignal,
  ): Promise<{ kind: 'written' } | { kind: 'not-written'; failure: DownloadFailure }> {
    for (let links = 1; ; links += 1) {
      const link = await downloadLink(client, target.subject, remote.id, signal);
      if (!link.ok) return { kind: 'not-written', failure: { message: link.message, status: link.status, tooLarge: false } };
      const lastChance = links >= MAX_LINKS_PER_DOWNLOAD;
      if (link.value.expiresAt - LINK_EXPIRY_MARGIN_MS <= clock().getTime() && !lastChance) continue;
      let outcome;
      try {
        outcome = await client.download(link.value.url, sizeCappedWritable(destination, maxDownloadBytes), { signal });
      } catch (error) {
        if (!(error instanceof SizeCapExceededError)) throw error;
        const message = `The passport is larger than ${sizeText(maxDownloadBytes)}, the most the app downloads: its download was stopped and nothing was saved.`;
        return { kind: 'not-written', failure: { message, status: undefined, tooLarge: true } };
      }
      if (outcome.kind === 'ok') return { kind: 'written' };
      if (outcome.kind === 'problem' && EXPIRED_LINK_STATUSES.has(outcome.status) && !lastChance) continue;
      const status = outcome.kind === 'problem' ? outcome.status : undefined;
      return { kind: 'not-written', failure: { message: failureMessage(outcome), status, tooLarge: false } };
    }
  }

  /** Saves one finished passport into the target's folder and records it in the ledger. */
  async function download(
    target: StoredTarget,
    entry: StoredEntry,
    remote: RemotePassport,
    client: QueuedClient,
    signal: AbortSignal,
  ): Promise<void> {
    const name = await nameOf(target, client, signal);
    const generatedAt = Number.isNaN(Date.parse(remote.lastModifiedDate)) ? clock() : new Date(remote.lastModifiedDate);
    update(entry, { state: 'downloading', error: null });
    try {
      const result = await saveIntoFolder<DownloadFailure>({
        folder: target.folder,
        fileName: passportFileName(name, entry.format, generatedAt, fallbackName(target.subject)),
        beforeCreate: async (temporaryPath) => {
          entry.temporaryPath = temporaryPath;
          // On disk before the file exists: a crash from here on leaves a temporary file the next start removes.
          await writer.save();
        },
        write: (destination) => fetchContent(target, remote, destination, client, signal),
        place: options.place,
        placeRetry: options.placeRetry,
        sleep: options.sleep,
        signal,
      });
      switch (result.kind) {
        case 'saved':
          document.downloaded.push({ targetId: target.id, remoteFileId: remote.id, path: result.path, at: now() });
          ledger.add(ledgerKey(target.id, remote.id));
          update(entry, { state: 'downloaded', filePath: result.path, bytes: result.bytes, error: null, temporaryPath: null });
          pruneHistory();
          break;
        case 'aborted':
          update(entry, { state: 'generating', temporaryPath: null });
          break;
        case 'not-written': {
          const { message, status, tooLarge } = result.failure;
          if (tooLarge) {
            update(entry, { state: 'failed', error: message, temporaryPath: null });
          } else if (signal.aborted || status === 409) {
            // Stopped, or not ready after all: carried on at the next check.
            update(entry, { state: 'generating', temporaryPath: null });
          } else if (status === undefined) {
            update(entry, { state: 'generating', error: `Download not finished: ${message}`, temporaryPath: null });
          } else {
            update(entry, { state: 'failed', error: `The server refused the download: ${message}`, temporaryPath: null });
          }
          break;
        }
        default:
          assertNever(result, 'save result');
      }
    } catch (error) {
      if (!(error instanceof SaveError)) throw error;
      update(entry, { state: 'failed', error: error.message, temporaryPath: null });
    }
    await saveQuietly();
  }

  /** Moves one passport file of the target on: attributes it to an entry, then downloads it or notes its failure. */
  async function follow(target: StoredTarget, remote: RemotePassport, client: QueuedClient, signal: AbortSignal): Promise<void> {
    if (ledger.has(ledgerKey(target.id, remote.id))) return;
    let entry = document.entries.find((each) => each.targetId === target.id && each.remoteFileId === remote.id);
    if (entry === undefined) {
      if (target.preexisting?.includes(remote.id) === true) return;
      // A request whose answer named no file takes the first new passport of its format.
      entry = document.entries.find(
        (each) =>
          each.targetId === target.id && each.state === 'generating' && each.remoteFileId === null && each.format === remote.format,
      );
      if (entry !== undefined) {
        update(entry, { remoteFileId: remote.id });
      } else if (target.formats.includes(remote.format)) {
        const found = { format: remote.format, language: null, origin: 'found', state: 'generating', remoteFileId: remote.id } as const;
        entry = addEntry(target, found);
      } else {
        return;
      }
      await saveQuietly();
    }
    if (entry.state !== 'generating') return;
    if (remote.ready) {
      await download(target, entry, remote, client, signal);
    } else if (remote.failed) {
      const message = await fileStatusMessage(client, target.subject, remote.id, signal);
      update(entry, { state: 'failed', error: message ?? 'The server could not generate the passport.' });
      await saveQuietly();
    } else if (clock().getTime() - Date.parse(entry.stateSince) > generationTimeoutMs) {
      const message = await fileStatusMessage(client, target.subject, remote.id, signal);
      update(entry, { state: 'failed', error: `${timeoutMessage()}${message === null ? '' : ` Its last status: ${message}`}` });
      await saveQuietly();
    }
  }

  function timeoutMessage(): string {
    return `The server did not finish the passport within ${Math.round(generationTimeoutMs / 60_000)} minutes.`;
  }

  async function checkTarget(target: StoredTarget, signals: ReadonlySet<string>): Promise<void> {
    const signal = targetSignal(target.id);
    let client: QueuedClient;
    try {
      client = await options.clientFor(target.connectionId);
    } catch (error) {
      setTargetError(target, messageOf(error));
      return;
    }
    const listing = await listSubjectFiles(client, target.subject, signal);
    if (signal.aborted || !isCurrent(target)) return;
    if (!listing.ok) {
      const notFound = `The ${target.subject.kind} was not found on the server, or the key cannot see it: ${listing.message}`;
      setTargetError(target, listing.status === 404 ? notFound : listing.message);
      return;
    }
    const { passports, sources } = listing.value;
    const listed = new Set(passports.map((remote) => remote.id));
    forgetDeleted(target, listed);
    if (target.name === null) await nameOf(target, client, signal);

    if (target.requestOnMapped) {
      const byBuilding =
        target.subject.kind === 'building'
          ? ({ ok: true, value: new Map([[target.subject.id, sources]]) } as const)
          : await listPortfolioSources(client, target.subject.id, signal);
      if (byBuilding.ok && isCurrent(target)) await detectMapped(target, byBuilding.value, signals, client, signal);
    }

    // A request is sent only once it is on disk, so that a crash cannot lose a passport the server is making.
    await writer.idle();
    // Passports asked for now are not in the listing, which was taken before.
    const sent = new Set<StoredEntry>();
    for (const entry of document.entries.filter((each) => each.targetId === target.id && each.state === 'requested')) {
      if (signal.aborted || !isCurrent(target)) return;
      await send(target, entry, client, signal);
      sent.add(entry);
    }

    if (target.preexisting === null) {
      const claimed = new Set(document.entries.filter((entry) => entry.targetId === target.id).map((entry) => entry.remoteFileId));
      target.preexisting = passports.filter((remote) => !claimed.has(remote.id)).map((remote) => remote.id);
      await saveQuietly();
    }

    for (const remote of passports) {
      if (signal.aborted || !isCurrent(target)) return;
      await follow(target, remote, client, signal);
    }

    for (const entry of document.entries) {
      if (entry.targetId !== target.id || entry.state !== 'generating' || sent.has(entry)) continue;
      if (entry.remoteFileId !== null && !listed.has(entry.remoteFileId)) {
        update(entry, { state: 'failed', error: 'The passport was deleted on the server before it could be downloaded.' });
        await saveQuietly();
      } else if (entry.remoteFileId === null && clock().getTime() - Date.parse(entry.stateSince) > generationTimeoutMs) {
        update(entry, { state: 'failed', error: timeoutMessage() });
        await saveQuietly();
      }
    }
    target.lastCheckedAt = now();
    setTargetError(target, null);
  }

  // --- the check loop ---------------------------------------------------------------------------------------------

  let running: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;
  let pending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Checks the targets of each connection in turn, the connections side by side: a server that hangs delays only its own. */
  async function checkAll(): Promise<void> {
    const signals = new Set(signalled);
    signalled.clear();
    const byConnection = new Map<string, StoredTarget[]>();
    for (const target of document.targets) {
      byConnection.set(target.connectionId, [...(byConnection.get(target.connectionId) ?? []), target]);
    }
    await Promise.all(
      [...byConnection.values()].map(async (targets) => {
        for (const target of targets) {
          if (closing.signal.aborted) return;
          if (!isCurrent(target)) continue;
          try {
            await checkTarget(target, signals);
          } catch (error) {
            log(`Checking the passports of ${target.subject.kind} ${target.subject.id} failed.`, error);
            if (isCurrent(target)) setTargetError(target, messageOf(error));
          }
        }
      }),
    );
  }

  /** Runs checks until none is pending; a call during a check gets a promise that also covers the next one. */
  function checkSoon(): Promise<void> {
    pending = true;
    running ??= (async () => {
      try {
        while (pending && !closing.signal.aborted) {
          pending = false;
          clearTimeout(timer);
          await checkAll();
        }
      } finally {
        running = undefined;
        if (!closing.signal.aborted) timer = setTimeout(() => void checkSoon(), pollIntervalMs);
      }
    })();
    return running;
  }

  // --- start ------------------------------------------------------------------------------------------------------

  // Downloads cut short by a crash: their temporary files go, and the passports are downloaded again.
  for (const entry of document.entries) {
    if (entry.temporaryPath !== null) {
      const temporary = entry.temporaryPath;
      await rm(temporary, { force: true }).catch((error: unknown) => log(`Removing ${temporary} failed.`, error));
      entry.temporaryPath = null;
    }
    if (entry.state === 'downloading') entry.state = 'generating';
  }
  await saveQuietly();
  void checkSoon();

  return {
    targets: () => document.targets.map(publicTarget),

    history: (targetId) =>
      document.entries
        .filter((entry) => targetId === undefined || entry.targetId === targetId)
        .map(publicEntry)
        .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt)),

    async addTarget(draft) {
      requireOpen();
      if (!Value.Check(PassportTargetDraft, draft)) throw invalidSettings();
      checkSettings(draft.subject, draft.formats, draft.folder);
      const target: StoredTarget = {
        id: randomUUID(),
        connectionId: draft.connectionId,
        subject: { ...draft.subject },
        folder: path.resolve(draft.folder),
        formats: [...draft.formats],
        language: draft.language,
        requestOnMapped: draft.requestOnMapped,
        name: null,
        createdAt: now(),
        lastCheckedAt: null,
        lastError: null,
        preexisting: null,
        sourceFiles: {},
        sourceFilesKnown: false,
      };
      document.targets.push(target);
      try {
        await saveOrThrow();
      } catch (error) {
        document.targets = document.targets.filter((each) => each !== target);
        throw error;
      }
      emitTargets();
      void checkSoon();
      return publicTarget(target);
    },

    async updateTarget(targetId, changes) {
      if (!Value.Check(PassportTargetChanges, changes)) throw invalidSettings();
      const target = requireTarget(targetId);
      const formats = changes.formats ?? target.formats;
      checkSettings(target.subject, formats, changes.folder ?? target.folder);
      if (changes.requestOnMapped !== undefined && changes.requestOnMapped !== target.requestOnMapped) {
        // Files that were Mapped before the option was switched on cause no requests.
        target.sourceFiles = {};
        target.sourceFilesKnown = false;
      }
      target.folder = changes.folder === undefined ? target.folder : path.resolve(changes.folder);
      target.formats = [...formats];
      target.language = changes.language ?? target.language;
      target.requestOnMapped = changes.requestOnMapped ?? target.requestOnMapped;
      emitTargets();
      await saveOrThrow();
      return publicTarget(target);
    },

    async removeTarget(targetId) {
      const target = requireTarget(targetId);
      targetAborts.get(targetId)?.abort();
      targetAborts.delete(targetId);
      document.targets = document.targets.filter((each) => each !== target);
      document.entries = document.entries.filter((entry) => entry.targetId !== targetId);
      document.downloaded = document.downloaded.filter((item) => item.targetId !== targetId);
      for (const key of [...ledger]) if (key.startsWith(`${targetId}/`)) ledger.delete(key);
      emitTargets();
      await saveOrThrow();
    },

    async request(targetId, requestOptions = {}) {
      if (!Value.Check(PassportRequestOptions, requestOptions)) {
        throw new BridgeError('invalid-request', 'The passport request is not valid.');
      }
      const target = requireTarget(targetId);
      const formats = requestOptions.formats ?? target.formats;
      checkSettings(target.subject, formats, target.folder);
      const language = requestOptions.language ?? target.language;
      const created = formats.map((format) => addEntry(target, { format, language, origin: 'request', state: 'requested' }));
      const recorded = created.map(publicEntry);
      try {
        // On disk before the server is asked: a crash in between asks again, with the same idempotency key.
        await saveOrThrow();
      } catch (error) {
        document.entries = document.entries.filter((entry) => !created.includes(entry));
        throw error;
      }
      void checkSoon();
      return recorded;
    },

    async retry(entryId) {
      requireOpen();
      const entry = document.entries.find((each) => each.id === entryId);
      if (entry === undefined) throw new BridgeError('not-found', 'This passport is no longer in the history.');
      if (entry.state !== 'failed') throw new BridgeError('conflict', 'Only a failed passport can be retried.');
      if (entry.remoteFileId === null) {
        update(entry, { state: 'requested', error: null, idempotencyKey: randomUUID() });
      } else {
        update(entry, { state: 'generating', error: null });
      }
      await saveOrThrow();
      void checkSoon();
      return publicEntry(entry);
    },

    sourceFileMapped(buildingId) {
      signalled.add(buildingId);
      return checkSoon();
    },

    checkNow: () => checkSoon(),

    close() {
      stopped ??= (async () => {
        closing.abort();
        clearTimeout(timer);
        await running;
        await saveQuietly();
      })();
      return stopped;
    },
  };
}
