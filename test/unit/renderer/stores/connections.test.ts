import { describe, expect, it } from 'vitest';
import { BridgeError, type Connection, type ConnectionList } from '../../../../shared/ipc';
import { useConnectionsStore } from '../../../../renderer/stores/connections';
import { deferred, storeContext, testBridge } from '../harness';

const local: Connection = {
  id: 'local',
  name: 'Local workspace',
  baseUrl: 'http://127.0.0.1:4100',
  apiVersion: 'v2.3',
  kind: 'local',
  hasKey: true,
};
const remote: Connection = {
  id: 'c1',
  name: 'Production',
  baseUrl: 'https://api.example.com',
  apiVersion: 'v2.1',
  kind: 'remote',
  hasKey: false,
};

describe('useConnectionsStore', () => {
  it('reads the list once for concurrent first callers, and follows the host events afterwards', async () => {
    const answer = deferred<ConnectionList>();
    const bridge = testBridge({ 'connections:list': () => answer.promise });
    storeContext(bridge.handle);
    const store = useConnectionsStore();

    const both = Promise.all([store.ensureLoaded(), store.ensureLoaded()]);
    expect(store.loadState).toBe('loading');
    answer.resolve({ connections: [local], activeId: 'local' });
    await both;

    expect(bridge.requestsOf('connections:list')).toHaveLength(1);
    expect(store.active).toEqual(local);
    bridge.emit('connections:changed', { connections: [local, remote], activeId: 'c1' });
    expect(store.connections.map((connection) => connection.id)).toEqual(['local', 'c1']);
    expect(store.active).toEqual(remote);
    await store.ensureLoaded();
    expect(bridge.requestsOf('connections:list')).toHaveLength(1);
  });

  it('keeps the newer event over an older list answer that arrives after it', async () => {
    const answer = deferred<ConnectionList>();
    const bridge = testBridge({ 'connections:list': () => answer.promise });
    storeContext(bridge.handle);
    const store = useConnectionsStore();

    const loading = store.refresh();
    bridge.emit('connections:changed', { connections: [local, remote], activeId: 'c1' });
    answer.resolve({ connections: [local], activeId: 'local' });
    await loading;

    expect(store.activeId).toBe('c1');
    expect(store.connections).toHaveLength(2);
  });

  it('reports a failed first read, and reads again on the next ensureLoaded', async () => {
    let fail = true;
    const bridge = testBridge({
      'connections:list': async () => {
        if (fail) throw new BridgeError('unavailable', 'The app is not reachable.');
        return { connections: [local], activeId: 'local' };
      },
    });
    storeContext(bridge.handle);
    const store = useConnectionsStore();

    await store.ensureLoaded();
    expect(store.loadState).toBe('failed');
    expect(store.loadError).toEqual({ code: 'unavailable', message: 'The app is not reachable.' });

    fail = false;
    await store.ensureLoaded();
    expect(store.loadState).toBe('loaded');
    expect(store.loadError).toBeNull();
  });

  it('adds a connection and reads the list again', async () => {
    const connections = [local];
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [...connections], activeId: 'local' }),
      'connections:add': async (draft) => {
        const added: Connection = { ...draft, id: 'c1', kind: 'remote', hasKey: false };
        connections.push(added);
        return added;
      },
    });
    storeContext(bridge.handle);
    const store = useConnectionsStore();

    const result = await store.add({ name: 'Production', baseUrl: 'https://api.example.com', apiVersion: 'v2.1' });

    expect(result).toEqual({ ok: true, value: remote });
    expect(store.connections).toEqual([local, remote]);
  });

  it('asks the vault for insecure storage only with the consent flag, in a request the contract accepts', async () => {
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [local, remote], activeId: 'local' }),
      'vault:set-key': async (request) => {
        if (request.allowInsecureStorage !== true) throw new BridgeError('insecure-storage', 'No keyring.');
        return null;
      },
    });
    storeContext(bridge.handle);
    const store = useConnectionsStore();

    const refused = await store.setKey('c1', 'secret-key');
    const stored = await store.setKey('c1', 'secret-key', true);

    expect(refused).toEqual({ ok: false, error: { code: 'insecure-storage', message: 'No keyring.' } });
    expect(stored).toEqual({ ok: true, value: null });
    expect(bridge.requestsOf('vault:set-key')).toEqual([
      { connectionId: 'c1', key: 'secret-key' },
      { connectionId: 'c1', key: 'secret-key', allowInsecureStorage: true },
    ]);
  });

  it('keeps what the last test of each connection found', async () => {
    const answer = deferred<void>();
    const bridge = testBridge({
      'connections:test': async ({ connectionId }) => {
        await answer.promise;
        return connectionId === 'local'
          ? { kind: 'ok', accountName: 'Local account', accountType: 3 }
          : { kind: 'problem', status: 401, title: 'Unauthorized', detail: 'The API key is not valid.' };
      },
    });
    storeContext(bridge.handle);
    const store = useConnectionsStore();

    const tests = Promise.all([store.test('local'), store.test('c1')]);
    expect(store.tests['local']).toEqual({ kind: 'running' });
    answer.resolve();
    await tests;

    expect(store.tests['local']).toEqual({ kind: 'done', result: { kind: 'ok', accountName: 'Local account', accountType: 3 } });
    expect(store.tests['c1']).toMatchObject({ kind: 'done', result: { kind: 'problem', status: 401 } });
  });

  it('keeps the HTTP activity per connection and shows the active one', async () => {
    const bridge = testBridge({ 'connections:list': async () => ({ connections: [local, remote], activeId: 'c1' }) });
    storeContext(bridge.handle);
    const store = useConnectionsStore();
    await store.ensureLoaded();

    bridge.emit('http:activity', { connectionId: 'local', queued: 4, running: 2 });
    expect(store.activeActivity).toBeUndefined();
    bridge.emit('http:activity', { connectionId: 'c1', queued: 0, running: 1 });
    expect(store.activeActivity).toEqual({ connectionId: 'c1', queued: 0, running: 1 });
  });
});
