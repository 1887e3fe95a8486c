// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { BuildingFileStatuses } from '../../../../../shared/api/enums';
import type { BuildingResponse } from '../../../../../shared/api/schemas';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { BUILDING_TIMING_KEY, type BuildingTiming } from '../../../../../renderer/stores/buildings';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import BuildingPage from '../../../../../renderer/views/buildings/BuildingPage.vue';
import { mountedPage, testBridge, type TestBridge } from '../../harness';
import { problem, remoteConnection, startApiServer } from '../../api-server';
import { all, byTestId, choose, click, eventually, text, type } from '../../dom';

const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(BuildingPage))));

const fastTiming: BuildingTiming = {
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, 5);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    }),
  statusPollMs: 5,
  recalculationPollMs: 5,
  recalculationPolls: 3,
};

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

/** The page of a building on a real server, once the first sync has brought the building and its figures. */
async function serverPage() {
  run += 1;
  const server = await startApiServer();
  const { id: portfolioId } = await server.createPortfolio('Woningcorporatie');
  const created = await server.createBuilding(portfolioId, 'Tower A', { grossSurfaceArea: 1000 });
  const connection = remoteConnection(`building-server-${run}`);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
  });
  const router = createAppRouter();
  await router.push(`/buildings/${created.id}`);
  const pinia = createPinia();
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle, [BUILDING_TIMING_KEY]: fastTiming } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await eventually(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
  await eventually(() => expect(byTestId('ci-card')).not.toBeNull());
  return { server, bridge, sync, building: created };
}

function requests(bridge: TestBridge, operationId: string) {
  return bridge.requestsOf('api:request').filter((request) => request.operationId === operationId);
}

function messages(): string {
  return document.querySelector('.n-message-container')?.textContent ?? '';
}

describe('the building dashboard on a server', { timeout: 30_000 }, () => {
  it('recalculates: asks the server, follows the building until it is done, and fetches its new figures', async () => {
    const { server, bridge, building } = await serverPage();
    const clean = (await server.request<BuildingResponse>('GET', `/buildings/${building.id}`)).json;
    server.overrides.set('getBuilding', () => ({ kind: 'ok', status: 200, value: { ...clean, isDirty: false }, location: null }));
    const before = server.calls.length;
    click('building-recalculate');
    await eventually(() => expect(byTestId('building-recalculated')).not.toBeNull());
    expect(messages()).toContain('Recalculation requested.');
    const after = server.calls.slice(before);
    expect(after.slice(0, 2)).toEqual(['processBuilding', 'getBuilding']);
    expect(after).toEqual(expect.arrayContaining(['getBuildingCircular', 'getBuildingFinancial', 'getBuildingValidation']));
    expect(requests(bridge, 'processBuilding')[0]?.params).toEqual({ id: building.id });
  });

  it('says when a recalculation outlasts the following, and that the next sync brings the figures', async () => {
    const { server } = await serverPage();
    // Without the worker the server never finishes: the building stays dirty.
    click('building-recalculate');
    await eventually(() => expect(byTestId('building-recalculate-unfinished')).not.toBeNull());
    expect(server.calls.filter((call) => call === 'getBuilding')).toHaveLength(3);
    expect(text('building-recalculate-unfinished')).toContain('The next sync brings the new figures.');
  });

  it('requests a passport in the chosen language, which then shows among the passports while it is made', async () => {
    const { bridge } = await serverPage();
    click('building-passport');
    await eventually(() => expect(byTestId('passport-language')).not.toBeNull());
    await choose(byTestId('passport-language'), 'Deutsch');
    click('passport-pdf');
    await eventually(() => expect(messages()).toContain('Passport requested: it appears among the passports when ready.'));
    expect(requests(bridge, 'exportBuildingPassport')[0]?.headers).toEqual({ 'accept-language': 'de' });
    const passport = await eventually(() => {
      const row = all('building-passport-file')[0];
      expect(row).toBeDefined();
      return row!;
    });
    expect(passport.textContent).toContain('PDF passport');
    expect(passport.dataset['fileStatus']).toBe(String(BuildingFileStatuses.Creating));
    expect(passport.dataset['busy']).toBe('true');
    expect(all('file-row')).toEqual([]);
    await eventually(() => expect(requests(bridge, 'getBuildingFileStatus').length).toBeGreaterThan(0));
  });

  it('computes the financial figures with other rates, online, refusing impossible ones, and goes back to the cached ones', async () => {
    const { bridge } = await serverPage();
    const compute = (): HTMLButtonElement => byTestId('financial-compute') as HTMLButtonElement;
    expect(compute().disabled).toBe(true);
    await type('financial-rate-inflation', '-150');
    expect(byTestId('financial-card')?.textContent).toContain('Must be above -100 % and at most 100 %.');
    expect(compute().disabled).toBe(true);
    await type('financial-rate-inflation', '5');
    await type('financial-rate-discountRate', '1.5');
    expect(compute().disabled).toBe(false);
    compute().click();
    await eventually(() => expect(byTestId('financial-source')?.dataset['source']).toBe('computed'));
    const asked = requests(bridge, 'getBuildingFinancial').at(-1);
    expect(asked?.query).toEqual({ inflation: 0.05, discountRate: 0.015 });
    expect(text('financial-current')).toBe('€0');
    click('financial-reset');
    await eventually(() => expect(byTestId('financial-source')?.dataset['source']).toBe('cache'));
  });

  it('says when the key of the connection may not manage the building’s users', async () => {
    const { server } = await serverPage();
    server.overrides.set('listBuildingUsers', () => problem(403, 'Forbidden', 'Managing users needs the Administrator level.'));
    click('building-tab-access');
    await eventually(() => expect(byTestId('access-refusal')).not.toBeNull());
    expect(byTestId('access-panel')?.dataset['subject']).toBe('building');
    expect(text('access-refusal')).toContain('The key of this connection may not do this (403).');
    expect(text('access-refusal')).toContain('Managing users needs the Administrator level.');
  });
});
