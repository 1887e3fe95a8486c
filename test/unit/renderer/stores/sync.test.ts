// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { DropFolderFile } from '../../../../shared/dropfolders';
import type { Connection } from '../../../../shared/ipc';
import { editPortfolio } from '../../../../renderer/db/edits';
import { useConnectionsStore } from '../../../../renderer/stores/connections';
import { useSyncStore } from '../../../../renderer/stores/sync';
import { storeContext, testBridge } from '../harness';
import { NO_ANSWER, problem, remoteConnection, startApiServer, type ApiServer } from '../api-server';

// Each test has its own connections, so its own cache databases in the shared fake IndexedDB.
let run = 0;
let stores: Array<ReturnType<typeof useSyncStore>> = [];

afterEach(() => {
  for (const store of stores) store.$dispose();
  stores = [];
});

async function start(servers: Record<string, ApiServer>, activeId?: string, kind: Connection['kind'] = 'remote') {
  run += 1;
  const connections: Connection[] = Object.keys(servers).map((id) => ({ ...remoteConnection(`${id}-${run}`, id), kind }));
  const bridge = testBridge({
    'connections:list': async () => ({ connections, activeId: `${activeId ?? Object.keys(servers)[0]}-${run}` }),
    'api:request': (request) => servers[request.connectionId.replace(/-\d+$/, '')]!.handle(request),
  });
  storeContext(bridge.handle);
  await useConnectionsStore().ensureLoaded();
  const sync = useSyncStore();
  stores.push(sync);
  return { sync, bridge, connections };
}

describe('useSyncStore', () => {
  it('opens the cache of the active connection and runs a first cycle that pulls it', async () => {
    const server = await startApiServer();
    const noord = await server.createPortfolio('Noord');
    const { sync } = await start({ a: server });

    expect(sync.db?.name).toBe(`circularity-desk:a-${run}`);
    await vi.waitFor(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
    expect(await sync.db!.portfolios.toArray()).toEqual([noord]);
    expect(server.calls.slice(0, 2)).toEqual(['listBuildings', 'listPortfolios']);
    expect(sync.status).toBe('synced');
    expect(sync.lastSyncAt).not.toBeNull();
  });

  it('counts pending and parked entries as the outbox changes, and settles a parked one through the db layer', async () => {
    const server = await startApiServer();
    const { id: P1 } = await server.createPortfolio('Noord');
    const { sync } = await start({ a: server });
    await vi.waitFor(() => expect(sync.lastCycle).not.toBeNull());
    expect([sync.pendingCount, sync.parkedCount]).toEqual([0, 0]);

    await editPortfolio(sync.db!, P1, { name: 'Noord-Oost' });
    await vi.waitFor(() => expect(sync.pendingCount).toBe(1));
    expect(sync.parkedCount).toBe(0);

    // The server refuses the change: the push parks it with the problem, and the cycle goes on.
    server.overrides.set('replacePortfolio', () => problem(422, 'Unprocessable Entity', 'The name is taken.'));
    await sync.syncNow();
    await vi.waitFor(() => expect([sync.pendingCount, sync.parkedCount]).toEqual([0, 1]));
    expect(sync.status).toBe('attention');
    expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' });

    const [parked] = await sync.db!.outbox.toArray();
    await sync.settleParked(parked!.seq, 'discard');
    await vi.waitFor(() => expect([sync.pendingCount, sync.parkedCount]).toEqual([0, 0]));
    expect((await sync.db!.portfolios.get(P1))?.name).toBe('Noord');
    expect((await server.request<{ name: string }>('GET', `/portfolios/${P1}`)).json.name).toBe('Noord');
    await vi.waitFor(() => expect(sync.status).toBe('synced'));
  });

  it('lists the entries with their rows’ names only while a screen watches them', async () => {
    const server = await startApiServer();
    const { id: P1 } = await server.createPortfolio('Noord');
    const { sync } = await start({ a: server });
    await vi.waitFor(() => expect(sync.lastCycle).not.toBeNull());
    await editPortfolio(sync.db!, P1, { name: 'Noord-Oost' });

    const release = sync.watchEntries();
    await vi.waitFor(() => expect(sync.pendingItems.map((item) => [item.entry.entity, item.label, item.entry.fields])).toEqual([['portfolios', 'Noord-Oost', { name: 'Noord-Oost' }]]));
    release();
    expect(sync.pendingItems).toEqual([]);
    expect(sync.pendingCount).toBe(1);
  });

  it("shows a long pull's progress while it runs, and when it ended", async () => {
    const server = await startApiServer();
    await server.createPortfolio('Noord');
    const release = server.hold('listMaterials');
    const { sync } = await start({ a: server });

    await vi.waitFor(() => expect(sync.progress).toEqual({ phase: 'lists', collection: 'materials' }));
    expect([sync.status, sync.phase, sync.running]).toEqual(['syncing', 'pull', true]);
    expect(sync.lastSyncAt).toBeNull();

    release();
    await vi.waitFor(() => expect(sync.status).toBe('synced'));
    expect([sync.progress, sync.phase]).toEqual([null, null]);
    expect(sync.lastSyncAt).not.toBeNull();
  });

  it('reports a failed cycle with its problem, and a later good one clears it', async () => {
    const server = await startApiServer();
    server.overrides.set('listBuildings', () => problem(503, 'Service Unavailable', 'Down for maintenance.'));
    const { sync } = await start({ a: server });

    await vi.waitFor(() => expect(sync.status).toBe('error'));
    expect(sync.lastError).toMatchObject({ where: 'listBuildings', failure: { kind: 'problem', status: 503 } });
    expect(sync.lastCycle?.outcome).toMatchObject({ kind: 'failed', retryable: true });

    server.overrides.delete('listBuildings');
    await sync.syncNow();
    expect(sync.status).toBe('synced');
    await vi.waitFor(() => expect(sync.lastError).toBeNull());
  });

  it('is offline when the window says so, and syncs when the network is back', async () => {
    const server = await startApiServer();
    const { sync } = await start({ a: server });
    await vi.waitFor(() => expect(sync.status).toBe('synced'));

    server.overrides.set('listBuildings', () => NO_ANSWER);
    window.dispatchEvent(new Event('offline'));
    expect(sync.status).toBe('offline');
    expect(sync.online).toBe(false);

    server.overrides.delete('listBuildings');
    const calls = server.calls.length;
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(sync.status).toBe('synced'));
    expect(server.calls.length).toBeGreaterThan(calls);
  });

  it('syncs at once when a drop folder’s file reaches the server or changes status there, so its building shows it', async () => {
    const server = await startApiServer();
    const { id: portfolioId } = await server.createPortfolio('Noord');
    const { id: buildingId } = await server.createBuilding(portfolioId, 'Tower A');
    const { sync, bridge } = await start({ a: server });
    await vi.waitFor(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
    const cycles = (): number => server.calls.filter((call) => call === 'listBuildings').length;
    const before = cycles();
    const dropped = (state: DropFolderFile['state'], fileId: string | null, remoteStatus: number | null): DropFolderFile => ({
      mappingId: 'm1',
      path: 'tower.ifc',
      kind: 'source',
      state,
      size: 10,
      mtimeMs: 1,
      sha256: 'abc',
      buildingId,
      fileId,
      attempts: 1,
      lastError: null,
      remoteStatus,
      remoteMessage: null,
      progress: null,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });

    bridge.emit('dropfolders:changed', { kind: 'file', file: dropped('uploading', null, null), detail: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cycles()).toBe(before);

    const { id: fileId } = (await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0 })).json;
    bridge.emit('dropfolders:changed', { kind: 'file', file: dropped('processing', fileId, 1), detail: null });
    await vi.waitFor(async () => expect((await sync.db!.files.get(fileId))?.buildingId).toBe(buildingId));
    expect(cycles()).toBe(before + 1);

    bridge.emit('dropfolders:changed', { kind: 'file', file: dropped('mapped', fileId, 3), detail: null });
    await vi.waitFor(() => expect(cycles()).toBe(before + 2));
  });

  it('keeps the Local workspace, whose server runs on this machine, online when the network goes', async () => {
    const server = await startApiServer();
    const { sync } = await start({ local: server }, undefined, 'local');
    await vi.waitFor(() => expect(sync.status).toBe('synced'));

    window.dispatchEvent(new Event('offline'));
    expect([sync.status, sync.online]).toEqual(['synced', true]);
    window.dispatchEvent(new Event('online'));
  });

  it('stops with the old connection and opens the new one when the active connection changes', async () => {
    const a = await startApiServer();
    const b = await startApiServer();
    const { id: P1 } = await a.createPortfolio('On A');
    const { sync, bridge, connections } = await start({ a, b });
    await vi.waitFor(() => expect(sync.lastCycle).not.toBeNull());
    await editPortfolio(sync.db!, P1, { name: 'Changed on A' });
    await vi.waitFor(() => expect(sync.pendingCount).toBe(1));
    const oldDb = sync.db!;

    bridge.emit('connections:changed', { connections, activeId: connections[1]!.id });
    await nextTick();

    expect(sync.connectionId).toBe(connections[1]!.id);
    expect(sync.db?.name).toBe(`circularity-desk:${connections[1]!.id}`);
    expect([sync.pendingCount, sync.lastCycle]).toEqual([0, null]);
    await vi.waitFor(() => expect(oldDb.isOpen()).toBe(false));
    await vi.waitFor(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
    expect(b.calls).toContain('listPortfolios');
    expect(a.calls).not.toContain('replacePortfolio');
    expect((await a.request<{ name: string }>('GET', `/portfolios/${P1}`)).json.name).toBe('On A');

    bridge.emit('connections:changed', { connections, activeId: null });
    await nextTick();
    expect([sync.connectionId, sync.db]).toEqual([null, null]);
  });
});
