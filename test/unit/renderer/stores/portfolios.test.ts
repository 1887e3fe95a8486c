// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BuildingResponse, PortfolioResponse } from '../../../../shared/api/schemas';
import { editBuilding } from '../../../../renderer/db/edits';
import { useConnectionsStore } from '../../../../renderer/stores/connections';
import { usePortfoliosStore } from '../../../../renderer/stores/portfolios';
import { useSyncStore } from '../../../../renderer/stores/sync';
import { storeContext, testBridge } from '../harness';
import { problem, remoteConnection, syncServer, type SyncServer } from '../sync-server';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';

function portfolio(id: string, name: string): PortfolioResponse {
  return { id, name, logo: null };
}

function building(id: string, portfolioId: string, name: string): BuildingResponse {
  return { id, portfolioId, name, isDirty: false } as BuildingResponse;
}

let run = 0;
let disposers: Array<() => void> = [];

afterEach(() => {
  for (const dispose of disposers) dispose();
  disposers = [];
});

async function start(server: SyncServer) {
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
  it('groups the cached buildings under their portfolios, by name, keeps the rest apart, and follows local edits', async () => {
    const server = syncServer(
      [portfolio(P2, 'Zuid'), portfolio(P1, 'Noord')],
      [building('b1', P1, 'Tower 10'), building('b2', P1, 'Tower 9'), building('b3', 'elsewhere', 'Shed')],
    );
    const { store, sync } = await start(server);

    await vi.waitFor(() => expect(store.state).toEqual({ kind: 'loaded' }));
    expect(store.groups.map((group) => [group.portfolio.name, group.buildings.map((each) => each.name)])).toEqual([
      ['Noord', ['Tower 9', 'Tower 10']],
      ['Zuid', []],
    ]);
    expect(store.otherBuildings.map((each) => each.name)).toEqual(['Shed']);

    await editBuilding(sync.db!, 'b1', { name: 'Annex' });
    await vi.waitFor(() => expect(store.groups[0]!.buildings.map((each) => each.name)).toEqual(['Annex', 'Tower 9']));
  });

  it('is loading with the pull’s progress until the first pull of an empty cache ended', async () => {
    const server = syncServer([portfolio(P1, 'Noord')]);
    const release = server.hold('listPortfolios');
    const { store } = await start(server);

    await vi.waitFor(() => expect(store.state).toEqual({ kind: 'loading', progress: { phase: 'lists', collection: 'portfolios' } }));
    release();
    await vi.waitFor(() => expect(store.state).toEqual({ kind: 'loaded' }));
  });

  it('is empty when the first pull found nothing, and failed with the issue when the lists could not be read', async () => {
    const empty = await start(syncServer());
    await vi.waitFor(() => expect(empty.store.state).toEqual({ kind: 'empty' }));

    const refusing = syncServer();
    refusing.overrides.set('listPortfolios', () => problem(400, 'Bad Request', 'Unsupported query.'));
    const failed = await start(refusing);
    await vi.waitFor(() => expect(failed.store.state.kind).toBe('failed'));
    expect(failed.store.state).toMatchObject({ issue: { where: 'listPortfolios', failure: { status: 400 } } });
  });
});
