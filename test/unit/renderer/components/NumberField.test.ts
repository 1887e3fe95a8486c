// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h, nextTick, ref } from 'vue';
import NumberField from '../../../../renderer/components/NumberField.vue';
import { createAppI18n } from '../../../../renderer/i18n';

function fieldWith(error: string | undefined, suffix?: string) {
  const value = ref<number | null>(2.5);
  const Host = defineComponent(() => () => h(NumberField, { label: 'Rate', error, suffix, testId: 'rate', modelValue: value.value, 'onUpdate:modelValue': (typed: number | null) => (value.value = typed) }));
  return { value, wrapper: mount(Host, { global: { plugins: [createAppI18n('en')] } }) };
}

describe('a number field', () => {
  it('shows its label, value and unit, nothing in red while the value is accepted', () => {
    const { wrapper } = fieldWith(undefined, '% per year');
    expect(wrapper.text()).toContain('Rate');
    expect(wrapper.text()).toContain('% per year');
    expect(wrapper.find<HTMLInputElement>('[data-testid="rate"]').element.value).toBe('2.5');
    expect(wrapper.find('.n-form-item-feedback--error').exists()).toBe(false);
    wrapper.unmount();
  });

  it('says in red why a value is refused', () => {
    const { wrapper } = fieldWith('Must be a number.');
    expect(wrapper.find('.n-form-item-feedback--error').text()).toBe('Must be a number.');
    wrapper.unmount();
  });

  it('gives null for a value left empty', async () => {
    const { value, wrapper } = fieldWith(undefined);
    const input = wrapper.find<HTMLInputElement>('[data-testid="rate"]');
    await input.setValue('');
    input.element.dispatchEvent(new Event('blur'));
    await nextTick();
    expect(value.value).toBeNull();
    wrapper.unmount();
  });
});
