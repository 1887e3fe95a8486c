/** The sync worker's entry (started by `renderer/main.ts`): serves the window's cycles (`sync-worker-service.ts`). */
import { CacheDb } from '../db/cache-db';
import { serveSyncCycles, type SyncWorkerScope } from './sync-worker-service';

// The renderer is type-checked with the window's DOM types; in a worker, the global scope is the channel to the window.
serveSyncCycles(globalThis as unknown as SyncWorkerScope, (connectionId) => new CacheDb(connectionId));
