/**
 * The sync of one connection while it is the active one: its cache, its port to the server, what stops its cycle,
 * its scheduler and live queries. Ending it stops everything of the connection; its cache closes after a cycle still
 * running, not under it.
 */
import { liveQuery, type Subscription } from 'dexie';
import type { Bridge } from '../../shared/ipc';
import { CacheDb } from '../db/cache-db';
import { bridgeApiPort, type ApiPort } from '../api/port';
import type { SyncCycleReport } from '../sync/cycle';
import type { SyncScheduler } from '../sync/scheduler';

export interface SyncSession {
  connectionId: string;
  db: CacheDb;
  api: ApiPort;
  controller: AbortController;
  scheduler: SyncScheduler | undefined;
  subscriptions: Subscription[];
  /** The cycle running now, so the cache is closed only after it. */
  inFlight: Promise<SyncCycleReport> | undefined;
}

/** A live query of a session's cache whose answers count only while that session is the current one. */
export type SessionObserver = <T>(target: SyncSession, query: () => Promise<T>, next: (value: T) => void) => Subscription;

/** The session of a connection, with its cache opened and nothing running yet. */
export function newSyncSession(bridge: Bridge, connectionId: string): SyncSession {
  return {
    connectionId,
    db: new CacheDb(connectionId),
    api: bridgeApiPort(bridge, connectionId),
    controller: new AbortController(),
    scheduler: undefined,
    subscriptions: [],
    inFlight: undefined,
  };
}

/** Live queries that report to a session only while `current` answers it. */
export function sessionObserver(current: () => SyncSession | undefined): SessionObserver {
  return (target, query, next) =>
    liveQuery(query).subscribe({
      next: (value) => {
        if (current() === target) next(value);
      },
      error: (error: unknown) => {
        console.error('A live query of the sync state failed.', error);
      },
    });
}

/** Stops a session: its running cycle stops before its next request, its scheduler and queries end. */
export function endSyncSession(ending: SyncSession): void {
  ending.controller.abort();
  ending.scheduler?.stop();
  for (const subscription of ending.subscriptions) subscription.unsubscribe();
  // A cycle still running stops before its next request; the cache closes after it, not under it.
  if (ending.inFlight === undefined) ending.db.close();
  else void ending.inFlight.finally(() => ending.db.close());
}
