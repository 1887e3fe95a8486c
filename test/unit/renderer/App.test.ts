// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import App from '../../../renderer/App.vue';
import { APP_READY_ATTRIBUTE } from '../../../renderer/app-ready';
import { createAppI18n } from '../../../renderer/i18n';
import { LOCALE_STORAGE_KEY, THEME_STORAGE_KEY } from '../../../renderer/stores/ui';

let root: HTMLElement;

beforeEach(() => {
  window.localStorage.clear();
  root = document.createElement('div');
  root.id = 'app';
  document.body.append(root);
});

afterEach(() => {
  root.remove();
});

describe('App without a host', () => {
  it('says which address to open, in the kept language and theme, and marks the page ready', async () => {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, 'de');
    window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');

    const wrapper = mount(App, { props: { connected: false }, global: { plugins: [createPinia(), createAppI18n('en')] }, attachTo: root });
    await flushPromises();

    expect(wrapper.get('[data-testid="no-session"]').text()).toContain('Öffnen Sie die Adresse, die npm run web im Terminal ausgegeben hat.');
    expect(document.documentElement.lang).toBe('de');
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect(root.getAttribute(APP_READY_ATTRIBUTE)).toBe('true');
    wrapper.unmount();
  });
});
