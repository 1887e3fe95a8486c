// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { BridgeError, type Connection, type LocalMigrationRequest, type LocalMigrationResult } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import ConnectionsPage from '../../../../../renderer/views/connections/ConnectionsPage.vue';
import { deferred, testBridge } from '../../harness';

const local: Connection = { id: 'local', name: 'Local workspace', baseUrl: 'http://127.0.0.1:4100', apiVersion: 'v2.3', kind: 'local', hasKey: true };
const team: Connection = { id: 'team', name: 'team.example.com', baseUrl: 'https://team.example.com', apiVersion: 'v2.3', kind: 'remote', hasKey: true };

const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(ConnectionsPage))));

/** A host whose `local:migrate` answers when the test says, after the progress the test sends. */
function migratingHost(needsConsent = false) {
  const answer = deferred<LocalMigrationResult | BridgeError>();
  let activeId = 'local';
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [local], activeId }),
    'connections:activate': async ({ connectionId }) => {
      activeId = connectionId;
      return null;
    },
    'vault:status': async () => (needsConsent ? { protection: 'basic-text', needsConsent: true } : { protection: 'os-encryption', needsConsent: false }),
    'local:migrate': async () => {
      const outcome = await answer.promise;
      if (outcome instanceof BridgeError) throw outcome;
      return outcome;
    },
  });
  return { bridge, answer };
}

function mountPage(bridge: ReturnType<typeof testBridge>) {
  return mount(Page, {
    global: { plugins: [createPinia(), createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
}

function byTestId<T extends HTMLElement = HTMLElement>(testId: string): T {
  const element = document.querySelector<T>(`[data-testid="${testId}"]`);
  if (element === null) throw new Error(`No ${testId}`);
  return element;
}

async function type(testId: string, value: string): Promise<void> {
  const input = byTestId<HTMLInputElement>(testId);
  input.value = value;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
}

async function openDialog(wrapper: ReturnType<typeof mount>): Promise<void> {
  await flushPromises();
  await wrapper.get('[data-testid="connection-migrate"]').trigger('click');
  await flushPromises();
}

async function fillIn(teamServerUrl = ''): Promise<void> {
  await type('migrate-database', 'postgres://circularity:secret@db.example.com:5432/circularity');
  await type('migrate-blobs', '/srv/circularity/blobs');
  if (teamServerUrl !== '') await type('migrate-team-server', teamServerUrl);
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('moving the Local workspace to a team server', () => {
  it('is offered on the Local workspace only, and says what is wrong before it starts anything', async () => {
    const { bridge } = migratingHost();
    const wrapper = mountPage(bridge);
    await openDialog(wrapper);
    expect(wrapper.findAll('[data-testid="connection-migrate"]')).toHaveLength(1);

    await type('migrate-database', 'mysql://db.example.com/circularity');
    await type('migrate-blobs', 'blobs');
    byTestId('migrate-start').click();
    await flushPromises();
    const text = byTestId('migrate-dialog').textContent ?? '';
    expect(text).toContain('The address starts with postgres:// or postgresql://.');
    expect(text).toContain('Give the full path of the folder.');
    expect(bridge.requestsOf('local:migrate')).toEqual([]);
    wrapper.unmount();
  });

  it('shows the progress, then what was copied, and switches to the new connection', async () => {
    const { bridge, answer } = migratingHost();
    const wrapper = mountPage(bridge);
    await openDialog(wrapper);
    await fillIn('https://team.example.com');
    byTestId('migrate-start').click();
    await flushPromises();
    expect(bridge.requestsOf('local:migrate')).toEqual<LocalMigrationRequest[]>([
      { databaseUrl: 'postgres://circularity:secret@db.example.com:5432/circularity', blobs: '/srv/circularity/blobs', teamServerUrl: 'https://team.example.com' },
    ]);

    bridge.emit('local:migration-progress', { step: 'table', table: 'elements', copied: 2000, total: 8000 });
    await flushPromises();
    expect(byTestId('migrate-progress').textContent).toContain('Copying elements: 2,000 of 8,000 rows');
    bridge.emit('local:migration-progress', { step: 'blobs', copied: 3, total: 4, bytes: 12_500_000 });
    await flushPromises();
    expect(byTestId('migrate-progress').textContent).toContain('Copying stored files: 3 of 4 (12.5 MB)');

    answer.resolve({
      summary: { tables: [{ table: 'portfolios', rows: 2 }, { table: 'elements', rows: 8000 }], blobs: { count: 4, bytes: 16_000_000 } },
      connection: team,
    });
    await flushPromises();
    const done = byTestId('migrate-done').textContent ?? '';
    expect(done).toContain('8,002 rows in 2 tables and 4 stored files');
    expect(done).toContain("A connection to https://team.example.com was added with the Local workspace's key.");

    byTestId('migrate-switch').click();
    await flushPromises();
    expect(bridge.requestsOf('connections:activate')).toEqual([{ connectionId: 'team' }]);
    wrapper.unmount();
  });

  it("shows the host's reason when the copy fails, and lets the user try again", async () => {
    const { bridge, answer } = migratingHost();
    const wrapper = mountPage(bridge);
    await openDialog(wrapper);
    await fillIn();
    byTestId('migrate-start').click();
    await flushPromises();
    answer.resolve(new BridgeError('unavailable', 'The target database already holds data (accounts: 1 rows).'));
    await flushPromises();
    expect(byTestId('migrate-failed').textContent).toContain('The copy did not finish: The target database already holds data (accounts: 1 rows).');
    expect(document.querySelector('[data-testid="migrate-start"]')).not.toBeNull();
    wrapper.unmount();
  });

  it('asks for consent to an unencrypted key only where the vault needs it, and passes it on', async () => {
    const { bridge, answer } = migratingHost(true);
    const wrapper = mountPage(bridge);
    await openDialog(wrapper);
    await fillIn();
    expect(document.querySelector('[data-testid="migrate-consent"]')).toBeNull();
    await type('migrate-team-server', 'https://team.example.com');
    byTestId('migrate-consent').click();
    await flushPromises();
    byTestId('migrate-start').click();
    await flushPromises();
    expect(bridge.requestsOf('local:migrate')[0]).toMatchObject({ allowInsecureStorage: true });
    answer.resolve({ summary: { tables: [], blobs: { count: 0, bytes: 0 } }, connection: { ...team, hasKey: false } });
    await flushPromises();
    expect(byTestId('migrate-done').textContent).toContain('was added without a key');
    wrapper.unmount();
  });
});
