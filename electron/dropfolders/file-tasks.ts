/**
 * One task per file of a watched folder: a file named again while its task runs is looked at once more after it, and
 * a failure that is not the server's (a disk or ledger error) is logged and noted in the ledger for the next rescan.
 */
import type { FileTask, FolderRuntime, FolderServiceContext } from './folder-runtime';
import { messageOf } from './folder-runtime';
import { isTerminal, rowId, snapshotOf } from './file-rows';

/** Works on a file, one task per file. */
export function trigger(context: FolderServiceContext, runtime: FolderRuntime, relativePath: string): void {
  if (runtime.controller.signal.aborted) return;
  const running = runtime.tasks.get(relativePath);
  if (running !== undefined) {
    running.again = true;
    return;
  }
  const task: FileTask = { again: false, done: Promise.resolve() };
  runtime.tasks.set(relativePath, task);
  task.done = runTask(context, runtime, relativePath, task);
}

/** Takes up every file of the folder whose work the ledger holds unfinished. */
export function triggerUnfinished(context: FolderServiceContext, runtime: FolderRuntime): void {
  for (const row of context.ledger.list(runtime.mapping.id)) {
    if (!isTerminal(row.state)) trigger(context, runtime, row.path);
  }
}

async function runTask(context: FolderServiceContext, runtime: FolderRuntime, relativePath: string, task: FileTask): Promise<void> {
  try {
    do {
      task.again = false;
      const changed = await runtime.uploader.run(relativePath);
      task.again ||= changed;
    } while (task.again && !runtime.controller.signal.aborted);
  } catch (error) {
    // Not a failure of the server (those are the uploader's): a disk or ledger error. The next rescan tries again.
    context.log(`Drop folder ${runtime.mapping.folder}: working on ${relativePath} failed`, error);
    noteFailure(context, runtime, relativePath, error);
  } finally {
    runtime.tasks.delete(relativePath);
  }
}

function noteFailure(context: FolderServiceContext, runtime: FolderRuntime, relativePath: string, error: unknown): void {
  const { ledger } = context;
  const key = { mappingId: runtime.mapping.id, path: relativePath };
  try {
    if (ledger.get(key) !== undefined) {
      const updated = ledger.update(key, { lastError: messageOf(error) });
      context.emit({ kind: 'file', file: snapshotOf(updated, context.uploads.progress.get(rowId(key))), detail: messageOf(error) });
    }
  } catch (ledgerError) {
    context.log('Recording the failure in the ledger failed', ledgerError);
  }
}
