/**
 * What the passport service records, and the only code that changes it: the targets, the history of passports and the
 * ledger of saved files, kept in `<stateDir>/passports.json` (passport-store.ts). An entry moves from state to state
 * through named transitions (`requested → generating → downloading → downloaded | failed`), each of which stamps the
 * entry and tells the host; a target changes through named changes too, and the host hears of those that it shows.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { BridgeError } from '../../shared/ipc';
import type { PassportEntry, PassportEvent, PassportFormat, PassportLanguage, PassportOrigin, PassportState, PassportTarget } from '../../shared/passports';
import { messageOf } from './passport-context';
import { publicEntry, publicTarget, type PassportDocument, type SeenSourceFile, type StoredEntry, type StoredTarget } from './passport-model';
import { PassportLedger } from './passport-ledger';
import { openPassportDocument, PassportDocumentWriter } from './passport-store';

/** How the records are kept. */
export interface PassportRecordsOptions {
  stateDir: string;
  clock: () => Date;
  /** Finished passports kept in the history; passports under way are always kept. */
  historyLimit: number;
  /** Hears every change of the targets and of every passport. */
  onEvent?(event: PassportEvent): void;
  log: (message: string, error?: unknown) => void;
}

/** What a new entry is: its format, language, how it came about, and where it starts. */
export type NewEntry = { format: PassportFormat; language: PassportLanguage | null; origin: PassportOrigin; state: PassportState } & Partial<
  Pick<StoredEntry, 'remoteFileId' | 'sourceFiles'>
>;

/** The settings of a target the user can change. */
export type TargetSettings = Pick<StoredTarget, 'folder' | 'formats' | 'language' | 'requestOnMapped'>;

/** The targets, the history and the ledger, in memory and on disk. */
export class PassportRecords {
  readonly #document: PassportDocument;
  readonly #writer: PassportDocumentWriter;
  readonly #ledger: PassportLedger;
  readonly #options: PassportRecordsOptions;

  private constructor(document: PassportDocument, options: PassportRecordsOptions) {
    this.#document = document;
    this.#writer = new PassportDocumentWriter(options.stateDir, () => document);
    this.#ledger = new PassportLedger(document);
    this.#options = options;
  }

  /** Reads the records of `stateDir`; a document that cannot be read is moved aside, and the records start empty. */
  static async open(options: PassportRecordsOptions): Promise<PassportRecords> {
    const opened = await openPassportDocument(options.stateDir);
    if (opened.setAside !== undefined) {
      options.log(`The passports state could not be read and was moved aside to ${opened.setAside}; it starts empty.`);
    }
    return new PassportRecords(opened.document, options);
  }

  // --- reading ----------------------------------------------------------------------------------------------------

  /** The targets as they are kept (the check loop's list). */
  storedTargets(): readonly StoredTarget[] {
    return this.#document.targets;
  }

  /** The targets, as plain JSON. */
  targets(): PassportTarget[] {
    return this.#document.targets.map(publicTarget);
  }

  /** The passports, newest first; of one target when `targetId` is given. */
  history(targetId?: string): PassportEntry[] {
    return this.#document.entries
      .filter((entry) => targetId === undefined || entry.targetId === targetId)
      .map(publicEntry)
      .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt));
  }

  target(targetId: string): StoredTarget | undefined {
    return this.#document.targets.find((each) => each.id === targetId);
  }

  /** Whether the target is still kept: work for a removed target stops. */
  isCurrent(target: StoredTarget): boolean {
    return this.#document.targets.includes(target);
  }

  entry(entryId: string): StoredEntry | undefined {
    return this.#document.entries.find((each) => each.id === entryId);
  }

  /** The target's entries as they are now. */
  entriesOf(target: StoredTarget): StoredEntry[] {
    return this.#document.entries.filter((entry) => entry.targetId === target.id);
  }

  /** The entry that follows a passport file of the target. */
  entryOfFile(target: StoredTarget, remoteFileId: string): StoredEntry | undefined {
    return this.#document.entries.find((each) => each.targetId === target.id && each.remoteFileId === remoteFileId);
  }

  /** The oldest sent request of the format whose answer named no passport file. */
  unattributedRequest(target: StoredTarget, format: PassportFormat): StoredEntry | undefined {
    return this.#document.entries.find(
      (each) => each.targetId === target.id && each.state === 'generating' && each.remoteFileId === null && each.format === format,
    );
  }

  /** Whether the ledger holds the passport file: it was saved into the target's folder once, and never is again. */
  isSaved(target: StoredTarget, remoteFileId: string): boolean {
    return this.#ledger.has(target.id, remoteFileId);
  }

  // --- saving -----------------------------------------------------------------------------------------------------

  /** Saves for a caller who must know: a failure is a `storage-failed` BridgeError. */
  async save(): Promise<void> {
    try {
      await this.#writer.save();
    } catch (error) {
      this.#options.log('The passports state could not be saved.', error);
      throw new BridgeError('storage-failed', `The passport settings could not be saved: ${messageOf(error)}`);
    }
  }

  /** Saves during a check: a state folder that cannot be written is logged, and written again with the next change. */
  async saveQuietly(): Promise<void> {
    try {
      await this.#writer.save();
    } catch (error) {
      this.#options.log('The passports state could not be saved.', error);
    }
  }

  /** Resolves when no write is running. */
  idle(): Promise<void> {
    return this.#writer.idle();
  }

  // --- targets ----------------------------------------------------------------------------------------------------

  /** Keeps a new target; it is forgotten again when it cannot be saved. */
  async addTarget(target: StoredTarget): Promise<void> {
    this.#document.targets.push(target);
    try {
      await this.save();
    } catch (error) {
      this.#document.targets = this.#document.targets.filter((each) => each !== target);
      throw error;
    }
    this.#emitTargets();
  }

  /** Changes a target's settings; files that were Mapped before `requestOnMapped` was switched on cause no requests. */
  async changeTarget(target: StoredTarget, settings: TargetSettings): Promise<void> {
    if (settings.requestOnMapped !== target.requestOnMapped) {
      target.sourceFiles = {};
      target.sourceFilesKnown = false;
    }
    target.folder = settings.folder;
    target.formats = [...settings.formats];
    target.language = settings.language;
    target.requestOnMapped = settings.requestOnMapped;
    this.#emitTargets();
    await this.save();
  }

  /** Removes a target with its history and its part of the ledger. */
  async removeTarget(target: StoredTarget): Promise<void> {
    this.#document.targets = this.#document.targets.filter((each) => each !== target);
    this.#document.entries = this.#document.entries.filter((entry) => entry.targetId !== target.id);
    this.#ledger.forgetTarget(target.id);
    this.#emitTargets();
    await this.save();
  }

  /** The building's or portfolio's name as the server gives it. */
  renameTarget(target: StoredTarget, name: string): void {
    if (name === target.name) return;
    target.name = name;
    this.#emitTargets();
  }

  /** Why the last check of the target failed, or null. */
  setTargetError(target: StoredTarget, message: string | null): void {
    if (target.lastError === message) return;
    target.lastError = message;
    this.#emitTargets();
  }

  /** A check of the target ended without a fault. */
  targetChecked(target: StoredTarget): void {
    target.lastCheckedAt = this.#now();
    this.setTargetError(target, null);
  }

  /** The passport files on the server at the target's first check, which are not its own. */
  notePreexisting(target: StoredTarget, remoteFileIds: string[]): void {
    target.preexisting = remoteFileIds;
  }

  /**
   * Drops what is remembered of passport files the server no longer lists: they cannot come back, so the ledger and
   * the list of files older than the target stay as small as the server's list.
   */
  forgetDeleted(target: StoredTarget, listed: ReadonlySet<string>): void {
    this.#ledger.forgetUnlisted(target.id, listed);
    if (target.preexisting !== null) target.preexisting = target.preexisting.filter((id) => listed.has(id));
  }

  /** What a check saw of the target's source files; from now on a file reaching Mapped causes a request. */
  observeSourceFiles(target: StoredTarget, seen: Record<string, SeenSourceFile>): void {
    target.sourceFiles = seen;
    target.sourceFilesKnown = true;
  }

  /** Passports were requested for this Mapped version of a source file, or it needs none: these are its elements. */
  sourceFileHandled(record: SeenSourceFile, fingerprint: string): void {
    record.handled = true;
    record.fingerprint = fingerprint;
  }

  // --- entries ----------------------------------------------------------------------------------------------------

  /** Starts an entry in the target's history. */
  addEntry(target: StoredTarget, fields: NewEntry): StoredEntry {
    const at = this.#now();
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
    this.#document.entries.push(entry);
    this.#pruneHistory();
    this.#emit({ type: 'entry-changed', entry: publicEntry(entry) });
    return entry;
  }

  /** Records one request per format, on disk before the server is asked; none is kept when they cannot be saved. */
  async addRequests(target: StoredTarget, formats: readonly PassportFormat[], language: PassportLanguage): Promise<PassportEntry[]> {
    const created = formats.map((format) => this.addEntry(target, { format, language, origin: 'request', state: 'requested' }));
    const recorded = created.map(publicEntry);
    try {
      await this.save();
    } catch (error) {
      this.#document.entries = this.#document.entries.filter((entry) => !created.includes(entry));
      throw error;
    }
    return recorded;
  }

  /** The server took the request; `remoteFileId` when its answer named the passport file. */
  requestSent(entry: StoredEntry, remoteFileId: string | null): void {
    entry.remoteFileId = remoteFileId;
    entry.error = null;
    this.#changed(entry, 'generating');
  }

  /** The server could not be reached: the request stays, to be sent at the next check. */
  requestDeferred(entry: StoredEntry, error: string): void {
    entry.error = error;
    this.#changed(entry);
  }

  /** The server refused the request. */
  requestRefused(entry: StoredEntry, error: string): void {
    entry.error = error;
    this.#changed(entry, 'failed');
  }

  /** A request whose answer named no file is given the first new passport file of its format. */
  fileAttributed(entry: StoredEntry, remoteFileId: string): void {
    entry.remoteFileId = remoteFileId;
    this.#changed(entry);
  }

  /** The server failed to make the passport, took too long, or deleted it. */
  generationFailed(entry: StoredEntry, error: string): void {
    entry.error = error;
    this.#changed(entry, 'failed');
  }

  downloadStarted(entry: StoredEntry): void {
    entry.error = null;
    this.#changed(entry, 'downloading');
  }

  /** The download's temporary file, on disk before the file is made: the next start removes it after a crash. */
  async temporaryFileChosen(entry: StoredEntry, temporaryPath: string): Promise<void> {
    entry.temporaryPath = temporaryPath;
    await this.#writer.save();
  }

  /** The passport is in the target's folder: it goes into the ledger, and is never downloaded again. */
  downloaded(entry: StoredEntry, target: StoredTarget, remoteFileId: string, saved: { path: string; bytes: number }): void {
    this.#ledger.add({ targetId: target.id, remoteFileId, path: saved.path, at: this.#now() });
    entry.filePath = saved.path;
    entry.bytes = saved.bytes;
    entry.error = null;
    entry.temporaryPath = null;
    this.#changed(entry, 'downloaded');
    this.#pruneHistory();
  }

  /** The download stopped, or the file was not ready after all: the next check carries it on. */
  downloadPostponed(entry: StoredEntry): void {
    entry.temporaryPath = null;
    this.#changed(entry, 'generating');
  }

  /** The server could not be reached during the download: the next check tries again. */
  downloadInterrupted(entry: StoredEntry, error: string): void {
    entry.error = error;
    entry.temporaryPath = null;
    this.#changed(entry, 'generating');
  }

  /** The server refused the download, the passport was too large, or the folder could not take it. */
  downloadFailed(entry: StoredEntry, error: string): void {
    entry.error = error;
    entry.temporaryPath = null;
    this.#changed(entry, 'failed');
  }

  /** A failed passport starts over: asked for again (with a new key) when it never reached the server, else downloaded again. */
  retried(entry: StoredEntry): void {
    entry.error = null;
    if (entry.remoteFileId === null) {
      entry.idempotencyKey = randomUUID();
      this.#changed(entry, 'requested');
    } else {
      this.#changed(entry, 'generating');
    }
  }

  /** Downloads cut short by a crash: their temporary files go, and the passports are downloaded again. */
  async recoverInterruptedDownloads(): Promise<void> {
    for (const entry of this.#document.entries) {
      if (entry.temporaryPath !== null) {
        const temporary = entry.temporaryPath;
        await rm(temporary, { force: true }).catch((error: unknown) => this.#options.log(`Removing ${temporary} failed.`, error));
        entry.temporaryPath = null;
      }
      if (entry.state === 'downloading') entry.state = 'generating';
    }
    await this.saveQuietly();
  }

  // --- inside -----------------------------------------------------------------------------------------------------

  #now(): string {
    return this.#options.clock().toISOString();
  }

  /** Stamps a changed entry (and when it entered a new state) and tells the host, unless it has left the history. */
  #changed(entry: StoredEntry, state: PassportState = entry.state): void {
    const at = this.#now();
    if (state !== entry.state) {
      entry.state = state;
      entry.stateSince = at;
    }
    entry.updatedAt = at;
    if (this.#document.entries.includes(entry)) this.#emit({ type: 'entry-changed', entry: publicEntry(entry) });
  }

  /** Keeps the newest `historyLimit` finished passports; the ledger, not the history, keeps them from coming back. */
  #pruneHistory(): void {
    const limit = this.#options.historyLimit;
    const finished = this.#document.entries.filter((entry) => entry.state === 'downloaded' || entry.state === 'failed');
    if (finished.length <= limit) return;
    const oldest = [...finished].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).slice(0, finished.length - limit);
    const dropped = new Set(oldest);
    this.#document.entries = this.#document.entries.filter((entry) => !dropped.has(entry));
  }

  #emitTargets(): void {
    this.#emit({ type: 'targets-changed', targets: this.#document.targets.map(publicTarget) });
  }

  #emit(event: PassportEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch (error) {
      this.#options.log('A passport event listener failed.', error);
    }
  }
}
