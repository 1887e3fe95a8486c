// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { NNotificationProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { BRIDGE_KEY } from '../../../../renderer/bridge';
import NoticeToasts from '../../../../renderer/components/NoticeToasts.vue';
import { TOAST_MAX, TOAST_PLACEMENT } from '../../../../renderer/components/notice-toasts';
import { useNoticesStore } from '../../../../renderer/stores/notices';
import { testBridge } from '../harness';

const Toasts = defineComponent(() => () => h(NNotificationProvider, { placement: TOAST_PLACEMENT, max: TOAST_MAX }, () => h(NoticeToasts)));

function toastTitles(): string[] {
  return [...document.querySelectorAll('.n-notification .n-notification-main__header')].map((header) => header.textContent?.trim() ?? '');
}

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('NoticeToasts', () => {
  it('stacks a few toasts in the bottom-left corner, away from the drawers’ buttons on the right, and lets even an error go', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const bridge = testBridge({});
    const pinia = createPinia();
    const wrapper = mount(Toasts, { global: { plugins: [pinia], provide: { [BRIDGE_KEY]: bridge.handle } }, attachTo: document.body });
    const notices = useNoticesStore(pinia);

    bridge.emit('notice', { kind: 'error', title: 'Upload failed', message: 'The server refused the file.' });
    await flushPromises();
    expect(toastTitles()).toEqual(['Upload failed']);
    expect(document.querySelector('.n-notification-container')?.classList.contains('n-notification-container--bottom-left')).toBe(true);
    expect(document.querySelector('.n-notification-container--bottom-right')).toBeNull();

    for (const title of ['Mapped 1', 'Mapped 2', 'Mapped 3']) bridge.emit('notice', { kind: 'success', title, message: '' });
    await flushPromises();
    expect(toastTitles()).toHaveLength(TOAST_MAX);
    expect(toastTitles()).not.toContain('Upload failed');

    bridge.emit('notice', { kind: 'error', title: 'Passport failed', message: 'No figures yet.' });
    await flushPromises();
    expect(toastTitles()).toContain('Passport failed');
    await vi.advanceTimersByTimeAsync(11_000);
    await flushPromises();
    expect(toastTitles()).toEqual([]);
    // What went away as a toast stays on the Activity screen.
    expect(notices.notices.map((notice) => notice.title)).toEqual(['Passport failed', 'Mapped 3', 'Mapped 2', 'Mapped 1', 'Upload failed']);
    wrapper.unmount();
  });
});
