// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import SyncIndicator from '../../../../../renderer/components/SyncIndicator.vue';
import { editPortfolio } from '../../../../../renderer/db/edits';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import ActivityPage from '../../../../../renderer/views/activity/ActivityPage.vue';
import { mountedPage, testBridge } from '../../harness';
import { remoteConnection, startApiServer } from '../../api-server';
import { pausedServer } from '../../paused-server';

/** The header's indicator above the Activity screen, as the shell shows them. */
const Shell = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => [h(SyncIndicator), h(ActivityPage)])));

/** The client's timeout here; the app's is 60 s. */
const TIMEOUT_MS = 400;

const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

function text(testId: string): string {
  return document.querySelector(`[data-testid="${testId}"]`)?.textContent?.trim() ?? '';
}

function indicatorState(): string | null {
  return document.querySelector('[data-testid="sync-indicator"]')?.getAttribute('data-state') ?? null;
}

describe('a server that accepts connections and never answers', () => {
  it('is shown as not answering within its timeout, with the change waiting and its attempts, and everything goes on once it answers', async () => {
    const server = await startApiServer();
    const { id: portfolioId } = await server.createPortfolio('Noord');
    const paused = await pausedServer(server, TIMEOUT_MS);
    const connection = remoteConnection('paused');
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
      'api:request': (request) => paused.handle(request),
      'dropfolders:list': async () => [],
      'passports:targets': async () => [],
      'passports:history': async () => [],
    });
    const router = createAppRouter();
    await router.push('/activity');
    const pinia = createPinia();
    const wrapper = mount(Shell, {
      global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
      attachTo: document.body,
    });
    mounted.keep(wrapper, pinia);
    const sync = useSyncStore(pinia);
    await vi.waitFor(() => expect(indicatorState()).toBe('synced'), { timeout: 10_000 });

    paused.pause();
    await editPortfolio(sync.db!, portfolioId, { name: 'Noord-Oost' });
    const started = performance.now();
    void sync.syncNow();
    await vi.waitFor(() => expect(indicatorState()).toBe('offline'), { timeout: 10_000, interval: 10 });
    // One timeout for the push's read, a few milliseconds of work beside it: never several attempts' worth.
    expect(performance.now() - started).toBeLessThan(3 * TIMEOUT_MS);
    expect(text('sync-indicator')).toBe('Server not answering · 1 change waiting');
    await vi.waitFor(() => expect(document.querySelector('[data-testid="outbox-entry"] td:nth-child(4)')?.textContent?.trim()).toBe('1'));
    expect(text('attention-all-well')).toBe(
      'Nothing needs you. The server is not answering right now: your changes wait here and are sent once it answers again.',
    );
    expect(text('activity-state')).toBe('Server not answering · 1 change waiting');
    expect(text('activity-last-error')).toContain('The server did not answer in time.');

    // The scheduler's next tries get no answer either: the header stays "not answering", never "syncing" meanwhile.
    const states = new Set<string | null>();
    const watcher = window.setInterval(() => states.add(indicatorState()), 5);
    await vi.waitFor(
      () => expect(Number(document.querySelector('[data-testid="outbox-entry"] td:nth-child(4)')?.textContent)).toBeGreaterThanOrEqual(2),
      { timeout: 15_000, interval: 20 },
    );
    window.clearInterval(watcher);
    expect([...states]).toEqual(['offline']);

    // The server answers again: the change goes and the header says so, with nobody asking.
    paused.resume();
    await vi.waitFor(() => expect(indicatorState()).toBe('synced'), { timeout: 30_000, interval: 20 });
    expect(text('sync-indicator')).toBe('Synced just now');
    expect((await server.request<{ name: string }>('GET', `/portfolios/${portfolioId}`)).json.name).toBe('Noord-Oost');
    expect(document.querySelector('[data-testid="outbox-entry"]')).toBeNull();
  }, 60_000);
});
