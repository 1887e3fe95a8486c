// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider, NNotificationProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, type Component } from 'vue';
import type { BridgeHandlers } from '../../../../../electron/bridge-dispatch';
import type { Connection } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import AppShell from '../../../../../renderer/components/AppShell.vue';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import ActivityPage from '../../../../../renderer/views/activity/ActivityPage.vue';
import { mountedPage, testBridge, type TestBridge } from '../../harness';
import { dropFile, folder, passport, passportTarget } from './activity-fixtures';

const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

const TEAM: Connection = { id: 'team', name: 'Team', baseUrl: 'https://team.example.com', apiVersion: 'v2.3', kind: 'remote', hasKey: false };

/** The host of a machine with two drop folders and a passport folder, and no connection chosen yet. */
function busyHost(overrides: Partial<BridgeHandlers> = {}): TestBridge {
  const files = {
    a: [
      dropFile('a', 'tower.ifc', {
        state: 'failed',
        lastError: 'The server could not import the file.',
        remoteMessage: 'Line 12: IFCWALL has no GlobalId.',
        updatedAt: '2026-03-01T10:05:00.000Z',
      }),
      dropFile('a', 'annex.ifc', { state: 'mapped', updatedAt: '2026-03-01T10:01:00.000Z' }),
    ],
    b: [dropFile('b', 'plan.xlsx', { state: 'uploading', progress: { step: 'upload', done: 2048, total: 8192 }, updatedAt: '2026-03-01T10:06:00.000Z' })],
  } as Record<string, ReturnType<typeof dropFile>[]>;
  return testBridge({
    'connections:list': async () => ({ connections: [TEAM], activeId: null }),
    'local:status': async () => ({ state: 'running' }),
    'dropfolders:list': async () => [folder('a'), folder('b')],
    'dropfolders:files': async ({ mappingId }) => files[mappingId] ?? [],
    'dropfolders:retry': async () => null,
    'passports:targets': async () => [passportTarget('t1', 'Tower A')],
    'passports:history': async () => [
      passport('p-failed', { state: 'failed', error: 'The server did not make the passport in time.', updatedAt: '2026-03-01T10:03:00.000Z' }),
      passport('p-saved', {
        format: 'xlsx',
        state: 'downloaded',
        filePath: '/srv/passports/tower-a.xlsx',
        bytes: 20480,
        updatedAt: '2026-03-01T10:04:00.000Z',
      }),
    ],
    'passports:retry': async ({ entryId }) => passport(entryId, { state: 'requested' }),
    'passports:open-file': async () => null,
    ...overrides,
  });
}

/** A quiet host: no drop folders, no passports, every connection with its key. */
function quietHost(): TestBridge {
  return testBridge({
    'connections:list': async () => ({ connections: [{ ...TEAM, hasKey: true }], activeId: null }),
    'local:status': async () => ({ state: 'running' }),
    'dropfolders:list': async () => [],
    'passports:targets': async () => [],
    'passports:history': async () => [],
  });
}

async function mountWith(bridge: TestBridge, root: Component): Promise<VueWrapper> {
  const router = createAppRouter();
  await router.push('/activity');
  const pinia = createPinia();
  const Page = defineComponent(() => () => h(NNotificationProvider, () => h(NMessageProvider, () => h(NDialogProvider, () => h(root)))));
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  await flushPromises();
  return wrapper;
}

/** Waits for a check against the live page; a real server and live queries answer when a busy machine lets them. */
function settled(check: () => unknown): Promise<unknown> {
  return vi.waitFor(check, { timeout: 10_000, interval: 20 });
}

function summary(wrapper: VueWrapper): Array<[string | undefined, string | undefined]> {
  return wrapper.findAll('[data-testid="attention-item"]').map((item) => [item.attributes('data-kind'), item.attributes('data-count')]);
}

function upload(wrapper: VueWrapper, path: string) {
  return wrapper.get(`[data-testid="activity-upload"][data-path="${path}"]`);
}

describe('ActivityPage: what the host does', { timeout: 30_000 }, () => {
  it('sums up what needs the user, and says all is well when nothing does', async () => {
    const busy = busyHost();
    const wrapper = await mountWith(busy, ActivityPage);
    await settled(() =>
      expect(summary(wrapper)).toEqual([
        ['uploads', '1'],
        ['passports', '1'],
        ['keys', '1'],
      ]),
    );
    const texts = wrapper.findAll('[data-testid="attention-item"]').map((item) => item.text());
    expect(texts[0]).toContain('One file of a drop folder could not be uploaded.');
    expect(texts[2]).toContain('Team');
    expect(wrapper.find('[data-testid="attention-all-well"]').exists()).toBe(false);

    busy.emit('local:status-changed', { state: 'failed', message: 'Port 4010 is in use.' });
    await flushPromises();
    expect(summary(wrapper).map(([kind]) => kind)).toEqual(['uploads', 'passports', 'local', 'keys']);
    expect(wrapper.get('[data-testid="attention-item"][data-kind="local"]').text()).toContain('Port 4010 is in use.');

    wrapper.unmount();
    const quiet = await mountWith(quietHost(), ActivityPage);
    await settled(() => expect(quiet.find('[data-testid="attention-all-well"]').exists()).toBe(true));
    expect(quiet.get('[data-testid="activity-uploads-empty"]').text()).toContain('No drop folders yet.');
    expect(quiet.get('[data-testid="activity-passports-empty"]').text()).toContain('No passports yet.');
    expect(quiet.get('[data-testid="activity-errors-empty"]').text()).toContain('Nothing went wrong in this session.');
  });

  it('says when the Local workspace is restarted after it stopped, and when, until it runs again', async () => {
    const host = quietHost();
    const wrapper = await mountWith(host, ActivityPage);
    await settled(() => expect(wrapper.find('[data-testid="attention-all-well"]').exists()).toBe(true));
    expect(wrapper.find('[data-testid="activity-local-restarting"]').exists()).toBe(false);

    host.emit('local:status-changed', { state: 'restarting', message: 'The Local workspace server stopped.', restartInMs: 4000, attempt: 3 });
    await flushPromises();
    expect(wrapper.get('[data-testid="activity-local-restarting"]').text()).toBe(
      'The Local workspace stopped unexpectedly and is restarted in 4 s (attempt 3).',
    );

    host.emit('local:status-changed', { state: 'running' });
    await flushPromises();
    expect(wrapper.find('[data-testid="activity-local-restarting"]').exists()).toBe(false);
  });

  it('shows the uploads of every folder, a failure with the server’s message, and sends Retry to the host', async () => {
    const bridge = busyHost();
    const wrapper = await mountWith(bridge, ActivityPage);
    await settled(() => expect(wrapper.findAll('[data-testid="activity-upload"]')).toHaveLength(3));

    // Running first, then the ended ones newest first.
    expect(wrapper.findAll('[data-testid="activity-upload"]').map((row) => [row.attributes('data-path'), row.attributes('data-state')])).toEqual([
      ['plan.xlsx', 'uploading'],
      ['tower.ifc', 'failed'],
      ['annex.ifc', 'mapped'],
    ]);
    expect(upload(wrapper, 'plan.xlsx').get('[data-testid="activity-upload-progress"]').text()).toBe('2 of 8 kB sent');
    expect(upload(wrapper, 'tower.ifc').findAll('[data-testid="activity-upload-error"]').map((line) => line.text())).toEqual([
      'The server could not import the file.',
      'Line 12: IFCWALL has no GlobalId.',
    ]);
    expect(upload(wrapper, 'tower.ifc').text()).toContain('/srv/a');
    expect(upload(wrapper, 'annex.ifc').find('[data-testid="activity-upload-retry"]').exists()).toBe(false);

    await upload(wrapper, 'tower.ifc').get('[data-testid="activity-upload-retry"]').trigger('click');
    await flushPromises();
    expect(bridge.requestsOf('dropfolders:retry')).toEqual([{ mappingId: 'a', path: 'tower.ifc' }]);

    // The service's events move the rows on, and the summary with them.
    bridge.emit('dropfolders:changed', { kind: 'file', file: dropFile('a', 'tower.ifc', { state: 'hashing', updatedAt: '2026-03-01T10:07:00.000Z' }), detail: null });
    bridge.emit('dropfolders:changed', { kind: 'progress', mappingId: 'b', path: 'plan.xlsx', progress: { step: 'upload', done: 6144, total: 8192 } });
    await flushPromises();
    expect(upload(wrapper, 'tower.ifc').attributes('data-state')).toBe('hashing');
    expect(upload(wrapper, 'plan.xlsx').get('[data-testid="activity-upload-progress"]').text()).toBe('6 of 8 kB sent');
    expect(summary(wrapper).map(([kind]) => kind)).toEqual(['passports', 'keys']);
  });

  it('lists the passports with Retry for a failed one and Open for a saved one', async () => {
    const bridge = busyHost();
    const wrapper = await mountWith(bridge, ActivityPage);
    await settled(() => expect(wrapper.findAll('[data-testid="activity-passport"]')).toHaveLength(2));

    const [saved, failed] = wrapper.findAll('[data-testid="activity-passport"]');
    expect(saved!.attributes('data-state')).toBe('downloaded');
    expect(saved!.text()).toContain('Tower A');
    expect(saved!.text()).toContain('/srv/passports/tower-a.xlsx (20 kB)');
    expect(failed!.get('[data-testid="activity-passport-error"]').text()).toBe('The server did not make the passport in time.');

    await saved!.get('[data-testid="activity-passport-open"]').trigger('click');
    await failed!.get('[data-testid="activity-passport-retry"]').trigger('click');
    await flushPromises();
    expect(bridge.requestsOf('passports:open-file')).toEqual([{ entryId: 'p-saved' }]);
    expect(bridge.requestsOf('passports:retry')).toEqual([{ entryId: 'p-failed' }]);

    bridge.emit('passports:changed', { type: 'entry-changed', entry: passport('p-failed', { state: 'generating', updatedAt: '2026-03-01T10:08:00.000Z' }) });
    await flushPromises();
    expect(wrapper.get('[data-testid="activity-passport"][data-entry-id="p-failed"]').attributes('data-state')).toBe('generating');
    expect(summary(wrapper).map(([kind]) => kind)).toEqual(['uploads', 'keys']);
  });

  it('shows the host’s notices under Errors, newest first with their level, until Clear', async () => {
    const bridge = busyHost();
    const wrapper = await mountWith(bridge, ActivityPage);

    bridge.emit('notice', { kind: 'success', title: 'annex.ifc is mapped', message: '120 elements.' });
    bridge.emit('notice', { kind: 'error', title: 'tower.ifc failed', message: 'Line 12: IFCWALL has no GlobalId.' });
    await flushPromises();
    const notices = wrapper.findAll('[data-testid="activity-notice"]');
    expect(notices.map((notice) => notice.attributes('data-kind'))).toEqual(['error', 'success']);
    expect(notices[0]!.text()).toContain('Error');
    expect(notices[0]!.text()).toContain('tower.ifc failed');
    expect(notices[0]!.text()).toContain('Line 12: IFCWALL has no GlobalId.');
    expect(notices[1]!.text()).toContain('Done');

    await wrapper.get('[data-testid="activity-errors-clear"]').trigger('click');
    expect(wrapper.findAll('[data-testid="activity-notice"]')).toHaveLength(0);
    expect(wrapper.find('[data-testid="activity-errors-empty"]').exists()).toBe(true);
  });

  it('shows how many things need the user as a badge on the Activity navigation entry', async () => {
    const bridge = busyHost();
    const wrapper = await mountWith(bridge, AppShell);
    await settled(() => expect(wrapper.find('[data-testid="nav-activity-badge"]').exists()).toBe(true));
    const badge = wrapper.get('[data-testid="nav-activity-badge"]');
    expect(badge.text()).toBe('3');
    expect(badge.attributes('aria-label')).toBe('3 things need you');

    bridge.emit('connections:changed', { connections: [{ ...TEAM, hasKey: true }], activeId: null });
    bridge.emit('dropfolders:changed', { kind: 'file', file: dropFile('a', 'tower.ifc', { state: 'mapped' }), detail: null });
    bridge.emit('passports:changed', { type: 'entry-changed', entry: passport('p-failed', { state: 'downloaded', filePath: '/srv/p.pdf' }) });
    await flushPromises();
    expect(wrapper.find('[data-testid="nav-activity-badge"]').exists()).toBe(false);
  });
});
