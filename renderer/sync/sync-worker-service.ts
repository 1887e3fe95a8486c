/**
 * The sync worker's service: runs the cycles the window asks for (`cycle-runner.ts`) on its own connection to the
 * cache, and makes its API calls through the window. One cache is open at a time: a cycle of another connection closes
 * the last.
 */
import { assertNever } from '../../shared/api/enums';
import { ApiPortError, type ApiCall, type ApiPort } from '../api/port';
import type { CacheDb } from '../db/cache-db';
import { runSyncCycle } from './cycle';
import { pull } from './pull';
import { push } from './push';
import type { CycleCallResult, FromSyncWorker, ToSyncWorker } from './worker-protocol';

/** The end of the channel to the window: the worker's global scope, or a `MessagePort`. */
export interface SyncWorkerScope {
  postMessage(message: FromSyncWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToSyncWorker>) => void): void;
}

/** Serves the window's cycles on `scope`; `openCache` opens a connection's cache (`new CacheDb(id)` in the worker). */
export function serveSyncCycles(scope: SyncWorkerScope, openCache: (connectionId: string) => CacheDb): void {
  const controllers = new Map<number, AbortController>();
  const calls = new Map<number, (result: CycleCallResult) => void>();
  let nextCallId = 1;
  let cache: CacheDb | undefined;

  function cacheOf(connectionId: string): CacheDb {
    if (cache?.connectionId === connectionId) return cache;
    cache?.close();
    cache = openCache(connectionId);
    return cache;
  }

  function portFor(cycleId: number): ApiPort {
    return (call: ApiCall) =>
      new Promise((resolve, reject) => {
        const callId = nextCallId++;
        calls.set(callId, (result) => {
          if (result.ok) resolve(result.answer);
          else reject(new ApiPortError(result.code, result.message));
        });
        scope.postMessage({ kind: 'call', cycleId, callId, call });
      });
  }

  async function run(cycleId: number, connectionId: string): Promise<void> {
    const controller = new AbortController();
    controllers.set(cycleId, controller);
    try {
      const report = await runSyncCycle({
        db: cacheOf(connectionId),
        api: portFor(cycleId),
        push,
        pull,
        signal: controller.signal,
        onPhase: (phase) => scope.postMessage({ kind: 'phase', cycleId, phase }),
        onPushProgress: (progress) => scope.postMessage({ kind: 'push-progress', cycleId, progress }),
        onPullProgress: (progress) => scope.postMessage({ kind: 'pull-progress', cycleId, progress }),
      });
      scope.postMessage({ kind: 'done', cycleId, report });
    } catch (error) {
      scope.postMessage({ kind: 'failed', cycleId, message: error instanceof Error ? error.message : String(error) });
    } finally {
      controllers.delete(cycleId);
    }
  }

  scope.addEventListener('message', (event) => {
    const message = event.data;
    switch (message.kind) {
      case 'run':
        void run(message.cycleId, message.connectionId);
        return;
      case 'abort':
        controllers.get(message.cycleId)?.abort();
        return;
      case 'answer': {
        const settle = calls.get(message.callId);
        calls.delete(message.callId);
        settle?.(message.result);
        return;
      }
      default:
        assertNever(message, 'sync worker message');
    }
  });
}
