// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { BridgeHandlers } from '../../../../../electron/bridge-dispatch';
import { BridgeError } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import DiagnosticsActions from '../../../../../renderer/views/activity/DiagnosticsActions.vue';
import { mountedPage, testBridge } from '../../harness';

const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

async function mountActions(host: 'electron' | 'browser', handlers: Partial<BridgeHandlers> = {}) {
  const bridge = testBridge({
    'app:info': async () => ({ version: '1.0.0', host, platform: 'linux', userDataDir: '/home/user/.config/circularity-desk' }),
    ...handlers,
  });
  const pinia = createPinia();
  const Page = defineComponent(() => () => h(NMessageProvider, () => h('div', [h(DiagnosticsActions)])));
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  await flushPromises();
  return { wrapper, bridge };
}

describe('DiagnosticsActions', () => {
  it('opens the logs folder and exports diagnostics through the host, and says where the zip went', async () => {
    const { wrapper, bridge } = await mountActions('electron', {
      'app:open-logs': async () => null,
      'app:export-diagnostics': async () => ({ path: '/home/user/circularity-desk-diagnostics-2026-03-01.zip' }),
    });
    await wrapper.get('[data-testid="activity-open-logs"]').trigger('click');
    await wrapper.get('[data-testid="activity-export-diagnostics"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.map((call) => call.channel)).toEqual(['app:info', 'app:open-logs', 'app:export-diagnostics']);
    expect(document.body.textContent).toContain(
      'Diagnostics saved to /home/user/circularity-desk-diagnostics-2026-03-01.zip. They hold the logs, versions and settings, never a key.',
    );
  });

  it('says nothing when the save dialog is cancelled, and the reason when the export fails', async () => {
    let answer: () => Promise<{ path: string | null }> = async () => ({ path: null });
    const { wrapper } = await mountActions('electron', { 'app:export-diagnostics': () => answer() });
    await wrapper.get('[data-testid="activity-export-diagnostics"]').trigger('click');
    await flushPromises();
    expect(document.body.textContent).not.toContain('Diagnostics');
    answer = async () => {
      throw new BridgeError('unavailable', 'The disk is full.');
    };
    await wrapper.get('[data-testid="activity-export-diagnostics"]').trigger('click');
    await flushPromises();
    expect(document.body.textContent).toContain('Diagnostics could not be exported: The disk is full.');
  });

  it('is not offered in browser mode, whose log goes to its terminal', async () => {
    const { wrapper } = await mountActions('browser');
    expect(wrapper.find('[data-testid="activity-open-logs"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="activity-export-diagnostics"]').exists()).toBe(false);
  });
});
