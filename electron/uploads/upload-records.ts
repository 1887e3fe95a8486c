/**
 * The uploads in the ledger as the service changes them: every change stamps the entry and is heard by the screens at
 * once, progress at most every `progressEveryMs` (and at the end). The ledger is written only where the caller saves,
 * so a restart sees the changes it needs and not every byte sent.
 */
import { BridgeError } from '../../shared/ipc';
import type { UploadEntry, UploadState } from '../../shared/uploads';
import { UploadFailure } from './failure';
import type { UploadLedger, UploadRecord } from './ledger';
import type { TransferRate } from './transfer-rate';

/** The states of an upload that has not ended: it has a run, or gets one at the next start. */
export const ACTIVE_STATES: ReadonlySet<UploadState> = new Set(['waiting', 'creating', 'sending']);

/** What an upload's record keeps beside the entry the screens see. */
export type RecordChanges = Partial<Omit<UploadRecord, 'entry'>>;

/** The uploads of the ledger, changed in memory and told to the screens. */
export class UploadRecords {
  readonly #ledger: UploadLedger;
  readonly #onChange: (entry: UploadEntry) => void;
  readonly #now: () => Date;
  readonly #progressEveryMs: number;
  readonly #progressSentAt = new Map<string, number>();

  constructor(ledger: UploadLedger, onChange: (entry: UploadEntry) => void, now: () => Date, progressEveryMs: number) {
    this.#ledger = ledger;
    this.#onChange = onChange;
    this.#now = now;
    this.#progressEveryMs = progressEveryMs;
  }

  /** Every upload, oldest first. */
  list(): UploadRecord[] {
    return this.#ledger.list();
  }

  /** The upload, or undefined when it was forgotten. */
  find(uploadId: string): UploadRecord | undefined {
    return this.#ledger.get(uploadId);
  }

  /** The upload; one that was forgotten is a `not-found` for the page. */
  get(uploadId: string): UploadRecord {
    const record = this.#ledger.get(uploadId);
    if (record === undefined) throw new BridgeError('not-found', 'This upload is no longer in the list.');
    return record;
  }

  /** Adds an upload, not yet saved and not yet told to the screens. */
  add(record: UploadRecord): void {
    this.#ledger.put(record);
  }

  remove(uploadId: string): void {
    this.#ledger.remove(uploadId);
    this.#progressSentAt.delete(uploadId);
  }

  save(): Promise<void> {
    return this.#ledger.save();
  }

  /** Changes an upload in memory and tells the screens; the caller saves the ledger where a restart needs the change. */
  set(uploadId: string, changes: Partial<UploadEntry>, recordChanges: RecordChanges = {}): UploadRecord {
    const record = this.get(uploadId);
    const entry: UploadEntry = { ...record.entry, ...changes, updatedAt: this.#now().toISOString() };
    const next: UploadRecord = { ...record, ...recordChanges, entry };
    this.#ledger.put(next);
    this.#onChange(entry);
    return next;
  }

  /** `set` for a run: a run that was stopped (a cancel, the host closing) changes nothing any more. */
  setWhileRunning(uploadId: string, signal: AbortSignal, changes: Partial<UploadEntry>, recordChanges: RecordChanges = {}): UploadRecord {
    if (signal.aborted) throw new UploadFailure('stopped', 'The upload was stopped.');
    return this.set(uploadId, changes, recordChanges);
  }

  /** Marks an upload done with all its bytes sent. */
  finish(uploadId: string, signal: AbortSignal): UploadRecord {
    const { size } = this.get(uploadId).entry;
    const record = this.setWhileRunning(uploadId, signal, {
      state: 'done',
      problem: null,
      sentBytes: size,
      bytesPerSecond: null,
      secondsLeft: null,
      doneAt: this.#now().toISOString(),
    });
    this.#progressSentAt.delete(uploadId);
    return record;
  }

  /** Keeps the bytes sent in the entry, and tells the screens at most every `progressEveryMs` (and at the end). */
  progress(uploadId: string, signal: AbortSignal, rate: TransferRate, sent: number): void {
    const record = this.#ledger.get(uploadId);
    if (signal.aborted || record === undefined || record.entry.state !== 'sending') return;
    const at = performance.now();
    rate.record(at, sent);
    const { size } = record.entry;
    const entry: UploadEntry = { ...record.entry, sentBytes: sent, bytesPerSecond: rate.bytesPerSecond(), secondsLeft: rate.secondsLeft(size) };
    this.#ledger.put({ ...record, entry });
    const last = this.#progressSentAt.get(uploadId);
    if (sent < size && last !== undefined && at - last < this.#progressEveryMs) return;
    this.#progressSentAt.set(uploadId, at);
    this.#onChange(entry);
  }
}
