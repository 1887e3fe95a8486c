/**
 * A file's ledger row moved from state to state: each change written to the ledger and announced to the host with a
 * detail line as it happens, and a failure ended with its notice. The uploader and the processing follower change
 * rows only through it, so the screens never miss a state.
 */
import type { LedgerState } from '../../shared/dropfolders';
import type { FileProgress } from './file-progress';
import { keyOf, noticeOf, rowId, snapshotOf } from './file-rows';
import type { LedgerChanges, LedgerRow } from './ledger';
import type { UploaderContext } from './uploader-context';

/** The state changes of the files of one mapping. */
export class FileStateChanges {
  readonly #ctx: UploaderContext;
  readonly #progress: FileProgress;

  constructor(ctx: UploaderContext, progress: FileProgress) {
    this.#ctx = ctx;
    this.#progress = progress;
  }

  /** Ends the file `failed` with `message`, and gives notice of it. */
  fail(row: LedgerRow, message: string, changes: LedgerChanges = {}): void {
    this.#progress.clear(row);
    const failed = this.change(row, 'failed', { ...changes, lastError: message, progress: null }, message);
    this.#ctx.emit(noticeOf(failed, 'failed', message));
  }

  /** Moves the row to state `to` with `changes`, and announces it with `detail`. */
  change(row: LedgerRow, to: LedgerState, changes: LedgerChanges, detail: string | null = null): LedgerRow {
    const next = this.#ctx.ledger.transition(keyOf(row), to, changes);
    this.announce(next, detail);
    return next;
  }

  /** Tells the host the row as it is now. */
  announce(row: LedgerRow, detail: string | null): void {
    this.#ctx.emit({ kind: 'file', file: snapshotOf(row, this.#ctx.progress.get(rowId(row))), detail });
  }
}
