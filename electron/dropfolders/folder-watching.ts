/**
 * Watching a mapped folder and walking it: every file the mapping takes is handed to its task, every symbolic link is
 * named in the folder's status, and a folder that went away or became one no drop folder may be is no longer watched.
 */
import { trigger, triggerUnfinished } from './file-tasks';
import { problemOf, unsafeReason } from './folder-checks';
import { messageOf, type FolderRuntime, type FolderServiceContext } from './folder-runtime';
import { linksNote, setWatch, showLinks } from './folder-status';
import { walkFiles } from './folder-watcher';
import { fileKindOf, isIgnoredRelativePath, relativeKeyOf } from './file-rules';
import { isWithin } from './mapping-store';

function ignoredBelow(context: FolderServiceContext, runtime: FolderRuntime): (absolutePath: string) => boolean {
  return (absolutePath) => {
    // The state folder may lie inside the drop folder (the headless default), hidden or not.
    if (isWithin(context.stateDir, absolutePath)) return true;
    const relative = relativeKeyOf(runtime.mapping.folder, absolutePath);
    return relative !== undefined && isIgnoredRelativePath(relative);
  };
}

function candidate(context: FolderServiceContext, runtime: FolderRuntime, absolutePath: string): void {
  const relative = relativeKeyOf(runtime.mapping.folder, absolutePath);
  if (relative !== undefined && fileKindOf(relative, runtime.mapping) !== undefined) trigger(context, runtime, relative);
}

/** A link is named in the folder's status; one named like a file the mapping takes is also the uploader's to refuse. */
function linkFound(context: FolderServiceContext, runtime: FolderRuntime, absolutePath: string, links: Set<string>): void {
  const relative = relativeKeyOf(runtime.mapping.folder, absolutePath);
  if (relative === undefined) return;
  links.add(relative);
  candidate(context, runtime, absolutePath);
}

/** Starts the folder's watcher; false when the folder cannot be watched now (its status says why) or work stopped. */
export async function startWatching(context: FolderServiceContext, runtime: FolderRuntime): Promise<boolean> {
  const problem = await problemOf(context, runtime.mapping.folder);
  if (problem !== null) {
    setWatch(context, runtime, 'unavailable', problem);
    return false;
  }
  if (runtime.controller.signal.aborted) return false;
  runtime.watcher = context.watchFolder(runtime.mapping.folder, {
    polling: runtime.mapping.polling,
    pollIntervalMs: context.uploads.timing.watchPollMs,
    ignored: ignoredBelow(context, runtime),
    onFile: (absolutePath) => candidate(context, runtime, absolutePath),
    onLink: (absolutePath) => {
      linkFound(context, runtime, absolutePath, runtime.links);
      showLinks(context, runtime);
    },
    // Files created while the watcher read the tree may have been missed: one walk once it is ready finds them.
    onReady: () => void rescanRuntime(context, runtime),
    onError: (error) => context.log(`Watching ${runtime.mapping.folder} reported a problem`, error),
  });
  setWatch(context, runtime, 'watching', linksNote(runtime.links));
  return true;
}

export async function stopWatching(runtime: FolderRuntime): Promise<void> {
  const watcher = runtime.watcher;
  runtime.watcher = undefined;
  await watcher?.close();
}

/**
 * Walks the folder and names every file; a folder that went away is marked unavailable until a later rescan finds
 * it, and one that became a folder no drop folder may be (a passport folder saved into it) is no longer watched.
 */
async function walk(context: FolderServiceContext, runtime: FolderRuntime): Promise<void> {
  if (runtime.controller.signal.aborted) return;
  if (runtime.watcher !== undefined) {
    const reason = await unsafeReason(context, runtime.mapping.folder);
    if (reason !== null) {
      await stopWatching(runtime);
      setWatch(context, runtime, 'unavailable', reason);
      return;
    }
  }
  if (runtime.watcher === undefined && !(await startWatching(context, runtime))) return;
  const links = new Set<string>();
  try {
    for await (const entry of walkFiles(runtime.mapping.folder, ignoredBelow(context, runtime))) {
      if (runtime.controller.signal.aborted) return;
      if (entry.link) linkFound(context, runtime, entry.absolutePath, links);
      else candidate(context, runtime, entry.absolutePath);
    }
  } catch (error) {
    await stopWatching(runtime);
    setWatch(context, runtime, 'unavailable', `The folder ${runtime.mapping.folder} cannot be read: ${messageOf(error)}`);
    return;
  }
  runtime.links = links;
  showLinks(context, runtime);
  triggerUnfinished(context, runtime);
}

/**
 * Walks the folder now, or once the walk under way ends: that one may have read the folder before the change that asked
 * for this one. Every request made meanwhile shares that one next walk, so a slow network share does not pile them up.
 */
export function rescanRuntime(context: FolderServiceContext, runtime: FolderRuntime): Promise<void> {
  const current = runtime.rescanning;
  if (current !== undefined) {
    runtime.rescanQueued ??= current.then(() => {
      runtime.rescanQueued = undefined;
      return rescanRuntime(context, runtime);
    });
    return runtime.rescanQueued;
  }
  const walking = walk(context, runtime)
    .catch((error: unknown) => context.log(`Rescanning ${runtime.mapping.folder} failed`, error))
    .finally(() => {
      runtime.rescanning = undefined;
    });
  runtime.rescanning = walking;
  return walking;
}
