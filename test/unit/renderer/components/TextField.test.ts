// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import TextField from '../../../../renderer/components/TextField.vue';

afterEach(() => {
  document.body.innerHTML = '';
});

function mountField(props: { error?: string; hint?: string; errorTestId?: string; secret?: boolean }) {
  const value = ref('first');
  const blurs = ref(0);
  const Form = defineComponent(
    () => () =>
      h(TextField, {
        label: 'Address',
        testId: 'address',
        value: value.value,
        'onUpdate:value': (next: string) => (value.value = next),
        onBlur: () => (blurs.value += 1),
        ...props,
      }),
  );
  const wrapper = mount(Form, { attachTo: document.body });
  return { wrapper, value, blurs, input: () => wrapper.get<HTMLInputElement>('[data-testid="address"]') };
}

function feedback(wrapper: ReturnType<typeof mountField>['wrapper']): string {
  return wrapper.find('.n-form-item-feedback').exists() ? wrapper.get('.n-form-item-feedback').text() : '';
}

describe('TextField', () => {
  it('shows the value under its label, gives back what the user types and says when they leave', async () => {
    const { wrapper, value, blurs, input } = mountField({});
    expect(wrapper.get('label').text()).toContain('Address');
    expect(input().element.value).toBe('first');
    expect(input().attributes('type')).toBe('text');

    await input().setValue('second');
    expect(value.value).toBe('second');
    await input().trigger('blur');
    expect(blurs.value).toBe(1);
    wrapper.unmount();
  });

  it('shows the hint while there is no problem, and the problem in red instead of it', async () => {
    const fine = mountField({ hint: 'Where the server is.' });
    expect(feedback(fine.wrapper)).toBe('Where the server is.');
    expect(fine.wrapper.find('.n-form-item-feedback--error').exists()).toBe(false);
    fine.wrapper.unmount();

    const refused = mountField({ hint: 'Where the server is.', error: 'Not an address.' });
    expect(feedback(refused.wrapper)).toBe('Not an address.');
    expect(refused.wrapper.find('.n-form-item-feedback--error').exists()).toBe(true);
    refused.wrapper.unmount();
  });

  it('wraps the problem in an element with its test id only when given one', () => {
    const withId = mountField({ error: 'Not an address.', errorTestId: 'address-error' });
    expect(withId.wrapper.get('[data-testid="address-error"]').text()).toBe('Not an address.');
    withId.wrapper.unmount();

    const withoutId = mountField({ error: 'Not an address.' });
    expect(withoutId.wrapper.find('.n-form-item-feedback span').exists()).toBe(false);
    expect(feedback(withoutId.wrapper)).toBe('Not an address.');
    withoutId.wrapper.unmount();

    const fine = mountField({ errorTestId: 'address-error', hint: 'Where the server is.' });
    expect(fine.wrapper.find('[data-testid="address-error"]').exists()).toBe(false);
    expect(feedback(fine.wrapper)).toBe('Where the server is.');
    fine.wrapper.unmount();
  });

  it('hides a secret until the user asks to see it', () => {
    const { wrapper, input } = mountField({ secret: true });
    expect(input().attributes('type')).toBe('password');
    expect(wrapper.find('.n-input__eye').exists()).toBe(true);
    wrapper.unmount();
  });
});
