import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchBridgeCall, type BridgeHandlers } from '../../../../electron/bridge-dispatch';
import { runApiCall } from '../../../../electron/http/api-request';
import { createQueuedClient } from '../../../../electron/http/queued-client';
import type { OperationId } from '../../../../shared/api/routes';
import { callApi } from '../../../../renderer/api/call-api';
import { classifyFailure, failureMessage } from '../../../../renderer/api/failure';
import { ApiPortError, bridgeApiPort } from '../../../../renderer/api/port';
import { BridgeError, createBridge, type Bridge } from '../../../../shared/ipc';
import { KEY, startSyncServer, type SyncServer } from './harness';

let server: SyncServer;
let bridge: Bridge;
beforeAll(async () => {
  server = await startSyncServer();
  const clients = {
    good: createQueuedClient({ baseUrl: server.url, apiVersion: 'v2.3', apiKey: async () => KEY }),
    'wrong-key': createQueuedClient({ baseUrl: server.url, apiVersion: 'v2.3', apiKey: async () => 'not-the-key-0123456789' }),
  };
  // The host's side of `api:request` as both hosts run it: the contract's checks, then the connection's queued client.
  const handlers = {
    'api:request': async ({ connectionId, ...call }) => {
      const client = clients[connectionId as keyof typeof clients] as (typeof clients)['good'] | undefined;
      if (client === undefined) throw new BridgeError('not-found', `There is no connection ${connectionId}.`);
      return runApiCall(client, 'v2.3', call);
    },
  } as Partial<BridgeHandlers> as BridgeHandlers;
  bridge = createBridge({
    invoke: (channel, request) => dispatchBridgeCall(handlers, channel, request, () => undefined),
    subscribe: () => () => undefined,
  });
});
afterAll(async () => {
  await server.close();
});

describe('bridgeApiPort', () => {
  it("runs a call through the Bridge for its connection and answers the server's answer", async () => {
    const created = await server.request<{ id: string }>('POST', '/portfolios', { name: 'Through the bridge' });
    const answer = await bridgeApiPort(bridge, 'good')({ operationId: 'getPortfolio', params: { id: created.json.id } });
    expect(answer).toMatchObject({ kind: 'ok', status: 200, value: { id: created.json.id, name: 'Through the bridge' } });
  });

  it('throws an ApiPortError with the code of a call the host refused', async () => {
    const refused = bridgeApiPort(bridge, 'good')({ operationId: 'noSuchOperation' });
    await expect(refused).rejects.toBeInstanceOf(ApiPortError);
    await expect(refused).rejects.toMatchObject({ code: 'invalid-request' });
    await expect(bridgeApiPort(bridge, 'gone')({ operationId: 'listPortfolios' })).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('callApi and classifyFailure', () => {
  it('sorts what a call got into what the engine does about it', async () => {
    const good = bridgeApiPort(bridge, 'good');
    const missing = await callApi(good, 'getPortfolio', { params: { id: '00000000-0000-4000-8000-000000000000' } });
    expect(missing).toMatchObject({ ok: false, failure: { kind: 'problem', status: 404 } });
    if (missing.ok) throw new Error('found');
    expect(classifyFailure(missing.failure)).toBe('rejected');
    expect(failureMessage(missing.failure)).toMatch(/^404 /);

    const unauthorised = await callApi(bridgeApiPort(bridge, 'wrong-key'), 'listPortfolios');
    expect(unauthorised.ok ? undefined : classifyFailure(unauthorised.failure)).toBe('auth');

    // A host whose route table lacks an operation refuses it.
    const refused = await callApi(good, 'noSuchOperation' as OperationId);
    expect(refused).toMatchObject({ ok: false, failure: { kind: 'host', code: 'invalid-request' } });
    expect(refused.ok ? undefined : classifyFailure(refused.failure)).toBe('host');

    const unavailable = await callApi(
      bridgeApiPort({ api: { request: async () => ({ ok: false, error: { code: 'unavailable', message: 'The host is gone.' } }) } }, 'good'),
      'listPortfolios',
    );
    expect(unavailable.ok ? undefined : classifyFailure(unavailable.failure)).toBe('transient');

    const closed = createQueuedClient({ baseUrl: 'http://127.0.0.1:9', apiVersion: 'v2.3', apiKey: async () => KEY, retry: { attempts: 1 } });
    const unreachable = await callApi((call) => runApiCall(closed, 'v2.3', call), 'listPortfolios');
    expect(unreachable).toMatchObject({ ok: false, failure: { kind: 'network', reason: 'unreachable' } });
    expect(unreachable.ok ? undefined : classifyFailure(unreachable.failure)).toBe('transient');
  });

  it('lets errors that are not failures of the call through', async () => {
    await expect(callApi(async () => Promise.reject(new RangeError('a bug')), 'listPortfolios')).rejects.toThrow(RangeError);
  });
});
