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
import PassportsPage from '../../../../../renderer/views/passports/PassportsPage.vue';
import { mountedPage, testBridge } from '../../harness';
import { remoteConnection, startApiServer } from '../../api-server';
import { passport, passportTarget } from '../activity/activity-fixtures';

const mounted = mountedPage();
let run = 0;

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

describe('PassportsPage', { timeout: 30_000 }, () => {
  it('shows the passport folders and history of the active connection, and only counts the folders of the others by their connection’s name', async () => {
    run += 1;
    const server = await startApiServer();
    const team = remoteConnection(`team-${run}`, 'Team server');
    const local: Connection = { ...remoteConnection(`local-${run}`, 'Local workspace'), kind: 'local' };
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [local, team], activeId: team.id }),
      'api:request': (request) => server.handle(request),
      'dropfolders:list': async () => [],
      'passports:targets': async () => [
        { ...passportTarget('on-team', 'Tower A'), connectionId: team.id },
        { ...passportTarget('on-local', 'Demo building'), connectionId: local.id },
      ],
      'passports:history': async () => [
        { ...passport('p-team', { state: 'failed', error: 'The server did not make the passport in time.' }), targetId: 'on-team' },
        { ...passport('p-local', { state: 'failed', error: 'Not on this connection.' }), targetId: 'on-local' },
      ],
    });
    const router = createAppRouter();
    await router.push('/passports');
    const pinia = createPinia();
    const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(PassportsPage))));
    const wrapper = mount(Page, {
      global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
      attachTo: document.body,
    });
    mounted.keep(wrapper, pinia);
    await flushPromises();

    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="passport-target"]').map((card) => card.attributes('data-target-id'))).toEqual(['on-team']), {
      timeout: 10_000,
    });
    expect(wrapper.get('[data-testid="passport-target"]').text()).toContain('Tower A');
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="passport-entry"]')).toHaveLength(1));
    expect(wrapper.get('[data-testid="passport-entry"]').text()).toContain('Tower A');
    expect(wrapper.text()).not.toContain('Not on this connection.');
    expect(wrapper.get('[data-testid="passport-other-connections"]').text()).toBe(
      'Passport folders of other connections keep working; make one active to see its folders: Local workspace (1)',
    );
  });
});
