/**
 * A watched folder's status as the host sees it (its watch state, and the problem it names: its own, its links, or a
 * removed connection), and the announcement of every folder whenever one of them changes.
 */
import { BridgeError } from '../../shared/ipc';
import type { DropFolderStatus, WatchState } from '../../shared/dropfolders';
import type { FolderRuntime, FolderServiceContext } from './folder-runtime';

/** How many links the status names before it only counts the rest. */
const LINKS_NAMED = 5;

/** The problem of a folder whose connection was removed: its files wait, uploading nothing, until it is removed. */
const CONNECTION_REMOVED = 'Its connection was removed, so nothing is uploaded. Remove this drop folder and add the folder again with another connection.';

/** What the status of a watched folder says about its symbolic links, or null when it has none. */
export function linksNote(links: ReadonlySet<string>): string | null {
  if (links.size === 0) return null;
  const sorted = [...links].sort();
  const named = sorted.slice(0, LINKS_NAMED).join(', ');
  const more = sorted.length > LINKS_NAMED ? ` and ${sorted.length - LINKS_NAMED} more` : '';
  return `Symbolic links are not followed, so nothing they point to is uploaded: ${named}${more}. Put the files themselves (or copies) in the folder.`;
}

export function statusOf(context: FolderServiceContext, runtime: FolderRuntime): DropFolderStatus {
  const connectionGone = context.connectionExists?.(runtime.mapping.connectionId) === false;
  const problem = runtime.problem ?? (connectionGone ? CONNECTION_REMOVED : null);
  return { ...runtime.mapping, fileTypes: [...runtime.mapping.fileTypes], target: { ...runtime.mapping.target }, watch: runtime.watch, problem };
}

/** Every mapping with how its watching goes, in the store's order. */
export function listStatuses(context: FolderServiceContext): DropFolderStatus[] {
  return context.store.list().flatMap((mapping) => {
    const runtime = context.runtimes.get(mapping.id);
    return runtime === undefined ? [] : [statusOf(context, runtime)];
  });
}

export function announceFolders(context: FolderServiceContext): void {
  context.emit({ kind: 'folders', folders: listStatuses(context) });
}

/** Sets how a folder's watching goes, announcing the folders when that changed. */
export function setWatch(context: FolderServiceContext, runtime: FolderRuntime, watch: WatchState, problem: string | null): void {
  if (runtime.watch === watch && runtime.problem === problem) return;
  runtime.watch = watch;
  runtime.problem = problem;
  announceFolders(context);
}

/** Names the folder's links in its status while it is watched. */
export function showLinks(context: FolderServiceContext, runtime: FolderRuntime): void {
  if (runtime.watch === 'watching') setWatch(context, runtime, 'watching', linksNote(runtime.links));
}

/** The runtime of a mapping; throws a BridgeError while the service closes or when the mapping is gone. */
export function requireRuntime(context: FolderServiceContext, mappingId: string): FolderRuntime {
  if (context.closed) throw new BridgeError('unavailable', 'The drop folders are shutting down.');
  const runtime = context.runtimes.get(mappingId);
  if (runtime === undefined) throw new BridgeError('not-found', 'This drop folder no longer exists.');
  return runtime;
}
