// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE_KEY } from '../../../../renderer/bridge';
import SyncIndicator from '../../../../renderer/components/SyncIndicator.vue';
import { editPortfolio } from '../../../../renderer/db/edits';
import { createAppI18n } from '../../../../renderer/i18n';
import { createAppRouter } from '../../../../renderer/router';
import { useConnectionsStore } from '../../../../renderer/stores/connections';
import { useSyncStore } from '../../../../renderer/stores/sync';
import { mountedPage, testBridge } from '../harness';
import { NO_ANSWER, problem, remoteConnection, startApiServer, type ApiServer } from '../api-server';

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  window.dispatchEvent(new Event('online'));
});

/** A server holding one portfolio. */
async function serverWithPortfolio() {
  const server = await startApiServer();
  const { id: portfolioId } = await server.createPortfolio('Noord');
  return { server, portfolioId };
}

async function mountIndicator(server: ApiServer) {
  run += 1;
  const connection = remoteConnection(`indicator-${run}`);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
  });
  const router = createAppRouter();
  const pinia = createPinia();
  const wrapper = mount(SyncIndicator, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  // The shell reads the connections; here the test does.
  await useConnectionsStore(pinia).ensureLoaded();
  await vi.waitFor(() => expect(wrapper.find('[data-testid="sync-indicator"]').exists()).toBe(true));
  return { wrapper, sync };
}

function indicator(wrapper: VueWrapper) {
  const element = wrapper.get('[data-testid="sync-indicator"]');
  return [element.attributes('data-state'), element.text()];
}

describe('SyncIndicator', () => {
  it('says when the last sync was, what waits, and links to the activity screen', async () => {
    const { server, portfolioId } = await serverWithPortfolio();
    const { wrapper, sync } = await mountIndicator(server);
    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['synced', 'Synced just now']));
    expect(wrapper.get('[data-testid="sync-indicator"]').attributes('href')).toBe('#/activity');

    await editPortfolio(sync.db!, portfolioId, { name: 'Noord-Oost' });
    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['synced', 'One change waiting']));

    window.dispatchEvent(new Event('offline'));
    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['offline', 'Offline · 1 change waiting']));
  });

  it('counts the changes that need attention once the server refused them, and syncs on "Sync now"', async () => {
    const { server, portfolioId } = await serverWithPortfolio();
    const { wrapper, sync } = await mountIndicator(server);
    await vi.waitFor(() => expect(indicator(wrapper)[0]).toBe('synced'));
    await editPortfolio(sync.db!, portfolioId, { name: 'Noord-Oost' });
    server.overrides.set('replacePortfolio', () => problem(422, 'Unprocessable Entity', 'The name is taken.'));

    await wrapper.get('[data-testid="sync-now"]').trigger('click');

    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['attention', 'One change needs attention']));
    expect(server.calls).toContain('replacePortfolio');
  });

  it('shows a failed sync with its reason', async () => {
    const server = await startApiServer();
    server.overrides.set('listBuildings', () => problem(401, 'Unauthorized', 'The key has expired.'));
    const { wrapper } = await mountIndicator(server);

    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['error', 'Sync failed']));
    expect(wrapper.get('[data-testid="sync-indicator"]').attributes('title')).toBe(
      'Sync failed\nUnauthorized (401)\nThe key has expired.\nCheck the key of this connection: it may have expired or lack the rights for this.',
    );
  });

  it('says offline with the changes waiting, not a failed sync, while the server gives no answer, and syncs once it does', async () => {
    const { server, portfolioId } = await serverWithPortfolio();
    const { wrapper, sync } = await mountIndicator(server);
    await vi.waitFor(() => expect(indicator(wrapper)[0]).toBe('synced'));
    server.overrides.set('replacePortfolio', () => NO_ANSWER);
    server.overrides.set('listPortfolios', () => NO_ANSWER);
    const states = new Set<string | undefined>();
    const watcher = window.setInterval(() => states.add(indicator(wrapper)[0]), 1);

    await editPortfolio(sync.db!, portfolioId, { name: 'Noord-Oost' });
    await sync.syncNow();
    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['offline', 'Offline · 1 change waiting']));
    await sync.syncNow();
    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['offline', 'Offline · 1 change waiting']));
    window.clearInterval(watcher);
    expect(states.has('error')).toBe(false);
    // The whole status is in the tooltip, for a header too narrow to show it.
    expect(wrapper.get('[data-testid="sync-indicator"]').attributes('title')).toBe(
      'Offline · 1 change waiting\nThe server cannot be reached right now. Changes wait here and are sent once it can.',
    );

    server.overrides.delete('replacePortfolio');
    server.overrides.delete('listPortfolios');
    await sync.syncNow();
    await vi.waitFor(() => expect(indicator(wrapper)).toEqual(['synced', 'Synced just now']));
  });
});
