import { describe, expect, it } from 'vitest';
import type { BuildingResponse, PortfolioResponse } from '../../../../shared/api/schemas';
import type { ApiAnswer, ApiRequest } from '../../../../shared/ipc';
import { usePortfoliosStore } from '../../../../renderer/stores/portfolios';
import { deferred, storeContext, testBridge } from '../harness';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';

function portfolio(id: string, name: string): PortfolioResponse {
  return { id, name, logo: null };
}

function building(id: string, portfolioId: string, name: string): BuildingResponse {
  return { id, portfolioId, name } as BuildingResponse;
}

function ok(value: unknown): ApiAnswer {
  return { kind: 'ok', status: 200, value, location: null };
}

describe('usePortfoliosStore', () => {
  it('groups the buildings under their portfolios, by name, and keeps the rest apart', async () => {
    const bridge = testBridge({
      'api:request': async ({ operationId }) =>
        operationId === 'listPortfolios'
          ? ok([portfolio(P2, 'Zuid'), portfolio(P1, 'Noord')])
          : ok([building('b1', P1, 'Tower 10'), building('b2', P1, 'Tower 9'), building('b3', 'elsewhere', 'Shed')]),
    });
    storeContext(bridge.handle);
    const store = usePortfoliosStore();

    await store.load('local');

    expect(store.state).toEqual({ kind: 'loaded' });
    expect(store.groups.map((group) => [group.portfolio.name, group.buildings.map((each) => each.name)])).toEqual([
      ['Noord', ['Tower 9', 'Tower 10']],
      ['Zuid', []],
    ]);
    expect(store.otherBuildings.map((each) => each.name)).toEqual(['Shed']);
    expect(bridge.requestsOf('api:request')).toEqual([
      { connectionId: 'local', operationId: 'listPortfolios' },
      { connectionId: 'local', operationId: 'listBuildings' },
    ]);
  });

  it('shows the problem of a failed list', async () => {
    const bridge = testBridge({
      'api:request': async ({ operationId }) =>
        operationId === 'listPortfolios'
          ? ok([])
          : {
              kind: 'problem',
              status: 403,
              problem: {
                type: 'about:blank',
                title: 'Forbidden',
                status: 403,
                detail: 'This key may not list buildings.',
                instance: '/api/v2.3/buildings',
                errors: [],
                message: 'This key may not list buildings.',
              },
            },
    });
    storeContext(bridge.handle);
    const store = usePortfoliosStore();

    await store.load('c1');

    expect(store.state).toEqual({
      kind: 'failed',
      failure: { kind: 'problem', status: 403, title: 'Forbidden', detail: 'This key may not list buildings.' },
    });
  });

  it('names a network failure, a host failure and an answer that is not a list', async () => {
    const answers: Record<string, () => Promise<ApiAnswer>> = {
      network: async () => ({ kind: 'network', reason: 'unreachable', message: 'Connection refused.' }),
      host: async () => {
        throw new Error('internal detail that must not show');
      },
      shape: async () => ok({ not: 'a list' }),
    };
    let scenario = 'network';
    const bridge = testBridge({ 'api:request': () => answers[scenario]!() });
    storeContext(bridge.handle);
    const store = usePortfoliosStore();

    const failures = [];
    for (scenario of ['network', 'host', 'shape']) {
      await store.load('c1');
      failures.push(store.state.kind === 'failed' ? store.state.failure : store.state);
    }

    expect(failures[0]).toEqual({ kind: 'network', message: 'Connection refused.' });
    expect(failures[1]).toMatchObject({ kind: 'host' });
    expect(JSON.stringify(failures[1])).not.toContain('internal detail');
    expect(failures[2]).toEqual({ kind: 'not-a-list' });
  });

  it('drops a slow answer for a connection the user already left', async () => {
    const slow = deferred<void>();
    const bridge = testBridge({
      'api:request': async (request: ApiRequest) => {
        if (request.connectionId === 'old') await slow.promise;
        return request.operationId === 'listPortfolios' ? ok([portfolio(request.connectionId === 'old' ? P1 : P2, request.connectionId)]) : ok([]);
      },
    });
    storeContext(bridge.handle);
    const store = usePortfoliosStore();

    const first = store.load('old');
    await store.load('new');
    slow.resolve();
    await first;

    expect(store.connectionId).toBe('new');
    expect(store.portfolios.map((each) => each.name)).toEqual(['new']);
    expect(store.state).toEqual({ kind: 'loaded' });
  });

  it('keeps showing the lists while the same connection reloads, and starts empty for another one', async () => {
    const gate = deferred<void>();
    let wait = false;
    const bridge = testBridge({
      'api:request': async (request) => {
        if (wait) await gate.promise;
        return request.operationId === 'listPortfolios' ? ok([portfolio(P1, 'Noord')]) : ok([]);
      },
    });
    storeContext(bridge.handle);
    const store = usePortfoliosStore();
    await store.load('a');

    wait = true;
    const again = store.load('a');
    expect([store.state.kind, store.loadedOnce, store.portfolios.length]).toEqual(['loading', true, 1]);
    const other = store.load('b');
    expect([store.loadedOnce, store.portfolios.length]).toEqual([false, 0]);
    gate.resolve();
    await Promise.all([again, other]);
    expect([store.connectionId, store.loadedOnce]).toEqual(['b', true]);
  });
});
