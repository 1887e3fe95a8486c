/**
 * Where a sync cycle runs. In the app it runs in a dedicated worker (`sync-worker.ts`): pulling a large file writes
 * tens of thousands of IndexedDB records, and each write's serialisation costs the thread that makes it, so in the
 * window it would freeze the screens for seconds. The worker reaches the API through the window, which owns the
 * Bridge (the Electron preload exposes it to the window only). Without a worker (tests in Node) the cycle runs here.
 */
import { assertNever } from '../../shared/api/enums';
import type { ApiAnswer } from '../../shared/ipc';
import type { CacheDb } from '../db/cache-db';
import type { PullProgress, PushProgress } from '../db/schema';
import { ApiPortError, type ApiPort } from '../api/port';
import { runSyncCycle, type SyncCycleReport, type SyncPhase } from './cycle';
import { pull } from './pull';
import { push } from './push';
import type { CycleCallResult, FromSyncWorker, ToSyncWorker } from './worker-protocol';

/** One cycle to run: the connection's cache, its API port, and who hears how it goes. */
export interface CycleRequest {
  db: CacheDb;
  api: ApiPort;
  signal: AbortSignal;
  onPhase: (phase: SyncPhase) => void;
  onPushProgress: (progress: PushProgress) => void;
  onPullProgress: (progress: PullProgress) => void;
}

/** Runs a cycle; resolves with its report and never rejects (the scheduler's contract). */
export type CycleRunner = (request: CycleRequest) => Promise<SyncCycleReport>;

/** Runs cycles in this thread, on the request's own cache. */
export const inThreadCycleRunner: CycleRunner = (request) => runSyncCycle({ ...request, push, pull });

/** The part of a `Worker` the runner uses. */
export interface SyncWorkerLike {
  postMessage(message: ToSyncWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<FromSyncWorker>) => void): void;
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

/** A cycle the worker runs for this window. */
interface Running {
  request: CycleRequest;
  resolve: (report: SyncCycleReport) => void;
}

function failedReport(message: string): SyncCycleReport {
  const at = new Date().toISOString();
  const issue = { at, where: 'sync worker', failure: { kind: 'internal' as const, message } };
  return { outcome: { kind: 'failed', retryable: false, message }, push: null, pull: null, error: issue, finishedAt: at };
}

/** Answers a call of the worker through the cycle's port; a program error of the port is the host's failure. */
async function answer(api: ApiPort, call: Parameters<ApiPort>[0]): Promise<CycleCallResult> {
  try {
    const value: ApiAnswer = await api(call);
    return { ok: true, answer: value };
  } catch (error) {
    if (error instanceof ApiPortError) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: 'internal', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Runs cycles in a worker made by `createWorker` (made on the first cycle, and again after one failed). A worker that
 * fails ends its running cycles as failed; it never leaves one waiting.
 */
export function workerCycleRunner(createWorker: () => SyncWorkerLike): CycleRunner {
  let worker: SyncWorkerLike | undefined;
  let nextId = 1;
  const running = new Map<number, Running>();

  function end(cycleId: number, report: SyncCycleReport): void {
    const cycle = running.get(cycleId);
    if (cycle === undefined) return;
    running.delete(cycleId);
    cycle.resolve(report);
  }

  function onMessage(target: SyncWorkerLike, message: FromSyncWorker): void {
    const cycle = running.get(message.cycleId);
    if (cycle === undefined) return;
    switch (message.kind) {
      case 'call':
        void answer(cycle.request.api, message.call).then((result) => target.postMessage({ kind: 'answer', callId: message.callId, result }));
        return;
      case 'phase':
        cycle.request.onPhase(message.phase);
        return;
      case 'pull-progress':
        cycle.request.onPullProgress(message.progress);
        return;
      case 'push-progress':
        cycle.request.onPushProgress(message.progress);
        return;
      case 'done':
        end(message.cycleId, message.report);
        return;
      case 'failed':
        end(message.cycleId, failedReport(message.message));
        return;
      default:
        assertNever(message, 'sync worker message');
    }
  }

  function started(): SyncWorkerLike {
    if (worker !== undefined) return worker;
    const created = createWorker();
    created.addEventListener('message', (event) => onMessage(created, event.data));
    created.addEventListener('error', (event) => {
      const { message: said } = event as Partial<ErrorEvent>;
      const message = typeof said === 'string' && said !== '' ? said : 'The sync worker failed.';
      if (worker === created) worker = undefined;
      created.terminate();
      for (const cycleId of [...running.keys()]) end(cycleId, failedReport(message));
    });
    worker = created;
    return created;
  }

  return (request) =>
    new Promise<SyncCycleReport>((resolve) => {
      const cycleId = nextId++;
      const target = started();
      running.set(cycleId, { request, resolve });
      request.signal.addEventListener('abort', () => target.postMessage({ kind: 'abort', cycleId }), { once: true });
      target.postMessage({ kind: 'run', cycleId, connectionId: request.db.connectionId });
    });
}
