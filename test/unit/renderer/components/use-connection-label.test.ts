// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { Connection } from '../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../renderer/bridge';
import { useConnectionLabel } from '../../../../renderer/components/use-connection-label';
import { createAppI18n } from '../../../../renderer/i18n';
import { useConnectionsStore } from '../../../../renderer/stores/connections';
import { testBridge } from '../harness';

const connections: Connection[] = [
  { id: 'local', name: 'Local workspace', baseUrl: 'http://127.0.0.1:4100', apiVersion: 'v2.3', kind: 'local', hasKey: true },
  { id: 'office', name: 'Office', baseUrl: 'http://desk.example', apiVersion: 'v2.3', kind: 'remote', hasKey: true },
  { id: 'cloud', name: 'Cloud', baseUrl: 'https://desk.example', apiVersion: 'v2.3', kind: 'remote', hasKey: true },
];

describe('useConnectionLabel', () => {
  it('marks plain http to another computer, names the others as they are, and a removed one plainly', async () => {
    const bridge = testBridge({ 'connections:list': async () => ({ connections, activeId: 'local' }) });
    const Probe = defineComponent(() => {
      const store = useConnectionsStore();
      void store.ensureLoaded();
      const { labelOfId } = useConnectionLabel();
      return () => h('ul', ['local', 'office', 'cloud', 'gone'].map((id) => h('li', labelOfId(id))));
    });
    const wrapper = mount(Probe, { global: { plugins: [createPinia(), createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } } });
    await flushPromises();
    expect(wrapper.findAll('li').map((item) => item.text())).toEqual(['Local workspace', 'Office (not encrypted)', 'Cloud', 'a removed connection']);
    wrapper.unmount();
  });
});
