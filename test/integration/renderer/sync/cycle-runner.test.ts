/**
 * Cycles run through the worker protocol: the window's runner (`workerCycleRunner`) and the worker's service
 * (`serveSyncCycles`) on the two ends of a real MessageChannel (structured clone included), against a real server. Node
 * has no Web Worker; the worker's own entry is two lines and runs in the e2e tests in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullProgress } from '../../../../renderer/db/schema';
import type { ApiPort } from '../../../../renderer/api/port';
import { workerCycleRunner, type CycleRequest, type SyncWorkerLike } from '../../../../renderer/sync/cycle-runner';
import type { SyncPhase } from '../../../../renderer/sync/cycle';
import { serveSyncCycles, type SyncWorkerScope } from '../../../../renderer/sync/sync-worker-service';
import type { FromSyncWorker, ToSyncWorker } from '../../../../renderer/sync/worker-protocol';
import {
  createBuilding,
  createElementFile,
  expectCacheEqualsServer,
  freshIndexedDb,
  openCache,
  queuedPort,
  startSyncServer,
  type SyncServer,
} from './harness';

let server: SyncServer;
let port: ApiPort;

beforeAll(async () => {
  server = await startSyncServer();
  port = queuedPort(server);
  const { buildingId } = await createBuilding(server, 'Through the worker');
  await createElementFile(server, buildingId, 120);
}, 60_000);

afterAll(async () => {
  await server.close();
});

/** A worker made of a MessageChannel whose other end is served by `serveSyncCycles`; `crash` fires its error event. */
function channelWorker(factory: IDBFactory): { worker: SyncWorkerLike; crash(message: string): void } {
  const { port1: window, port2: inside } = new MessageChannel();
  const failures = new EventTarget();
  const scope: SyncWorkerScope = {
    postMessage: (message: FromSyncWorker) => inside.postMessage(message),
    addEventListener: (_type, listener) => inside.addEventListener('message', listener as (event: Event) => void),
  };
  serveSyncCycles(scope, () => openCache(factory));
  inside.start();
  window.start();
  return {
    worker: {
      postMessage: (message: ToSyncWorker) => window.postMessage(message),
      addEventListener: (type: 'message' | 'error', listener: (event: never) => void) => {
        if (type === 'message') window.addEventListener('message', listener as (event: Event) => void);
        else failures.addEventListener('error', listener as (event: Event) => void);
      },
      terminate: () => {
        window.close();
        inside.close();
      },
    },
    crash: (message) => failures.dispatchEvent(Object.assign(new Event('error'), { message })),
  };
}

function request(factory: IDBFactory, api: ApiPort, signal = new AbortController().signal): CycleRequest & { phases: SyncPhase[]; progress: PullProgress[] } {
  const phases: SyncPhase[] = [];
  const progress: PullProgress[] = [];
  return {
    db: openCache(factory),
    api,
    signal,
    phases,
    progress,
    onPhase: (phase) => phases.push(phase),
    onPushProgress: () => undefined,
    onPullProgress: (next) => progress.push(next),
  };
}

describe('cycles in the sync worker', () => {
  it("runs a cycle on the worker's own cache, with the window making its calls and hearing how it goes", async () => {
    const factory = freshIndexedDb();
    const made: SyncWorkerLike[] = [];
    const run = workerCycleRunner(() => {
      const { worker } = channelWorker(factory);
      made.push(worker);
      return worker;
    });
    const cycle = request(factory, port);

    const report = await run(cycle);

    expect(report.outcome).toEqual({ kind: 'ok' });
    expect(report.pull?.status).toBe('complete');
    expect(cycle.phases).toEqual(['push', 'pull']);
    expect(cycle.progress.some((step) => step.phase === 'elements')).toBe(true);
    await expectCacheEqualsServer(cycle.db, server);
    expect(made).toHaveLength(1);
  });

  it('stops a cycle the window aborts before its next request, as one that can be retried', async () => {
    const factory = freshIndexedDb();
    const controller = new AbortController();
    const run = workerCycleRunner(() => channelWorker(factory).worker);
    const aborting: ApiPort = async (call) => {
      if (call.operationId === 'listBuildingFiles') controller.abort();
      return port(call);
    };

    const report = await run(request(factory, aborting, controller.signal));

    expect(report.outcome).toMatchObject({ kind: 'failed', retryable: true });
    expect(report.pull?.status).toBe('incomplete');
  });

  it('ends the running cycle as failed when the worker fails, and starts a new worker for the next one', async () => {
    const factory = freshIndexedDb();
    const workers: ReturnType<typeof channelWorker>[] = [];
    const run = workerCycleRunner(() => {
      const made = channelWorker(factory);
      workers.push(made);
      return made.worker;
    });
    const crashing: ApiPort = async () => {
      if (workers.length === 1) workers[0]?.crash('Out of memory.');
      return new Promise(() => undefined);
    };

    const failed = await run(request(factory, crashing));
    expect(failed.outcome).toEqual({ kind: 'failed', retryable: false, message: 'Out of memory.' });
    expect(failed.error?.failure).toEqual({ kind: 'internal', message: 'Out of memory.' });

    const next = await run(request(factory, port));
    expect(next.outcome).toEqual({ kind: 'ok' });
    expect(workers).toHaveLength(2);
  });
});
