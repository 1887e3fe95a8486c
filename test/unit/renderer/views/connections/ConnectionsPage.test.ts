// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { BridgeError, type Connection, type ConnectionTestResult } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import ConnectionsPage from '../../../../../renderer/views/connections/ConnectionsPage.vue';
import { testBridge } from '../../harness';

const local: Connection = { id: 'local', name: 'Local workspace', baseUrl: 'http://127.0.0.1:4100', apiVersion: 'v2.3', kind: 'local', hasKey: true };

const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(ConnectionsPage))));

/** A host whose vault, like Linux without a keyring, stores keys only with the user's consent; `answer` is what testing a new connection finds. */
function keyringlessHost(answer: ConnectionTestResult = { kind: 'ok', accountName: 'Acme', accountType: 1 }) {
  const connections: Connection[] = [local];
  const keys = new Map<string, string>();
  const bridge = testBridge({
    'connections:test-draft': async () => answer,
    'connections:list': async () => ({ connections: connections.map((each) => ({ ...each, hasKey: each.kind === 'local' || keys.has(each.id) })), activeId: 'local' }),
    'connections:add': async (draft) => {
      const added: Connection = { ...draft, id: `c${connections.length}`, kind: 'remote', hasKey: false };
      connections.push(added);
      return added;
    },
    'vault:status': async () => ({ protection: 'basic-text', needsConsent: true }),
    'vault:set-key': async ({ connectionId, key, allowInsecureStorage }) => {
      if (allowInsecureStorage !== true) throw new BridgeError('insecure-storage', 'This system has no keyring to encrypt the key with.');
      keys.set(connectionId, key);
      return null;
    },
  });
  return { bridge, keys };
}

function byTestId(testId: string): HTMLElement | null {
  return document.querySelector(`[data-testid="${testId}"]`);
}

async function addConnection(wrapper: ReturnType<typeof mount>): Promise<void> {
  await wrapper.get('[data-testid="connection-name"]').setValue('Production');
  await wrapper.get('[data-testid="connection-url"]').setValue('https://api.example.com');
  await wrapper.get('[data-testid="connection-key"]').setValue('cd_live_123');
  await wrapper.get('[data-testid="connection-form"]').trigger('submit');
  await flushPromises();
}

function mountPage(bridge: ReturnType<typeof testBridge>) {
  return mount(Page, {
    global: { plugins: [createPinia(), createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('ConnectionsPage', () => {
  it('says in words how keys are protected', async () => {
    const { bridge } = keyringlessHost();
    const wrapper = mountPage(bridge);
    await flushPromises();

    expect(wrapper.get('[data-testid="vault-status"]').text()).toContain('keys can only be stored obfuscated, not encrypted');
    expect(wrapper.findAll('[data-testid="connection-row"]').map((row) => row.get('[data-testid="connection-row-name"]').text())).toEqual([
      'Local workspace',
    ]);
    wrapper.unmount();
  });

  it("asks for consent with the host's reason when the vault cannot encrypt, and stores the key once given", async () => {
    const { bridge, keys } = keyringlessHost();
    const wrapper = mountPage(bridge);
    await flushPromises();

    await addConnection(wrapper);
    expect(document.body.textContent).toContain('This system has no keyring to encrypt the key with. Store the key anyway?');
    expect(keys.size).toBe(0);

    byTestId('consent-confirm')!.click();
    await flushPromises();

    expect(keys.get('c1')).toBe('cd_live_123');
    expect(bridge.requestsOf('vault:set-key').map((request) => request.allowInsecureStorage)).toEqual([undefined, true]);
    const row = wrapper.findAll('[data-testid="connection-row"]').find((each) => each.text().includes('Production'));
    expect(row?.get('[data-testid="connection-key-state"]').text()).toBe('Key stored');
    wrapper.unmount();
  });

  it('keeps the connection without a key when the user declines', async () => {
    const { bridge, keys } = keyringlessHost();
    const wrapper = mountPage(bridge);
    await flushPromises();

    await addConnection(wrapper);
    byTestId('consent-decline')!.click();
    await flushPromises();

    expect(keys.size).toBe(0);
    expect(bridge.requestsOf('vault:set-key')).toHaveLength(1);
    const row = wrapper.findAll('[data-testid="connection-row"]').find((each) => each.text().includes('Production'));
    expect(row?.get('[data-testid="connection-key-state"]').text()).toBe('No key');
    expect(document.body.textContent).toContain('Connection Production was saved without a key.');
    wrapper.unmount();
  });

  it('names the server that answered a test beside its account, so two servers with alike account names are told apart', async () => {
    const team: Connection = { id: 'team', name: 'Team', baseUrl: 'https://team.example.com:8443/', apiVersion: 'v2.3', kind: 'remote', hasKey: true };
    const accounts: Record<string, string> = { local: 'Local workspace', team: 'Local workspace' };
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [local, team], activeId: 'local' }),
      'connections:test': async ({ connectionId }) => ({ kind: 'ok', accountName: accounts[connectionId] ?? '', accountType: 3 }),
      'vault:status': async () => ({ protection: 'os-keyring', needsConsent: false }),
    });
    const wrapper = mountPage(bridge);
    await flushPromises();
    const rows = wrapper.findAll('[data-testid="connection-row"]');
    for (const row of rows) await row.get('[data-testid="connection-test"]').trigger('click');
    await flushPromises();
    expect(rows.map((row) => row.get('[data-testid="connection-test-result"]').text())).toEqual([
      'Connected to 127.0.0.1:4100 as Local workspace (general).',
      'Connected to team.example.com:8443 as Local workspace (general).',
    ]);
    wrapper.unmount();
  });

  it('tests a new connection before saving it, says why a failing test failed, and saves it only on "Save anyway"', async () => {
    const { bridge } = keyringlessHost({ kind: 'problem', status: 401, title: 'Unauthorized', detail: 'The key is not valid.' });
    const wrapper = mountPage(bridge);
    await flushPromises();

    await addConnection(wrapper);

    expect(bridge.requestsOf('connections:test-draft')).toEqual([{ baseUrl: 'https://api.example.com', apiVersion: 'v2.3', key: 'cd_live_123' }]);
    expect(bridge.requestsOf('connections:add')).toEqual([]);
    const said = wrapper.get('[data-testid="connection-form-test"]');
    expect(said.get('[data-testid="connection-test-result"]').attributes('data-kind')).toBe('rejected-key');
    expect(said.text()).toContain('The key is not valid.');
    expect(wrapper.get('[data-testid="connection-save"]').text()).toBe('Save anyway');

    await wrapper.get('[data-testid="connection-form"]').trigger('submit');
    await flushPromises();
    expect(bridge.requestsOf('connections:test-draft')).toHaveLength(1);
    expect(bridge.requestsOf('connections:add')).toEqual([{ name: 'Production', baseUrl: 'https://api.example.com', apiVersion: 'v2.3' }]);
    expect(bridge.requestsOf('vault:set-key').map((request) => request.key)).toContain('cd_live_123');
  });

  it('tests again, instead of saving anyway, once the user changed what failed', async () => {
    const { bridge } = keyringlessHost({ kind: 'network', message: 'getCurrentAccount: the server could not be reached (ENOTFOUND).' });
    const wrapper = mountPage(bridge);
    await flushPromises();
    await addConnection(wrapper);
    expect(wrapper.get('[data-testid="connection-save"]').text()).toBe('Save anyway');

    await wrapper.get('[data-testid="connection-url"]').setValue('https://api.example.org');
    expect(wrapper.find('[data-testid="connection-form-test"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="connection-save"]').text()).toBe('Add connection');
    await wrapper.get('[data-testid="connection-form"]').trigger('submit');
    await flushPromises();

    expect(bridge.requestsOf('connections:test-draft').map((request) => request.baseUrl)).toEqual(['https://api.example.com', 'https://api.example.org']);
    expect(bridge.requestsOf('connections:add')).toEqual([]);
  });

  it('marks a connection over plain http to another computer as not encrypted, and only that one', async () => {
    const office: Connection = { id: 'office', name: 'Office', baseUrl: 'http://desk.example', apiVersion: 'v2.3', kind: 'remote', hasKey: true };
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [local, office], activeId: 'local' }),
      'vault:status': async () => ({ protection: 'os-encryption', needsConsent: false }),
    });
    const wrapper = mountPage(bridge);
    await flushPromises();
    const rows = [...document.querySelectorAll('[data-testid="connection-row"]')];
    expect(rows.map((row) => row.querySelector('[data-testid="connection-insecure"]')?.textContent?.trim() ?? null)).toEqual([null, 'Not encrypted']);
    wrapper.unmount();
  });

  it('removes a key and deletes a connection only once confirmed, and says how each went', async () => {
    const office: Connection = { id: 'office', name: 'Office', baseUrl: 'https://desk.example', apiVersion: 'v2.3', kind: 'remote', hasKey: true };
    const cleared: string[] = [];
    const bridge = testBridge({
      'connections:list': async () => ({ connections: [local, { ...office, hasKey: !cleared.includes('office') }], activeId: 'local' }),
      'vault:status': async () => ({ protection: 'os-encryption', needsConsent: false }),
      'vault:clear-key': async ({ connectionId }) => {
        cleared.push(connectionId);
        return null;
      },
      'connections:remove': async () => {
        throw new BridgeError('internal', 'The profile file is read-only.');
      },
    });
    const wrapper = mountPage(bridge);
    await flushPromises();
    const officeRow = () => wrapper.findAll('[data-testid="connection-row"]')[1]!;

    await officeRow().get('[data-testid="connection-remove-key"]').trigger('click');
    await flushPromises();
    expect(cleared).toEqual([]);
    byTestId('remove-key-confirm')?.click();
    await flushPromises();
    expect(cleared).toEqual(['office']);
    expect(document.body.textContent).toContain('The key of Office is removed.');
    expect(officeRow().find('[data-testid="connection-remove-key"]').exists()).toBe(false);

    await officeRow().get('[data-testid="connection-delete"]').trigger('click');
    await flushPromises();
    byTestId('delete-confirm')?.click();
    await flushPromises();
    expect(document.body.textContent).toContain('This did not work: The profile file is read-only.');
    expect(wrapper.findAll('[data-testid="connection-row"]')).toHaveLength(2);
    wrapper.unmount();
  });
});
