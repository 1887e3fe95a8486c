import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiAnswer } from '../../../../shared/ipc';
import { CacheDb } from '../../../../renderer/db/cache-db';
import type { PullProgress, SyncIssue } from '../../../../renderer/db/schema';
import { readPullState } from '../../../../renderer/db/sync-state';
import type { ApiPort } from '../../../../renderer/api/port';
import { runSyncCycle, type PullFunction, type PushFunction, type PushSummary } from '../../../../renderer/sync/cycle';
import { pull } from '../../../../renderer/sync/pull';
import { startApiServer } from '../api-server';


let opened: CacheDb[] = [];
afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

function open(): CacheDb {
  const db = new CacheDb('cycle', { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  return db;
}

const clock = () => new Date('2025-03-01T10:00:00.000Z');

const DONE: PushSummary = { status: 'done', pushed: 0, parked: 0, retryable: false };

function issue(where: string, status: number): SyncIssue {
  return {
    at: '2025-03-01T10:00:00.000Z',
    where,
    failure: {
      kind: 'problem',
      status,
      problem: { type: 'about:blank', title: 'Unavailable', status, detail: 'Try later.', instance: '/', errors: [], message: 'Try later.' },
    },
  };
}

function ok(value: unknown): ApiAnswer {
  return { kind: 'ok', status: 200, value, location: null };
}

/** A push and a pull that write what they were called with, in order, to one log. */
function recorder(pushResult: () => Promise<PushSummary>, pullResult: PullFunction = async () => ({ status: 'complete', issues: [], keptMissing: [] })) {
  const log: string[] = [];
  const push: PushFunction = async (options) => {
    log.push(`push signal=${options.signal !== undefined}`);
    return pushResult();
  };
  const pullFn: PullFunction = async (options) => {
    log.push(`pull signal=${options.signal !== undefined}`);
    return pullResult(options);
  };
  return { log, push, pull: pullFn };
}

describe('runSyncCycle', () => {
  it('pushes before it pulls, with the same cache, port and signal, and reports the phases in that order', async () => {
    const db = open();
    const api: ApiPort = async () => ok([]);
    const phases: string[] = [];
    const seen: unknown[] = [];
    const { log, push, pull: pullFn } = recorder(async () => ({ ...DONE, pushed: 2 }));
    const controller = new AbortController();

    const report = await runSyncCycle({
      db,
      api,
      push: async (options) => {
        seen.push(options.db, options.api);
        return push(options);
      },
      pull: async (options) => {
        seen.push(options.db, options.api);
        return pullFn(options);
      },
      signal: controller.signal,
      onPhase: (phase) => phases.push(phase),
      now: clock,
    });

    expect(log).toEqual(['push signal=true', 'pull signal=true']);
    expect(phases).toEqual(['push', 'pull']);
    expect(seen).toEqual([db, api, db, api]);
    expect(report).toMatchObject({ outcome: { kind: 'ok' }, push: { pushed: 2 }, pull: { status: 'complete' }, error: null, finishedAt: '2025-03-01T10:00:00.000Z' });
  });

  it('ends the cycle after a push that stopped on a transient failure, as retryable, without pulling', async () => {
    const stopped = issue('push:building', 503);
    const { log, push, pull: pullFn } = recorder(async () => ({ status: 'incomplete', pushed: 1, parked: 0, retryable: true, lastError: stopped }));

    const report = await runSyncCycle({ db: open(), api: async () => ok([]), push, pull: pullFn });

    expect(log).toEqual(['push signal=false']);
    expect(report.outcome).toEqual({ kind: 'failed', retryable: true, message: '503 Unavailable: Try later.' });
    expect(report.pull).toBeNull();
    expect(report.error).toEqual(stopped);
  });

  it('ends the cycle after a push the key was refused for, as not retryable, without pulling', async () => {
    const refused = issue('push:portfolio', 401);
    const { log, push, pull: pullFn } = recorder(async () => ({ status: 'incomplete', pushed: 0, parked: 0, retryable: false, lastError: refused }));

    const report = await runSyncCycle({ db: open(), api: async () => ok([]), push, pull: pullFn });

    expect(log).toEqual(['push signal=false']);
    expect(report.outcome).toMatchObject({ kind: 'failed', retryable: false });
    expect(report.error).toEqual(refused);
  });

  it('pulls after a push that parked entries: they wait for the user, the rest syncs', async () => {
    const parked = issue('push:material', 422);
    const { log, push, pull: pullFn } = recorder(async () => ({ status: 'done', pushed: 3, parked: 1, retryable: false, lastError: parked }));

    const report = await runSyncCycle({ db: open(), api: async () => ok([]), push, pull: pullFn });

    expect(log).toEqual(['push signal=false', 'pull signal=false']);
    expect(report.outcome).toEqual({ kind: 'ok' });
    expect(report.error).toBeNull();
    expect(report.push).toMatchObject({ parked: 1, lastError: parked });
  });

  it("fails with the pull's own verdict when the pull stopped", async () => {
    const stopped = issue('listBuildings', 429);
    const { push, pull: pullFn } = recorder(
      async () => DONE,
      async () => ({ status: 'incomplete', stoppedBy: stopped, retryable: true, issues: [], keptMissing: [] }),
    );

    const report = await runSyncCycle({ db: open(), api: async () => ok([]), push, pull: pullFn });

    expect(report.outcome).toEqual({ kind: 'failed', retryable: true, message: '429 Unavailable: Try later.' });
    expect(report.error).toEqual(stopped);
  });

  it('counts a pull that only skipped refused collections as done, and keeps what it skipped in the report', async () => {
    const skipped = issue('listMaterials', 400);
    const { push, pull: pullFn } = recorder(async () => DONE, async () => ({ status: 'complete', issues: [skipped], keptMissing: [] }));

    const report = await runSyncCycle({ db: open(), api: async () => ok([]), push, pull: pullFn });

    expect(report.outcome).toEqual({ kind: 'ok' });
    expect(report.pull).toMatchObject({ issues: [skipped] });
  });

  it('never throws: a push or pull that throws ends the cycle as a failure retrying alone will not fix', async () => {
    const throwingPush = recorder(async () => {
      throw new Error('The cache is gone.');
    });
    const afterPush = await runSyncCycle({ db: open(), api: async () => ok([]), push: throwingPush.push, pull: throwingPush.pull, now: clock });
    expect(throwingPush.log).toEqual(['push signal=false']);
    expect(afterPush).toMatchObject({
      outcome: { kind: 'failed', retryable: false, message: 'The cache is gone.' },
      push: null,
      pull: null,
      error: { where: 'push', failure: { kind: 'internal', message: 'The cache is gone.' } },
    });

    const throwingPull = recorder(
      async () => DONE,
      async () => {
        throw new Error('Quota exceeded.');
      },
    );
    const afterPull = await runSyncCycle({ db: open(), api: async () => ok([]), push: throwingPull.push, pull: throwingPull.pull });
    expect(afterPull).toMatchObject({ outcome: { kind: 'failed', retryable: false }, error: { where: 'pull' } });
  });

  it('runs the real pull after the push against the real server: its requests follow the push, its progress reaches the listener, its record is written', async () => {
    const db = open();
    const server = await startApiServer();
    await server.createPortfolio('Noord');
    const requests: string[] = [];
    const api: ApiPort = (call) => {
      requests.push(call.operationId);
      return server.handle({ connectionId: 'test', ...call });
    };
    const progress: PullProgress[] = [];

    const report = await runSyncCycle({
      db,
      api,
      push: async () => {
        requests.push('push');
        return DONE;
      },
      pull,
      onPullProgress: (each) => progress.push(each),
      now: clock,
    });

    expect(report.outcome).toEqual({ kind: 'ok' });
    expect(requests[0]).toBe('push');
    expect(requests.slice(1)).toEqual([
      'listBuildings',
      'listPortfolios',
      'listClassificationMethods',
      'getCurrentAccount',
      'listMaterials',
      'listMaterials',
      'listProducts',
      'listProducts',
    ]);
    expect(progress[0]).toEqual({ phase: 'lists', collection: 'buildings' });
    expect((await db.portfolios.toArray()).map((each) => each.name)).toEqual(['Noord']);
    expect((await readPullState(db)).lastSuccessAt).toBe('2025-03-01T10:00:00.000Z');
  });
});
