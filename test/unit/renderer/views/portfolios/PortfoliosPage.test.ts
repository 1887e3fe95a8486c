// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import type { Connection } from '../../../../../shared/ipc';
import { APP_READY_ATTRIBUTE } from '../../../../../renderer/app-ready';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import PortfoliosPage from '../../../../../renderer/views/portfolios/PortfoliosPage.vue';
import { testBridge } from '../../harness';
import { NO_ANSWER, problem, startApiServer, type ApiServer } from '../../api-server';

const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(PortfoliosPage))));

/** A server with a portfolio of two buildings, one of them with changes not yet calculated. */
async function serverWithBuildings(): Promise<ApiServer> {
  const server = await startApiServer();
  const { id: portfolioId } = await server.createPortfolio('Woningcorporatie');
  const tower = await server.createBuilding(portfolioId, 'Tower A', {
    addressStreet: 'Keizersgracht',
    addressHousenumber: '12',
    addressZipcode: '1015 CS',
    addressCity: 'Amsterdam',
    grossSurfaceArea: 12345.6,
  });
  await server.addElement(tower.id);
  await server.createBuilding(portfolioId, 'School');
  return server;
}

let root: HTMLElement;
let run = 0;
let mounted: Array<{ wrapper: VueWrapper; pinia: Pinia }> = [];

beforeEach(() => {
  run += 1;
  root = document.createElement('div');
  root.id = 'app';
  document.body.append(root);
});

afterEach(() => {
  for (const { wrapper, pinia } of mounted) {
    wrapper.unmount();
    useSyncStore(pinia).$dispose();
  }
  mounted = [];
  root.remove();
});

function local(): Connection {
  return { id: `local-${run}`, name: 'Local workspace', baseUrl: 'http://127.0.0.1:4100', apiVersion: 'v2.3', kind: 'local', hasKey: true };
}

async function mountPage(servers: Record<string, ApiServer>, connections: Connection[] = [local()]) {
  const bridge = testBridge({
    'connections:list': async () => ({ connections, activeId: connections[0]!.id }),
    'api:request': (request) => servers[request.connectionId]!.handle(request),
  });
  const router = createAppRouter();
  await router.push('/portfolios');
  const pinia = createPinia();
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('nl'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: root,
  });
  mounted.push({ wrapper, pinia });
  return { wrapper, bridge };
}

describe('PortfoliosPage', () => {
  it('shows the first pull’s progress on an empty cache, marks the app ready once the lists arrived, and shows them', async () => {
    const server = await serverWithBuildings();
    const releaseBuildings = server.hold('listBuildings');
    const releasePortfolios = server.hold('listPortfolios');
    const { wrapper } = await mountPage({ [local().id]: server });

    await vi.waitFor(() => expect(wrapper.find('[data-testid="portfolios-progress"]').text()).toBe('De lijsten worden gelezen…'));
    expect(root.hasAttribute(APP_READY_ATTRIBUTE)).toBe(false);
    // The buildings are in, their portfolios not yet: still loading, rather than all buildings outside portfolios.
    releaseBuildings();
    await vi.waitFor(() => expect(server.calls).toContain('listPortfolios'));
    await flushPromises();
    expect(wrapper.find('[data-testid="portfolios-progress"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="building-row"]').exists()).toBe(false);

    releasePortfolios();
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="portfolio-card"]')).toHaveLength(1));
    await flushPromises();

    expect(root.getAttribute(APP_READY_ATTRIBUTE)).toBe('true');
    const card = wrapper.get('[data-testid="portfolio-card"]');
    expect(card.get('[data-testid="portfolio-name"]').text()).toBe('Woningcorporatie');
    expect(card.text()).toContain('2 gebouwen');
    const rows = wrapper.findAll('[data-testid="building-row"]');
    expect(rows.map((row) => row.find('td').text())).toEqual(['School', 'Tower A']);
    expect(rows[1]!.text()).toContain('Keizersgracht 12, 1015 CS Amsterdam');
    expect(rows[1]!.text()).toContain('12.345,6 m²');
    expect(rows[1]!.text()).toContain('Wijzigingen nog niet berekend');

    expect(wrapper.find('[data-testid="building-details"]').exists()).toBe(false);
    await rows[1]!.trigger('click');
    expect(wrapper.find('[data-testid="building-details"]').exists()).toBe(true);
  });

  it('marks the app ready after a failed first pull too, shows the problem, and retries', async () => {
    const server = await startApiServer();
    server.overrides.set('listBuildings', () => problem(503, 'Service Unavailable', 'The database is being migrated.'));
    const { wrapper } = await mountPage({ [local().id]: server });

    await vi.waitFor(() => expect(wrapper.find('[data-testid="portfolios-error"]').exists()).toBe(true));
    await flushPromises();
    expect(root.getAttribute(APP_READY_ATTRIBUTE)).toBe('true');
    const error = wrapper.get('[data-testid="portfolios-error"]');
    expect(error.text()).toContain('Service Unavailable (503)');
    expect(error.text()).toContain('The database is being migrated.');

    server.overrides.delete('listBuildings');
    await wrapper.get('[data-testid="portfolios-retry"]').trigger('click');

    await vi.waitFor(() => expect(wrapper.find('[data-testid="portfolios-empty"]').exists()).toBe(true));
    expect(wrapper.find('[data-testid="portfolios-error"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="portfolios-empty"]').text()).toContain('De sleutel van Local workspace ziet geen portfolio’s.');
  });

  it('shows what the cache holds when the server cannot be reached', async () => {
    const server = await serverWithBuildings();
    await mountPage({ [local().id]: server });
    await vi.waitFor(() => expect(server.calls).toContain('listProducts'));
    for (const { wrapper, pinia } of mounted) {
      wrapper.unmount();
      useSyncStore(pinia).$dispose();
    }
    mounted = [];

    server.overrides.set('listBuildings', () => NO_ANSWER);
    const before = server.calls.length;
    const { wrapper } = await mountPage({ [local().id]: server });

    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="building-row"]')).toHaveLength(2));
    expect(wrapper.get('[data-testid="portfolio-name"]').text()).toBe('Woningcorporatie');
    expect(root.getAttribute(APP_READY_ATTRIBUTE)).toBe('true');
    await vi.waitFor(() => expect(server.calls.slice(before)).toContain('listBuildings'));
    expect(wrapper.find('[data-testid="portfolios-error"]').exists()).toBe(false);
  });

  it('shows the lists of the new active connection when it changes', async () => {
    const remote: Connection = { ...local(), id: `c1-${run}`, name: 'Production', kind: 'remote' };
    const servers = { [local().id]: await startApiServer(), [remote.id]: await startApiServer() };
    await servers[remote.id]!.createPortfolio('On production');
    const { wrapper, bridge } = await mountPage(servers, [local(), remote]);
    await vi.waitFor(() => expect(wrapper.find('[data-testid="portfolios-empty"]').exists()).toBe(true));

    bridge.emit('connections:changed', { connections: [local(), remote], activeId: remote.id });

    await vi.waitFor(() => expect(wrapper.find('[data-testid="portfolio-name"]').exists()).toBe(true));
    expect(wrapper.get('[data-testid="portfolio-name"]').text()).toBe('On production');
    expect(servers[remote.id]!.calls).toContain('listPortfolios');
  });
});
