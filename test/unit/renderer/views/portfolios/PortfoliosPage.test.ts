// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuildingResponse } from '../../../../../shared/api/schemas';
import type { ApiAnswer, Connection } from '../../../../../shared/ipc';
import { APP_READY_ATTRIBUTE } from '../../../../../renderer/app-ready';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import PortfoliosPage from '../../../../../renderer/views/portfolios/PortfoliosPage.vue';
import { deferred, testBridge } from '../../harness';

const local: Connection = { id: 'local', name: 'Local workspace', baseUrl: 'http://127.0.0.1:4100', apiVersion: 'v2.3', kind: 'local', hasKey: true };
const P1 = '11111111-1111-4111-8111-111111111111';

function ok(value: unknown): ApiAnswer {
  return { kind: 'ok', status: 200, value, location: null };
}

const problem: ApiAnswer = {
  kind: 'problem',
  status: 503,
  problem: {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'The database is being migrated.',
    instance: '/api/v2.3/portfolios',
    errors: [],
    message: 'The database is being migrated.',
  },
};

const buildings = [
  { id: 'b1', portfolioId: P1, name: 'Tower A', addressStreet: 'Keizersgracht', addressHousenumber: '12', addressHousenumberAddition: null, addressZipcode: '1015 CS', addressCity: 'Amsterdam', grossSurfaceArea: 12345.6, isDirty: false, hasDirtyElements: true },
  { id: 'b2', portfolioId: P1, name: 'School', grossSurfaceArea: null, isDirty: false, hasDirtyElements: false },
] as unknown as BuildingResponse[];

let root: HTMLElement;

beforeEach(() => {
  root = document.createElement('div');
  root.id = 'app';
  document.body.append(root);
});

afterEach(() => {
  root.remove();
});

async function mountPage(answer: (operationId: string) => Promise<ApiAnswer>) {
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [local], activeId: 'local' }),
    'api:request': ({ operationId }) => answer(operationId),
  });
  const router = createAppRouter();
  await router.push('/portfolios');
  const wrapper = mount(PortfoliosPage, {
    global: { plugins: [createPinia(), createAppI18n('nl'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: root,
  });
  return { wrapper, bridge };
}

describe('PortfoliosPage', () => {
  it('marks the app ready only once the first lists arrived, and shows the portfolios with their buildings', async () => {
    const portfolios = deferred<ApiAnswer>();
    const { wrapper } = await mountPage((operationId) =>
      operationId === 'listPortfolios' ? portfolios.promise : Promise.resolve(ok(buildings)),
    );
    await flushPromises();
    expect(root.hasAttribute(APP_READY_ATTRIBUTE)).toBe(false);
    expect(wrapper.find('[data-testid="portfolios-loading"]').exists()).toBe(true);

    portfolios.resolve(ok([{ id: P1, name: 'Woningcorporatie', logo: null }]));
    await flushPromises();

    expect(root.getAttribute(APP_READY_ATTRIBUTE)).toBe('true');
    const cards = wrapper.findAll('[data-testid="portfolio-card"]');
    expect(cards.map((card) => card.get('[data-testid="portfolio-name"]').text())).toEqual(['Woningcorporatie']);
    expect(cards[0]!.text()).toContain('2 gebouwen');
    const rows = wrapper.findAll('[data-testid="building-row"]');
    expect(rows.map((row) => row.find('td').text())).toEqual(['School', 'Tower A']);
    expect(rows[1]!.text()).toContain('Keizersgracht 12, 1015 CS Amsterdam');
    expect(rows[1]!.text()).toContain('12.345,6 m²');
    expect(rows[1]!.text()).toContain('Wijzigingen nog niet berekend');

    expect(wrapper.find('[data-testid="building-details"]').exists()).toBe(false);
    await rows[1]!.trigger('click');
    expect(wrapper.find('[data-testid="building-details"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('marks the app ready after a failed first load too, shows the problem, and retries', async () => {
    let fail = true;
    const { wrapper } = await mountPage(async (operationId) => {
      if (fail) return problem;
      return operationId === 'listPortfolios' ? ok([]) : ok([]);
    });
    await flushPromises();

    expect(root.getAttribute(APP_READY_ATTRIBUTE)).toBe('true');
    const error = wrapper.get('[data-testid="portfolios-error"]');
    expect(error.text()).toContain('Service Unavailable (503)');
    expect(error.text()).toContain('The database is being migrated.');

    fail = false;
    await wrapper.get('[data-testid="portfolios-retry"]').trigger('click');
    await flushPromises();

    expect(wrapper.find('[data-testid="portfolios-error"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="portfolios-empty"]').text()).toContain('De sleutel van Local workspace ziet geen portfolio’s.');
    wrapper.unmount();
  });

  it('reads the lists of the new active connection when it changes', async () => {
    const remote: Connection = { ...local, id: 'c1', name: 'Production', kind: 'remote' };
    const { wrapper, bridge } = await mountPage(async () => ok([]));
    await flushPromises();

    bridge.emit('connections:changed', { connections: [local, remote], activeId: 'c1' });
    await flushPromises();

    expect(bridge.requestsOf('api:request').map((request) => request.connectionId)).toEqual(['local', 'local', 'c1', 'c1']);
    wrapper.unmount();
  });
});
