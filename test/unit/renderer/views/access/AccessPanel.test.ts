// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import type { UserRightResponse } from '../../../../../shared/api/schemas';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import type { AccessSubject } from '../../../../../renderer/stores/access';
import { useConnectionsStore } from '../../../../../renderer/stores/connections';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import AccessPanel from '../../../../../renderer/views/access/AccessPanel.vue';
import { mountedPage, testBridge, type TestBridge } from '../../harness';
import { problem, remoteConnection, startApiServer, type ApiServer } from '../../api-server';
import { all, byTestId, choose, click, eventually, text, type } from '../../dom';

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

/** A server with a portfolio holding a building, and the id of the subject under test. */
async function seededServer(subject: AccessSubject): Promise<{ server: ApiServer; id: string }> {
  const server = await startApiServer();
  const portfolio = await server.createPortfolio('Woningcorporatie');
  const building = await server.createBuilding(portfolio.id, 'Tower A');
  return { server, id: subject === 'portfolio' ? portfolio.id : building.id };
}

/** The panel of one subject on a connection whose calls reach `server`. */
async function mountPanel(server: ApiServer, subject: AccessSubject, id: string): Promise<{ bridge: TestBridge }> {
  run += 1;
  const connection = remoteConnection(`access-${run}`);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
  });
  const pinia = createPinia();
  const Panel = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(AccessPanel, { subject, subjectId: id }))));
  // The panel asks at once: the connection must be open before it mounts.
  const app = mount(defineComponent(() => () => null), {
    global: { plugins: [pinia], provide: { [BRIDGE_KEY]: bridge.handle } },
  });
  await useConnectionsStore(pinia).ensureLoaded();
  await eventually(() => expect(useSyncStore(pinia).connectionId).toBe(connection.id));
  app.unmount();
  const wrapper = mount(Panel, {
    global: { plugins: [pinia, createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  return { bridge };
}

describe.each<{ subject: AccessSubject; list: string; replace: string; create: string; remove: string; intro: string; empty: string }>([
  {
    subject: 'building',
    list: 'listBuildingUsers',
    replace: 'replaceBuildingUsers',
    create: 'createBuildingToken',
    remove: 'deleteBuildingToken',
    intro: 'Who may see and change this building',
    empty: 'Nobody has a right on this building itself.',
  },
  {
    subject: 'portfolio',
    list: 'listPortfolioUsers',
    replace: 'replacePortfolioUsers',
    create: 'createPortfolioToken',
    remove: 'deletePortfolioToken',
    intro: 'Who may see and change this portfolio and its buildings',
    empty: 'Nobody has a right on this portfolio itself.',
  },
])('the access panel of a $subject on a server', { timeout: 30_000 }, ({ subject, list, replace, create, remove, intro, empty }) => {
  it('lists the users and tokens, adds a token whose key shows once, changes its level and removes it', async () => {
    const { server, id } = await seededServer(subject);
    const route = `/${subject === 'portfolio' ? 'portfolios' : 'buildings'}/${id}/users`;
    const usersOnServer = async () => (await server.request<UserRightResponse[]>('GET', route)).json;
    const { bridge } = await mountPanel(server, subject, id);
    await eventually(() => expect(byTestId('access-loading')).toBeNull());
    expect(byTestId('access-panel')?.dataset['subject']).toBe(subject);
    expect(text('access-panel')).toContain(intro);
    expect(bridge.requestsOf('api:request').find((request) => request.operationId === list)?.params).toEqual({ id });
    expect(all('access-row')).toHaveLength((await usersOnServer()).length);

    click('token-create');
    await eventually(() => expect(byTestId('token-form')?.textContent).toContain('Required.'));
    expect(server.calls).not.toContain(create);
    await type('token-name', '  CI robot  ');
    click('token-create');
    await eventually(() => expect(text('token-key').length).toBeGreaterThan(30));
    expect(text('token-created')).toContain('Token CI robot created');
    expect(text('token-created')).toContain('Expires: never');
    const token = (await usersOnServer()).find((user) => user.name === 'CI robot');
    expect(token?.level).toBe(50);
    const row = (): HTMLElement | undefined => all('access-row').find((each) => each.dataset['userId'] === token?.userId);
    await eventually(() => expect(row()?.dataset['level']).toBe('50'));

    await choose(row()?.querySelector<HTMLElement>('[data-testid="access-level"]'), 'Write');
    await eventually(() => expect(row()?.dataset['level']).toBe('70'));
    expect(server.calls).toContain(replace);
    expect((await usersOnServer()).find((user) => user.userId === token?.userId)?.level).toBe(70);

    row()?.querySelector<HTMLElement>('[data-testid="access-remove"]')?.click();
    await eventually(() => expect(byTestId('access-remove-confirm')).not.toBeNull());
    expect(document.body.textContent).toContain('its key stops working at once');
    click('access-remove-confirm');
    await eventually(() => expect(row()).toBeUndefined());
    expect((await usersOnServer()).some((user) => user.userId === token?.userId)).toBe(false);
    expect(server.calls).toContain(remove);
  });

  it('takes a typed ISO date as the expiry in English, and sends nothing for a day in the past or a text that is no date', async () => {
    const { server, id } = await seededServer(subject);
    const { bridge } = await mountPanel(server, subject, id);
    await eventually(() => expect(byTestId('access-loading')).toBeNull());
    await type('token-name', 'Old');
    const input = (): HTMLInputElement => byTestId('token-expiry')!.querySelector('input')!;
    const typeDate = async (value: string): Promise<void> => {
      input().value = value;
      input().dispatchEvent(new Event('input'));
      input().dispatchEvent(new Event('blur'));
      await flushPromises();
    };
    expect(input().placeholder).toBe('MM/DD/YYYY or YYYY-MM-DD');

    await typeDate('2019-05-01');
    await eventually(() => expect(input().value).toBe('05/01/2019'));
    await eventually(() => expect(byTestId('token-form')?.textContent).toContain('Must be in the future.'));
    click('token-create');
    await flushPromises();
    expect(server.calls).not.toContain(create);

    await typeDate('2099-13-45');
    await eventually(() => expect(byTestId('token-form')?.textContent).toContain('“2099-13-45” is not a date: type MM/DD/YYYY or YYYY-MM-DD.'));
    expect(input().value).toBe('05/01/2019');
    click('token-create');
    await flushPromises();
    expect(server.calls).not.toContain(create);

    await typeDate('2099-05-01');
    await eventually(() => expect(input().value).toBe('05/01/2099'));
    expect(byTestId('token-form')?.textContent).not.toContain('is not a date');
    click('token-create');
    await eventually(() => expect(text('token-key').length).toBeGreaterThan(30));
    const sent = bridge.requestsOf('api:request').find((request) => request.operationId === create);
    expect(sent?.body).toMatchObject({ name: 'Old', expirationDateTime: new Date(2099, 4, 1).toISOString() });
  });

  it('says when the key of the connection may not manage the users', async () => {
    const { server, id } = await seededServer(subject);
    server.overrides.set(list, () => problem(403, 'Forbidden', 'Managing users needs the Administrator level.'));
    await mountPanel(server, subject, id);
    await eventually(() => expect(byTestId('access-refusal')).not.toBeNull());
    expect(text('access-refusal')).toContain('The key of this connection may not do this (403).');
    expect(text('access-refusal')).toContain('Managing users needs the Administrator level.');

    server.overrides.delete(list);
    click('access-retry');
    await eventually(() => expect(byTestId('access-refusal')).toBeNull());
    // The server's only key is the account's: nobody has a right on the subject itself yet.
    await eventually(() => expect(byTestId('access-empty')).not.toBeNull());
    expect(all('access-row')).toHaveLength(0);
    expect(text('access-empty')).toContain(empty);
  });

  it('says offline that the list needs the server, and asks it nothing', async () => {
    const { server, id } = await seededServer(subject);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await mountPanel(server, subject, id);
    await eventually(() => expect(byTestId('access-refusal')).not.toBeNull());
    expect(text('access-refusal')).toContain('You are offline. This needs the server: try again when you are online.');
    expect(server.calls).not.toContain(list);
  });
});
