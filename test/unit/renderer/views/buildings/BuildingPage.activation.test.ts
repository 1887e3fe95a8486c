// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { BuildingCircularInformation, BuildingResponse } from '../../../../../shared/api/schemas';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { BUILDING_TIMING_KEY, type BuildingTiming } from '../../../../../renderer/stores/buildings';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import BuildingPage from '../../../../../renderer/views/buildings/BuildingPage.vue';
import { smallIfc } from '../../../../fixtures/small-ifc';
import { mountedPage, testBridge } from '../../harness';
import { remoteConnection, startApiServer, type ApiServer } from '../../api-server';
import { byTestId, eventually } from '../../dom';

const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(BuildingPage))));

/** The recalculation followed every 20 ms, for as long as the server's worker may take here. */
const timing: BuildingTiming = {
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    }),
  statusPollMs: 20,
  recalculationPollMs: 20,
  recalculationPolls: 1_000,
};

const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

function walls(): Buffer {
  return Buffer.from(
    smallIfc([
      { entity: 'IFCWALL', name: 'Wall 1', material: 'Beton', body: 'box', size: [4, 0.3, 3], isExternal: true },
      { entity: 'IFCWALL', name: 'Wall 2', material: 'Beton', body: 'box', size: [5, 0.2, 3], isExternal: true },
    ]),
    'latin1',
  );
}

/** A building on a real server (with its worker) whose one source file is mapped and not active yet. */
async function buildingWithInactiveFile(): Promise<{ server: ApiServer; buildingId: string; fileId: string }> {
  const server = await startApiServer({ worker: true });
  const { id: portfolioId } = await server.createPortfolio('Woningcorporatie');
  const { id: buildingId } = await server.createBuilding(portfolioId, 'School', { grossSurfaceArea: 500 });
  const fileId = (await server.request<{ id: string }>('POST', `/buildings/${buildingId}/files`, { type: 0 })).json.id;
  await server.uploadSource(buildingId, fileId, 'school.ifc', walls());
  return { server, buildingId, fileId };
}

async function serverState(server: ApiServer, buildingId: string): Promise<{ isDirty: boolean; score: number | null }> {
  const building = (await server.request<BuildingResponse>('GET', `/buildings/${buildingId}`)).json;
  const circular = (await server.request<BuildingCircularInformation>('GET', `/buildings/${buildingId}/circular`)).json;
  return { isDirty: building.isDirty, score: circular.madasterCiScore ?? null };
}

function activate(fileId: string): void {
  const button = document.querySelector<HTMLElement>(`[data-testid="file-row"][data-file-id="${fileId}"] [data-testid="activate-file"]`);
  if (button === null) throw new Error(`No activate-file in the row of ${fileId}.`);
  button.click();
}

function score(): string | undefined {
  return byTestId('ci-gauge')?.getAttribute('data-ci-score') ?? undefined;
}

describe('activating a file', { timeout: 60_000 }, () => {
  it('follows the recalculation it starts: the score shows the moment it ends, and the banner ends with it', async () => {
    const { server, buildingId, fileId } = await buildingWithInactiveFile();
    const connection = remoteConnection('activation');
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
      'api:request': (request) => server.handle(request),
    });
    const router = createAppRouter();
    await router.push(`/buildings/${buildingId}`);
    const pinia = createPinia();
    const wrapper = mount(Page, {
      global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle, [BUILDING_TIMING_KEY]: timing } },
      attachTo: document.body,
    });
    mounted.keep(wrapper, pinia);
    const sync = useSyncStore(pinia);
    await eventually(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
    await eventually(() => expect(byTestId('ci-card')).not.toBeNull());
    expect(score()).toBe('');

    // The server's recalculation outlasts the sync the activation starts: the building reads dirty until the test ends it.
    const building = (await server.request<BuildingResponse>('GET', `/buildings/${buildingId}`)).json;
    const dirty = { ...building, isDirty: true };
    server.overrides.set('getBuilding', () => ({ kind: 'ok', status: 200, value: dirty, location: null }));
    server.overrides.set('listBuildings', () => ({ kind: 'ok', status: 200, value: [dirty], location: null }));
    activate(fileId);
    await eventually(() => expect(byTestId('building-recalculating')).not.toBeNull());
    const final = await eventually(async () => {
      const state = await serverState(server, buildingId);
      expect(state.isDirty).toBe(false);
      expect(state.score).not.toBeNull();
      return state;
    });
    await eventually(() => expect(sync.running).toBe(false));
    expect(score()).toBe('');

    // The recalculation ends: the score follows at once, without waiting for the next sync, and the banner ends with it.
    server.overrides.delete('getBuilding');
    server.overrides.delete('listBuildings');
    await eventually(() => expect(score()).toBe(String(final.score)));
    await eventually(() => expect(byTestId('building-recalculating')).toBeNull());
    expect(byTestId('building-recalculated')).not.toBeNull();
    expect(server.calls).toContain('getBuilding');
  });
});
