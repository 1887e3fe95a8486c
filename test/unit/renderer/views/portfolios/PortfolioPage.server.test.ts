// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { RouterView } from 'vue-router';
import { PortfolioFileType } from '../../../../../shared/api/enums';
import type { AccountResponse, PortfolioFileResponse, PortfolioResponse } from '../../../../../shared/api/schemas';
import type { ImageUpload } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { isLocalId } from '../../../../../renderer/db/schema';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import { mountedPage, testBridge, type TestBridge } from '../../harness';
import { remoteConnection, startApiServer } from '../../api-server';
import { all, byTestId, choose, click, eventually, text, type } from '../../dom';

const App = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(RouterView))));
/** The first bytes of a PNG, enough for the image checks. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

/** The app on a real server holding one portfolio with one building, once the first sync brought them. */
async function serverApp(path: (portfolio: PortfolioResponse) => string, uploads: ImageUpload[] = []) {
  run += 1;
  const server = await startApiServer();
  const portfolio = await server.createPortfolio('Woningcorporatie');
  await server.createBuilding(portfolio.id, 'Tower A');
  const connection = remoteConnection(`portfolio-server-${run}`);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
    // The host's upload of a picked image; the answer is the stored name, as the API gives it.
    'api:upload-image': async (upload) => {
      uploads.push(upload);
      return { kind: 'ok', status: 200, value: `stored-${upload.fileName}`, location: null };
    },
  });
  const router = createAppRouter();
  await router.push(path(portfolio));
  const pinia = createPinia();
  const wrapper = mount(App, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await eventually(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
  return { server, bridge, router, sync, portfolio, wrapper };
}

function apiCalls(bridge: TestBridge, operationId: string) {
  return bridge.requestsOf('api:request').filter((request) => request.operationId === operationId);
}

async function pick(file: File): Promise<void> {
  const input = byTestId('portfolio-logo-input') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  input.dispatchEvent(new Event('change'));
  await flushPromises();
}

describe('a portfolio’s page on a server', { timeout: 30_000 }, () => {
  it('creates a portfolio, which reaches the server with the sync, and the page moves on to its server id', async () => {
    const { server, router } = await serverApp(() => '/portfolios');
    await eventually(() => expect(all('portfolio-card')).toHaveLength(1));
    click('portfolio-new');
    await eventually(() => expect(byTestId('portfolio-name-input')).not.toBeNull());
    await type('portfolio-name-input', ' Nieuwbouw ');
    click('portfolio-name-save');
    await eventually(() => expect(router.currentRoute.value.name).toBe('portfolio'));
    await eventually(() => expect(isLocalId(String(router.currentRoute.value.params['portfolioId']))).toBe(false));
    const onServer = (await server.request<PortfolioResponse[]>('GET', '/portfolios')).json;
    const created = onServer.find((each) => each.name === 'Nieuwbouw');
    expect(created?.id).toBe(router.currentRoute.value.params['portfolioId']);
    await eventually(() => expect(byTestId('portfolio-not-on-server')).toBeNull());
  });

  it('keeps a portfolio the server refuses to delete: the entry is parked with the server’s reason', async () => {
    const { server, sync, router, portfolio } = await serverApp((created) => `/portfolios/${created.id}`);
    const empty = await server.createPortfolio('Leeg');
    await sync.syncNow();
    await router.push(`/portfolios/${empty.id}`);
    await eventually(() => expect(byTestId('portfolio-no-buildings')).not.toBeNull());
    // Someone adds a building on the server before the delete reaches it.
    await server.createBuilding(empty.id, 'Late arrival');
    click('portfolio-delete');
    await eventually(() => expect(byTestId('portfolio-delete-confirm')).not.toBeNull());
    click('portfolio-delete-confirm');
    await eventually(() => expect(router.currentRoute.value.name).toBe('portfolios'));
    await eventually(() => expect(sync.parkedCount).toBe(1));
    const parked = await sync.db!.outbox.where('state').equals('parked').first();
    expect(parked?.lastError?.failure).toMatchObject({ kind: 'problem', status: 409 });
    expect((await server.request('GET', `/portfolios/${empty.id}`)).status).toBe(200);
    expect((await server.request('GET', `/portfolios/${portfolio.id}`)).status).toBe(200);
  });

  it('requests the portfolio passport in the chosen language and says where it appears', async () => {
    const { server, bridge, portfolio } = await serverApp((created) => `/portfolios/${created.id}`);
    await eventually(() => expect(byTestId('portfolio-passport')).not.toBeNull());
    click('portfolio-passport');
    await eventually(() => expect(byTestId('portfolio-passport-language')).not.toBeNull());
    await choose(byTestId('portfolio-passport-language'), 'Deutsch');
    click('portfolio-passport-request');
    await eventually(() => expect(byTestId('portfolio-passport-requested')).not.toBeNull());
    expect(text('portfolio-passport-requested')).toContain('a passport folder for this portfolio saves it on this computer');
    expect(byTestId('portfolio-passport-requested')?.querySelector('a')?.getAttribute('href')).toBe('#/passports');
    const request = apiCalls(bridge, 'exportPortfolioPassport')[0];
    expect(request?.headers).toEqual({ 'accept-language': 'de' });
    expect(request?.params).toEqual({ id: portfolio.id });
    const files = (await server.request<PortfolioFileResponse[]>('GET', `/portfolios/${portfolio.id}/files`)).json;
    expect(files.map((file) => file.type)).toEqual([PortfolioFileType.PassportPdf]);
  });

  it('lists the databases the portfolio’s files may use', async () => {
    const { server, portfolio } = await serverApp((created) => `/portfolios/${created.id}`);
    await eventually(() => expect(byTestId('portfolio-tab-databases')).not.toBeNull());
    click('portfolio-tab-databases');
    const expected = (await server.request<AccountResponse[]>('GET', `/portfolios/${portfolio.id}/availabledatabases`)).json;
    expect(expected.length).toBeGreaterThan(0);
    await eventually(() => expect(all('portfolio-database-row').map((row) => row.dataset['databaseId'])).toEqual(expected.map((each) => each.id)));
    expect(text('portfolio-databases')).toContain(expected[0]!.name);
  });

  it('sets a logo: checks the picked file, previews it, sends it and syncs; the preview is released on leaving', async () => {
    const uploads: ImageUpload[] = [];
    const { server, portfolio } = await serverApp((created) => `/portfolios/${created.id}`, uploads);
    await eventually(() => expect(byTestId('portfolio-tab-logo')).not.toBeNull());
    click('portfolio-tab-logo');
    await eventually(() => expect(text('portfolio-logo-name')).toBe('No logo yet'));
    expect(byTestId('portfolio-logo-input')?.getAttribute('accept')).toBe('image/png,image/jpeg');

    await pick(new File(['not an image'], 'notes.txt', { type: 'text/plain' }));
    await eventually(() => expect(text('portfolio-logo-problem')).toBe('Only PNG and JPEG images can be a logo.'));
    expect(uploads).toHaveLength(0);

    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const before = server.calls.length;
    await pick(new File([PNG], 'logo.png', { type: 'image/png' }));
    await eventually(() => expect(text('portfolio-logo-sent')).toBe('Stored as stored-logo.png.'));
    expect(byTestId('portfolio-logo-problem')).toBeNull();
    const preview = byTestId('portfolio-logo-preview')?.getAttribute('src');
    expect(preview).toMatch(/^blob:/);
    expect(uploads).toEqual([expect.objectContaining({ target: 'portfolio', id: portfolio.id, fileName: 'logo.png', contentType: 'image/png' })]);
    await eventually(() => expect(server.calls.slice(before)).toContain('listPortfolios'));
    // The "Stored as" message hides itself after 3 s with window.setTimeout, which unmounting does not clear: the
    // test waits for it, or it fires once the file's environment (and its window) is gone.
    await eventually(() => expect(document.querySelector('.n-message')).toBeNull());

    mounted.unmount();
    expect(revoke).toHaveBeenCalledWith(preview);
  });
});
