// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { editBuilding, editPortfolio } from '../../../../../renderer/db/edits';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import ActivityPage from '../../../../../renderer/views/activity/ActivityPage.vue';
import { mountedPage, testBridge } from '../../harness';
import { NO_ANSWER, problem, remoteConnection, startApiServer, type ApiServer } from '../../api-server';

const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(ActivityPage))));

let run = 0;
const mounted = mountedPage();

beforeEach(() => {
  run += 1;
});

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

/** Waits for a check against the live page; a real server and live queries answer when a busy machine lets them. */
function settled(check: () => unknown): Promise<unknown> {
  return vi.waitFor(check, { timeout: 10_000, interval: 20 });
}

function byTestId(testId: string): HTMLElement | null {
  return document.querySelector(`[data-testid="${testId}"]`);
}

async function portfolioName(server: ApiServer, id: string): Promise<string> {
  return (await server.request<{ name: string }>('GET', `/portfolios/${id}`)).json.name;
}

/**
 * The page on a connection where the user renamed two portfolios and a building: the server changed the first
 * portfolio's name too (a conflict), refuses the second name (parked with its problem), and does not answer for the
 * building (still pending).
 */
async function pageWithParkedEntries() {
  const server = await startApiServer();
  const { id: P1 } = await server.createPortfolio('Noord');
  const { id: P2 } = await server.createPortfolio('Zuid');
  const { id: B1 } = await server.createBuilding(P1, 'Tower A');
  const connection = remoteConnection(`activity-${run}`, 'Production');
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
    'dropfolders:list': async () => [],
    'passports:targets': async () => [],
    'passports:history': async () => [],
  });
  const router = createAppRouter();
  await router.push('/activity');
  const pinia = createPinia();
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await settled(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));

  await editPortfolio(sync.db!, P1, { name: 'Mine' });
  await editPortfolio(sync.db!, P2, { name: 'Zuid-Oost' });
  await editBuilding(sync.db!, B1, { name: 'Tower B' });
  expect((await server.request('PUT', `/portfolios/${P1}`, { name: 'Theirs' })).status).toBe(200);
  server.overrides.set('replacePortfolio', () => problem(422, 'Unprocessable Entity', 'The name is taken.', [{ path: 'body/name', message: 'must be unique' }]));
  server.overrides.set('getBuilding', () => NO_ANSWER);
  await sync.syncNow();
  await settled(() => expect(wrapper.findAll('[data-testid="parked-entry"]')).toHaveLength(2));
  await settled(() => expect(wrapper.findAll('[data-testid="outbox-entry"]')).toHaveLength(1));
  return { wrapper, sync, server, ids: { P1, P2, B1 } };
}

describe('ActivityPage', { timeout: 30_000 }, () => {
  it('shows the conflict with both values, the refusal with the server’s problem details, and the pending entry', async () => {
    const { wrapper } = await pageWithParkedEntries();

    const [conflict, refused] = wrapper.findAll('[data-testid="parked-entry"]');
    expect(conflict!.attributes('data-conflict')).toBe('true');
    expect(conflict!.text()).toContain('Portfolio Mine');
    expect(conflict!.findAll('[data-testid="conflict-field"] td').map((cell) => cell.text())).toEqual(['name', 'Noord', 'Mine', 'Theirs']);
    expect(conflict!.find('[data-testid="parked-retry"]').exists()).toBe(false);

    expect(refused!.attributes('data-conflict')).toBe('false');
    expect(refused!.findAll('[data-testid="parked-problem"]').map((line) => line.text())).toEqual([
      'Unprocessable Entity (422)',
      'The name is taken.',
      'body/name: must be unique',
    ]);
    expect(refused!.find('[data-testid="conflict-keep-mine"]').exists()).toBe(false);

    const pending = wrapper.get('[data-testid="outbox-entry"]');
    expect(pending.text()).toContain('Tower B');
    expect(pending.text()).toContain('Changed: name');
    expect(pending.text()).toContain('The server cannot be reached right now. Changes wait here and are sent once it can.');
    expect(wrapper.get('[data-testid="activity-pending-count"]').text()).toBe('1');
    // The summary counts both and leads to them.
    const parked = wrapper.get('[data-testid="attention-item"][data-kind="parked"]');
    expect(parked.attributes('data-count')).toBe('2');
    expect(parked.text()).toContain('2 changes were refused by the server or collide with changes made there.');
  });

  it("takes the server's values for a conflict, and sends a refused change again on Retry", async () => {
    const { wrapper, sync, server, ids } = await pageWithParkedEntries();
    const { P1, P2, B1 } = ids;

    await wrapper.get('[data-testid="conflict-take-theirs"]').trigger('click');
    await settled(() => expect(wrapper.findAll('[data-testid="parked-entry"]')).toHaveLength(1));
    expect((await sync.db!.portfolios.get(P1))?.name).toBe('Theirs');
    expect(await portfolioName(server, P1)).toBe('Theirs');

    server.overrides.delete('replacePortfolio');
    await wrapper.get('[data-testid="parked-retry"]').trigger('click');
    await settled(async () => expect(await portfolioName(server, P2)).toBe('Zuid-Oost'));
    await settled(async () => expect((await sync.db!.outbox.toArray()).map((entry) => entry.key)).toEqual([B1]));
    await settled(() =>
      expect([wrapper.findAll('[data-testid="outbox-entry"]').length, wrapper.findAll('[data-testid="parked-entry"]').length]).toEqual([1, 0]),
    );
  });

  it('sends the user’s value over the server’s on Keep mine, and restores the server’s row on a confirmed Discard', async () => {
    const { wrapper, sync, server, ids } = await pageWithParkedEntries();
    const { P1, P2 } = ids;
    server.overrides.delete('replacePortfolio');

    await wrapper.get('[data-testid="conflict-keep-mine"]').trigger('click');
    await settled(async () => expect(await portfolioName(server, P1)).toBe('Mine'));
    await settled(() => expect(wrapper.findAll('[data-testid="parked-entry"]')).toHaveLength(1));

    await wrapper.get('[data-testid="parked-discard"]').trigger('click');
    await flushPromises();
    expect(document.body.textContent).toContain('Your change to Zuid-Oost is dropped');
    byTestId('discard-confirm')!.click();
    await settled(() => expect(wrapper.findAll('[data-testid="parked-entry"]')).toHaveLength(0));
    expect((await sync.db!.portfolios.get(P2))?.name).toBe('Zuid');
    expect(await portfolioName(server, P2)).toBe('Zuid');
    expect(wrapper.get('[data-testid="activity-parked"]').text()).toContain('Nothing needs your attention.');
    expect(wrapper.find('[data-testid="attention-item"][data-kind="parked"]').exists()).toBe(false);
  });

  it('says plainly that the server is out of reach: no error, no operation or id, and no all-clear in green', async () => {
    const server = await startApiServer();
    const { id: P1 } = await server.createPortfolio('Noord');
    const connection = remoteConnection(`activity-${run}`, 'Production');
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
      'api:request': (request) => server.handle(request),
      'dropfolders:list': async () => [],
      'passports:targets': async () => [],
      'passports:history': async () => [],
    });
    const router = createAppRouter();
    await router.push('/activity');
    const pinia = createPinia();
    const wrapper = mount(Page, {
      global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
      attachTo: document.body,
    });
    mounted.keep(wrapper, pinia);
    const sync = useSyncStore(pinia);
    await settled(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));

    await editPortfolio(sync.db!, P1, { name: 'Noord-Oost' });
    for (const operation of ['replacePortfolio', 'getPortfolio', 'listPortfolios', 'listBuildings']) {
      server.overrides.set(operation, () => ({ kind: 'network', reason: 'unreachable', message: `${operation}: the server could not be reached (ECONNREFUSED) ${P1}.` }));
    }
    await sync.syncNow();

    await settled(() => expect(wrapper.get('[data-testid="activity-state"]').attributes('data-state')).toBe('offline'));
    expect(wrapper.get('[data-testid="activity-state"]').text()).toBe('Offline · 1 change waiting');
    const lastError = wrapper.get('[data-testid="activity-last-error"]');
    expect(lastError.attributes('data-unreachable')).toBe('true');
    const summary = wrapper.get('[data-testid="attention-all-well"]');
    expect(summary.attributes('data-offline')).toBe('true');
    expect(summary.text()).toContain('The server cannot be reached right now');
    const text = wrapper.text();
    for (const internal of ['replacePortfolio', 'getPortfolio', 'listPortfolios', 'listBuildings', 'ECONNREFUSED', P1, 'All is well']) {
      expect(text).not.toContain(internal);
    }
    expect(wrapper.get('[data-testid="activity-sync-error"]').text()).toContain('Info');
  });
});
