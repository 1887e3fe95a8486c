/**
 * When a drop folder's file reaches the server, or the server is done with it: the moments after which the cache is
 * behind (the building has a new file, or its file a new status), so a sync should follow at once instead of at the
 * next interval. Read from the host's `dropfolders:changed` events.
 */
import type { DropFolderEvent, LedgerState } from '../../shared/dropfolders';
import type { Bridge } from '../../shared/ipc';

/** The states a file is in once the server holds it: uploaded and processing, then mapped, stored or failed there. */
const ON_SERVER: ReadonlySet<LedgerState> = new Set(['processing', 'mapped', 'stored', 'failed']);

/** Calls `arrived` each time a drop folder's file enters a state the server knows of; answers how to stop. */
export function followDropFolderArrivals(bridge: Bridge, arrived: () => void): () => void {
  const seen = new Map<string, { state: LedgerState; remoteStatus: number | null }>();
  return bridge.on('dropfolders:changed', (event: DropFolderEvent) => {
    if (event.kind !== 'file') return;
    const { file } = event;
    const key = `${file.mappingId}\u0000${file.path}`;
    const before = seen.get(key);
    seen.set(key, { state: file.state, remoteStatus: file.remoteStatus });
    if (file.fileId === null || !ON_SERVER.has(file.state)) return;
    if (before?.state === file.state && before.remoteStatus === file.remoteStatus) return;
    arrived();
  });
}
