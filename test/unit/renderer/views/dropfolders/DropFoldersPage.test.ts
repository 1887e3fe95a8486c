// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import type { Connection } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import DropFoldersPage from '../../../../../renderer/views/dropfolders/DropFoldersPage.vue';
import { mountedPage, testBridge } from '../../harness';
import { remoteConnection, startApiServer } from '../../api-server';
import { folder } from '../activity/activity-fixtures';

const mounted = mountedPage();
let run = 0;

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

describe('DropFoldersPage', { timeout: 30_000 }, () => {
  it('shows the drop folders of the active connection, and only counts those of the others by their connection’s name', async () => {
    run += 1;
    const server = await startApiServer();
    const { id: portfolioId } = await server.createPortfolio('Noord');
    const { id: buildingId } = await server.createBuilding(portfolioId, 'Tower A');
    const team = remoteConnection(`team-${run}`, 'Team server');
    const local: Connection = { ...remoteConnection(`local-${run}`, 'Local workspace'), kind: 'local' };
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [local, team], activeId: team.id }),
      'api:request': (request) => server.handle(request),
      'dropfolders:list': async () => [
        folder('on-team', { connectionId: team.id, target: { kind: 'building', buildingId } }),
        folder('on-local-1', { connectionId: local.id }),
        folder('on-local-2', { connectionId: local.id, target: { kind: 'portfolio', portfolioId: '22222222-2222-4222-8222-222222222222' } }),
      ],
      'dropfolders:files': async () => [],
    });
    const router = createAppRouter();
    await router.push('/drop-folders');
    const pinia = createPinia();
    const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(DropFoldersPage))));
    const wrapper = mount(Page, {
      global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
      attachTo: document.body,
    });
    mounted.keep(wrapper, pinia);
    await flushPromises();

    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="dropfolder-card"]').map((card) => card.attributes('data-mapping-id'))).toEqual(['on-team']), {
      timeout: 10_000,
    });
    await vi.waitFor(() => expect(wrapper.get('[data-testid="dropfolder-card"]').text()).toContain('Into building Tower A · Team server'), { timeout: 10_000 });
    expect(wrapper.text()).not.toContain('not in the cache');
    expect(wrapper.get('[data-testid="dropfolder-other-connections"]').text()).toBe(
      'Drop folders of other connections keep working; make one active to see its folders: Local workspace (2)',
    );
  });
});
