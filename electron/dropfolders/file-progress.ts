/**
 * The progress of the files of one mapping: kept in memory for the screens, sent at most every `progressEveryMs`,
 * written to the ledger at most once a second.
 */
import type { DropFileProgress } from '../../shared/dropfolders';
import { keyOf, rowId } from './file-rows';
import type { LedgerRow } from './ledger';
import type { UploaderContext } from './uploader-context';

/** Progress is written to the ledger at most this often: it is for the screen after a restart, not for resuming. */
const PROGRESS_SAVE_MS = 1_000;

/** When each file's progress was last sent and saved. */
export class FileProgress {
  readonly #ctx: UploaderContext;
  readonly #sentAt = new Map<string, number>();
  readonly #savedAt = new Map<string, number>();

  constructor(ctx: UploaderContext) {
    this.#ctx = ctx;
  }

  /** Keeps and sends progress, at most every `progressEveryMs` unless `force`; the ledger keeps it at most once a second. */
  report(row: LedgerRow, progress: DropFileProgress, force: boolean): void {
    const id = rowId(row);
    this.#ctx.progress.set(id, progress);
    const now = this.#ctx.now().getTime();
    const sent = this.#sentAt.get(id);
    const finished = progress.total !== null && progress.done >= progress.total;
    if (!force && !finished && sent !== undefined && now - sent < this.#ctx.timing.progressEveryMs) return;
    this.#sentAt.set(id, now);
    this.#ctx.emit({ kind: 'progress', mappingId: row.mappingId, path: row.path, progress });
    const saved = this.#savedAt.get(id);
    if (force || saved === undefined || now - saved >= PROGRESS_SAVE_MS) {
      this.#savedAt.set(id, now);
      this.#ctx.ledger.update(keyOf(row), { progress });
    }
  }

  clear(row: LedgerRow): void {
    const id = rowId(row);
    this.#ctx.progress.delete(id);
    this.#sentAt.delete(id);
    this.#savedAt.delete(id);
  }
}
