/** What every sync operation (a pull, a push, an on-demand fetch) works with. */
import type { CacheDb } from '../db/cache-db';
import type { ApiPort } from '../api/port';

/** What every sync operation works with. */
export interface SyncOptions {
  db: CacheDb;
  api: ApiPort;
  /** The clock of the timestamps written (default: the system's). */
  now?: () => Date;
}

/** The options' clock as the ISO timestamps the cache keeps. */
export function clockOf(options: SyncOptions): () => string {
  const now = options.now ?? (() => new Date());
  return () => now().toISOString();
}
