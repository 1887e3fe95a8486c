// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { BridgeHandlers } from '../../../../electron/bridge-dispatch';
import { BridgeError } from '../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../renderer/bridge';
import UpdateIndicator from '../../../../renderer/components/UpdateIndicator.vue';
import { createAppI18n } from '../../../../renderer/i18n';
import { mountedPage, testBridge } from '../harness';

const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

async function mountIndicator(handlers: Partial<BridgeHandlers>) {
  const bridge = testBridge(handlers);
  const pinia = createPinia();
  const Page = defineComponent(() => () => h(NMessageProvider, () => h(UpdateIndicator)));
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  await flushPromises();
  return { wrapper, bridge };
}

describe('UpdateIndicator', () => {
  it('shows nothing without an update, then the download, then Restart to update, which asks the host to install it', async () => {
    let installs = 0;
    const { wrapper, bridge } = await mountIndicator({
      'app:update-state': async () => ({ state: 'idle' }),
      'app:restart-to-update': async () => {
        installs += 1;
        return null;
      },
    });
    expect(wrapper.text()).toBe('');

    bridge.emit('app:update-changed', { state: 'downloading', percent: 42.7 });
    await flushPromises();
    expect(wrapper.get('[data-testid="update-downloading"]').attributes('data-percent')).toBe('42');
    expect(wrapper.text()).toContain('Downloading update: 42 %');

    bridge.emit('app:update-changed', { state: 'ready', version: '1.4.0' });
    await flushPromises();
    expect(wrapper.find('[data-testid="update-downloading"]').exists()).toBe(false);
    const restart = wrapper.get('[data-testid="update-restart"]');
    expect(restart.text()).toBe('Restart to update');
    expect(restart.attributes('title')).toBe('Version 1.4.0 is downloaded and is installed on restart.');
    await restart.trigger('click');
    await flushPromises();
    expect(installs).toBe(1);
  });

  it('shows a downloaded update it reads at start, and says so when installing it fails', async () => {
    const { wrapper } = await mountIndicator({
      'app:update-state': async () => ({ state: 'ready', version: '2.0.0' }),
      'app:restart-to-update': async () => {
        throw new BridgeError('unavailable', 'No downloaded update waits to be installed.');
      },
    });
    await wrapper.get('[data-testid="update-restart"]').trigger('click');
    await flushPromises();
    expect(document.body.textContent).toContain('The update could not be installed: No downloaded update waits to be installed.');
  });

  it('stays empty in browser mode, which has no updates', async () => {
    const { wrapper } = await mountIndicator({
      'app:update-state': async () => {
        throw new BridgeError('unavailable', 'Browser mode is updated with its checkout.');
      },
    });
    expect(wrapper.text()).toBe('');
  });
});
