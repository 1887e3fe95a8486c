// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { ConnectionDraft } from '../../../../../shared/ipc';
import { createAppI18n } from '../../../../../renderer/i18n';
import ConnectionForm from '../../../../../renderer/views/connections/ConnectionForm.vue';
import type { ConnectionFormValue } from '../../../../../renderer/views/connections/connection-validation';

interface FormProps {
  mode?: 'add' | 'edit';
  initial?: ConnectionDraft;
  hasKey?: boolean;
  submit?: (value: ConnectionFormValue) => Promise<boolean>;
}

function mountForm(props: FormProps = {}) {
  const submit = vi.fn<(value: ConnectionFormValue) => Promise<boolean>>(async () => true);
  const wrapper = mount(ConnectionForm, {
    props: { mode: 'add', submit, ...props },
    global: { plugins: [createAppI18n('en')] },
    attachTo: document.body,
  });
  return { wrapper, submit };
}

async function type(wrapper: VueWrapper, testId: string, value: string): Promise<void> {
  const input = wrapper.get(`[data-testid="${testId}"]`);
  await input.setValue(value);
}

async function leave(wrapper: VueWrapper, testId: string): Promise<void> {
  await wrapper.get(`[data-testid="${testId}"]`).trigger('blur');
}

function errorOf(wrapper: VueWrapper, testId: string): string | undefined {
  const error = wrapper.find(`[data-testid="${testId}-error"]`);
  return error.exists() ? error.text() : undefined;
}

describe('ConnectionForm', () => {
  it('says nothing before the user typed, then checks the address once they left it, and as they type on', async () => {
    const { wrapper } = mountForm();
    expect(errorOf(wrapper, 'connection-url')).toBeUndefined();

    await type(wrapper, 'connection-url', 'ftp://files.example.com');
    expect(errorOf(wrapper, 'connection-url')).toBeUndefined();
    await leave(wrapper, 'connection-url');
    expect(errorOf(wrapper, 'connection-url')).toBe('The address starts with http:// or https://.');

    await type(wrapper, 'connection-url', 'https://user:pw@example.com');
    expect(errorOf(wrapper, 'connection-url')).toBe('Leave the user name and password out of the address.');
    await type(wrapper, 'connection-url', 'https://example.com/?a=1');
    expect(errorOf(wrapper, 'connection-url')).toBe('Leave the query (?…) and the fragment (#…) out of the address.');
    await type(wrapper, 'connection-url', 'https://example.com');
    expect(errorOf(wrapper, 'connection-url')).toBeUndefined();
    wrapper.unmount();
  });

  it('shows every problem on save and sends nothing', async () => {
    const { wrapper, submit } = mountForm();

    await wrapper.get('form').trigger('submit');
    await flushPromises();

    expect(submit).not.toHaveBeenCalled();
    expect(errorOf(wrapper, 'connection-name')).toBe('Give the connection a name.');
    expect(errorOf(wrapper, 'connection-url')).toBe("Enter the server's address.");
    expect(errorOf(wrapper, 'connection-key')).toBe('Enter the API key.');
    await type(wrapper, 'connection-key', 'has space');
    expect(errorOf(wrapper, 'connection-key')).toBe('A key has no spaces and only letters, digits and punctuation.');
    wrapper.unmount();
  });

  it('hands over the trimmed draft and key with the chosen version, then starts over', async () => {
    const { wrapper, submit } = mountForm();
    await type(wrapper, 'connection-name', '  Production  ');
    await type(wrapper, 'connection-url', 'HTTPS://api.example.com/');
    await wrapper.get('[data-testid="connection-api-version"] input[value="v2.1"]').setValue(true);
    await type(wrapper, 'connection-key', '  cd_live_123  ');

    await wrapper.get('form').trigger('submit');
    await flushPromises();

    expect(submit).toHaveBeenCalledWith({
      draft: { name: 'Production', baseUrl: 'https://api.example.com', apiVersion: 'v2.1' },
      key: 'cd_live_123',
    });
    expect((wrapper.get('[data-testid="connection-name"]').element as HTMLInputElement).value).toBe('');
    expect(errorOf(wrapper, 'connection-name')).toBeUndefined();
    wrapper.unmount();
  });

  it('keeps what was typed when saving failed', async () => {
    const refuse = vi.fn(async () => false);
    const { wrapper } = mountForm({ submit: refuse });
    await type(wrapper, 'connection-name', 'Production');
    await type(wrapper, 'connection-url', 'https://api.example.com');
    await type(wrapper, 'connection-key', 'k');

    await wrapper.get('form').trigger('submit');
    await flushPromises();

    expect(refuse).toHaveBeenCalledOnce();
    expect((wrapper.get('[data-testid="connection-name"]').element as HTMLInputElement).value).toBe('Production');
    wrapper.unmount();
  });

  it('edits without a key field, starting from the connection', async () => {
    const submit = vi.fn(async () => true);
    const { wrapper } = mountForm({
      mode: 'edit',
      submit,
      initial: { name: 'Production', baseUrl: 'https://api.example.com', apiVersion: 'v2.1' },
    });
    expect(wrapper.find('[data-testid="connection-edit-key"]').exists()).toBe(false);
    await type(wrapper, 'connection-edit-name', 'Production EU');

    await wrapper.get('form').trigger('submit');
    await flushPromises();

    expect(submit).toHaveBeenCalledWith({
      draft: { name: 'Production EU', baseUrl: 'https://api.example.com', apiVersion: 'v2.1' },
      key: '',
    });
    wrapper.unmount();
  });

  it('asks for an explicit agreement to plain http to another computer, and sends it with the draft', async () => {
    const { wrapper, submit } = mountForm();
    await type(wrapper, 'connection-name', 'Office');
    await type(wrapper, 'connection-url', 'http://127.0.0.1:8080');
    expect(wrapper.find('[data-testid="connection-plain-http"]').exists()).toBe(false);
    await type(wrapper, 'connection-url', 'http://desk.example');
    await type(wrapper, 'connection-key', 'k');

    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(submit).not.toHaveBeenCalled();
    expect(errorOf(wrapper, 'connection-plain-http')).toBe('Tick this to use plain http with a server on another computer, or use an https:// address.');

    await wrapper.get('[data-testid="connection-plain-http"]').trigger('click');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(submit).toHaveBeenCalledWith({
      draft: { name: 'Office', baseUrl: 'http://desk.example', apiVersion: 'v2.3', plainHttpConfirmed: true },
      key: 'k',
    });
    wrapper.unmount();
  });

  it('says before saving that a new origin removes the stored key, and not for a new path on the same one', async () => {
    const { wrapper } = mountForm({
      mode: 'edit',
      hasKey: true,
      initial: { name: 'Production', baseUrl: 'https://api.example.com', apiVersion: 'v2.3' },
    });
    const notice = () => wrapper.find('[data-testid="connection-edit-key-removed"]');
    expect(notice().exists()).toBe(false);
    await type(wrapper, 'connection-edit-url', 'https://api.example.com/v2');
    expect(notice().exists()).toBe(false);
    await type(wrapper, 'connection-edit-url', 'https://api.example.org');
    expect(notice().text()).toContain('the stored key is removed when you save');
    wrapper.unmount();
  });
});
