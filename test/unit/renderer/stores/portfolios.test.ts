// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { editBuilding } from '../../../../renderer/db/edits';
import { useConnectionsStore } from '../../../../renderer/stores/connections';
import { usePortfoliosStore } from '../../../../renderer/stores/portfolios';
import { useSyncStore } from '../../../../renderer/stores/sync';
import { storeContext, testBridge } from '../harness';
import { problem, remoteConnection, startApiServer, type ApiServer } from '../api-server';

let run = 0;
let disposers: Array<() => void> = [];

afterEach(() => {
  for (const dispose of disposers) dispose();
  disposers = [];
});

async function start(server: ApiServer) {
  run += 1;
  const connection = remoteConnection(`portfolios-${run}`);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
  });
  storeContext(bridge.handle);
  await useConnectionsStore().ensureLoaded();
  const store = usePortfoliosStore();
  const sync = useSyncStore();
  disposers.push(() => store.$dispose(), () => sync.$dispose());
  return { store, sync };
}

describe('usePortfoliosStore', () => {
  it('groups the cached buildings under their portfolios, by name, and follows local edits', async () => {
    const server = await startApiServer();
    const zuid = await server.createPortfolio('Zuid');
    const noord = await server.createPortfolio('Noord');
    const tower10 = await server.createBuilding(noord.id, 'Tower 10');
    await server.createBuilding(noord.id, 'Tower 9');
    const { store, sync } = await start(server);

    await vi.waitFor(() => expect(store.state).toEqual({ kind: 'loaded' }));
    expect(store.groups.map((group) => [group.portfolio.id, group.portfolio.name, group.buildings.map((each) => each.name)])).toEqual([
      [noord.id, 'Noord', ['Tower 9', 'Tower 10']],
      [zuid.id, 'Zuid', []],
    ]);
    expect(store.otherBuildings).toEqual([]);

    await editBuilding(sync.db!, tower10.id, { name: 'Annex' });
    await vi.waitFor(() => expect(store.groups[0]!.buildings.map((each) => each.name)).toEqual(['Annex', 'Tower 9']));
  });

  it('keeps the buildings apart whose portfolio the key does not see', async () => {
    const server = await startApiServer();
    const noord = await server.createPortfolio('Noord');
    const shed = await server.createBuilding(noord.id, 'Shed');
    await server.createBuilding(noord.id, 'Tower 9');
    server.apiKey = await server.buildingKey(shed.id);
    const { store } = await start(server);

    await vi.waitFor(() => expect(store.state).toEqual({ kind: 'loaded' }));
    expect(store.groups).toEqual([]);
    expect(store.otherBuildings.map((each) => [each.id, each.name])).toEqual([[shed.id, 'Shed']]);
  });

  it('is loading with the pull’s progress until the first pull of an empty cache ended', async () => {
    const server = await startApiServer();
    await server.createPortfolio('Noord');
    const release = server.hold('listPortfolios');
    const { store } = await start(server);

    await vi.waitFor(() => expect(store.state).toEqual({ kind: 'loading', progress: { phase: 'lists', collection: 'portfolios' } }));
    release();
    await vi.waitFor(() => expect(store.state).toEqual({ kind: 'loaded' }));
  });

  it('is empty when the first pull found nothing, and failed with the issue when the lists could not be read', async () => {
    const empty = await start(await startApiServer());
    await vi.waitFor(() => expect(empty.store.state).toEqual({ kind: 'empty' }));

    const refusing = await startApiServer();
    refusing.overrides.set('listPortfolios', () => problem(400, 'Bad Request', 'Unsupported query.'));
    const failed = await start(refusing);
    await vi.waitFor(() => expect(failed.store.state.kind).toBe('failed'));
    expect(failed.store.state).toMatchObject({ issue: { where: 'listPortfolios', failure: { status: 400 } } });
  });
});
