/**
 * A mapping's runtime started and stopped: the ledger's unfinished work taken up, the watcher and the periodic rescan
 * begun, and on stop all of it ended and awaited; pausing and resuming are a stop and a start with the stored change.
 */
import type { DropFolderMapping, DropFolderStatus } from '../../shared/dropfolders';
import { triggerUnfinished } from './file-tasks';
import type { FolderRuntime, FolderServiceContext } from './folder-runtime';
import { announceFolders, requireRuntime, statusOf } from './folder-status';
import { rescanRuntime, startWatching, stopWatching } from './folder-watching';
import { MappingUploader } from './uploader';

export async function startRuntime(context: FolderServiceContext, stored: DropFolderMapping): Promise<FolderRuntime> {
  // The runtime's own copy: settings changed later are assigned to it, never to the store's documents.
  const mapping = structuredClone(stored);
  const controller = new AbortController();
  const runtime: FolderRuntime = {
    mapping,
    controller,
    uploader: new MappingUploader(context.uploads, mapping, controller.signal),
    watcher: undefined,
    timer: undefined,
    rescanning: undefined,
    rescanQueued: undefined,
    watch: mapping.paused ? 'paused' : 'watching',
    problem: null,
    tasks: new Map(),
    links: new Set(),
  };
  context.runtimes.set(mapping.id, runtime);
  if (mapping.paused) {
    controller.abort();
    return runtime;
  }
  // Work the ledger holds from before (a restart, a resume) goes on first: uploads again, processing polled.
  triggerUnfinished(context, runtime);
  await startWatching(context, runtime);
  runtime.timer = setInterval(() => void rescanRuntime(context, runtime), context.uploads.timing.rescanIntervalMs);
  return runtime;
}

export async function stopRuntime(runtime: FolderRuntime): Promise<void> {
  runtime.controller.abort();
  clearInterval(runtime.timer);
  runtime.timer = undefined;
  await stopWatching(runtime);
  await (runtime.rescanQueued ?? runtime.rescanning);
  await Promise.all([...runtime.tasks.values()].map((task) => task.done));
}

/** Stores the mapping paused or not and restarts its runtime so. */
export async function setPaused(context: FolderServiceContext, mappingId: string, paused: boolean): Promise<DropFolderStatus> {
  const runtime = requireRuntime(context, mappingId);
  if (runtime.mapping.paused === paused) return statusOf(context, runtime);
  const mapping: DropFolderMapping = { ...runtime.mapping, paused };
  await context.store.replace(mapping);
  await stopRuntime(runtime);
  const next = await startRuntime(context, mapping);
  announceFolders(context);
  return statusOf(context, next);
}
