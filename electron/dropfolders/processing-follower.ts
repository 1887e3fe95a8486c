/**
 * A delivered source file followed on the server: its status polled until processing ends, then activated if the
 * mapping says so, with notice either way. Also where the work resumes after a restart that found a file `processing`:
 * it is polled again, never uploaded again.
 */
import { assertNever, BuildingFileStatuses } from '../../shared/api/enums';
import type { DropFolderMapping } from '../../shared/dropfolders';
import type { FileProgress } from './file-progress';
import { keyOf, noticeOf } from './file-rows';
import type { FileStateChanges } from './file-state-changes';
import type { LedgerRow } from './ledger';
import { activateFile, getStatus, RemoteFailure, type DropFolderClient } from './remote';
import { retryDelayMs } from './timing';
import type { UploaderContext } from './uploader-context';

/** What following a file's processing works with: the mapping's uploader hands over its own. */
export interface ProcessingWork {
  ctx: UploaderContext;
  mapping: DropFolderMapping;
  signal: AbortSignal;
  progress: FileProgress;
  states: FileStateChanges;
  /** The mapping's client; throws a transient failure while its connection is gone. */
  client(): DropFolderClient;
}

/** Polls the server's processing until it ends, then activates (if chosen) and gives notice. */
export async function followProcessing(work: ProcessingWork, start: LedgerRow): Promise<void> {
  const { ctx, mapping, signal, progress, states } = work;
  let row = start;
  let failures = 0;
  for (;;) {
    if (signal.aborted) return;
    try {
      const client = work.client();
      if (row.buildingId === null || row.fileId === null) {
        states.fail(row, 'The ledger lost the remote file of this upload; change the file or retry to upload it again.');
        return;
      }
      const { buildingId, fileId } = row;
      const status = await getStatus(client, buildingId, fileId, signal);
      failures = 0;
      if (status.status !== row.remoteStatus || status.statusMessage !== row.remoteMessage) {
        row = ctx.ledger.update(keyOf(row), { remoteStatus: status.status, remoteMessage: status.statusMessage, lastError: null });
      }
      progress.report(row, { step: 'processing', done: status.elementProcessedCount, total: status.elementCount }, false);
      if (status.status === BuildingFileStatuses.Mapped) {
        let activation: string | null = null;
        if (mapping.activate) {
          try {
            await activateFile(client, buildingId, fileId, signal);
          } catch (error) {
            if (!(error instanceof RemoteFailure) || error.kind === 'stopped' || error.kind === 'transient') throw error;
            activation = `Mapped, but not activated: ${error.message}`;
          }
        }
        progress.clear(row);
        row = states.change(row, 'mapped', { result: 'mapped', lastError: activation, progress: null }, activation ?? (mapping.activate ? 'activated' : status.statusMessage));
        ctx.emit(noticeOf(row, 'mapped', [status.statusMessage, mapping.activate && activation === null ? 'Activated.' : activation].filter((part) => part !== null).join(' ')));
        return;
      }
      if (status.status === BuildingFileStatuses.Error || status.status === BuildingFileStatuses.UnknownImportFile) {
        const message = status.statusMessage ?? 'The server could not process the file.';
        progress.clear(row);
        row = states.change(row, 'failed', { result: 'failed', lastError: message, progress: null }, message);
        ctx.emit(noticeOf(row, 'failed', message));
        return;
      }
      await ctx.sleep(ctx.timing.statusPollMs, signal);
    } catch (error) {
      if (!(error instanceof RemoteFailure)) throw error;
      switch (error.kind) {
        case 'stopped':
          return;
        case 'transient':
        case 'conflict':
          failures += 1;
          row = ctx.ledger.update(keyOf(row), { lastError: error.message });
          await ctx.sleep(retryDelayMs(ctx.timing, failures, ctx.random), signal);
          continue;
        case 'gone':
          states.fail(row, 'The file was deleted on the server; change the file or retry to upload it again.', {
            fileId: null,
            deliveredSha256: null,
            result: null,
          });
          return;
        case 'permanent':
          states.fail(row, error.message);
          return;
        default:
          return assertNever(error.kind, 'failure kind');
      }
    }
  }
}
