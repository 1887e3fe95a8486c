// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import NewBuildingButton from '../../../../../renderer/views/buildings/NewBuildingButton.vue';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('NewBuildingButton', () => {
  it('puts the class its parent gives it on the button, without a warning about attributes it could not place', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const wrapper = mount(NewBuildingButton, {
      props: { portfolioId: 'P1' },
      attrs: { class: 'portfolio__new-building' },
      global: { plugins: [createAppI18n('en'), createAppRouter()] },
      attachTo: document.body,
    });
    const button = document.querySelector('[data-testid="building-new"]');
    expect(button?.classList.contains('portfolio__new-building')).toBe(true);
    expect(button?.textContent).toContain('New building');
    expect(warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes('Extraneous non-props attributes'))).toEqual([]);
    wrapper.unmount();
  });
});
