// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises, mount } from '@vue/test-utils';
import { NDialogProvider, NMessageProvider } from 'naive-ui';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createBuilding } from '../../../../../renderer/db/edits';
import { createAppI18n } from '../../../../../renderer/i18n';
import { createAppRouter } from '../../../../../renderer/router';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import BuildingPage from '../../../../../renderer/views/buildings/BuildingPage.vue';
import { tinyJpeg, tinyPng } from '../../../../fixtures/images';
import { mountedPage, testBridge } from '../../harness';
import { problem, remoteConnection, startApiServer } from '../../api-server';
import { all, byTestId, click, eventually } from '../../dom';

const Page = defineComponent(() => () => h(NMessageProvider, () => h(NDialogProvider, () => h(BuildingPage))));

let run = 0;
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
  window.dispatchEvent(new Event('online'));
  vi.restoreAllMocks();
});

function text(element: Element | null | undefined): string {
  return element?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

/** What the list of added files shows: name, state and the reason of a failure. */
function uploads(): Array<[string, string, string]> {
  return all('building-image-upload').map((row) => [
    text(row.querySelector('.images__name')),
    text(row.querySelector('[data-testid="building-image-state"]')),
    all('building-image-reason')
      .filter((reason) => row.contains(reason))
      .map(text)
      .join(' '),
  ]);
}

/** Picks files with the hidden file input, as the platform's picker does. */
async function pick(files: File[]): Promise<void> {
  const input = byTestId('building-image-input') as HTMLInputElement | null;
  if (input === null) throw new Error('No file input.');
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  input.dispatchEvent(new Event('change'));
  await flushPromises();
}

/** The details tab of a building on a real server, once the first sync has brought it. */
async function imagesCard() {
  run += 1;
  const server = await startApiServer();
  const portfolio = await server.createPortfolio('Woningcorporatie');
  const building = await server.createBuilding(portfolio.id, 'Tower A');
  const connection = remoteConnection(`building-images-${run}`);
  const bridge = testBridge({
    'connections:list': async () => ({ connections: [connection], activeId: connection.id }),
    'api:request': (request) => server.handle(request),
    'api:upload-image': (upload) => server.handleImageUpload(upload),
  });
  const router = createAppRouter();
  await router.push(`/buildings/${building.id}`);
  const pinia = createPinia();
  const wrapper = mount(Page, {
    global: { plugins: [pinia, createAppI18n('en'), router], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
  mounted.keep(wrapper, pinia);
  const sync = useSyncStore(pinia);
  await eventually(() => expect(sync.lastCycle?.outcome).toEqual({ kind: 'ok' }));
  await eventually(() => expect(byTestId('building-tab-details')).not.toBeNull());
  click('building-tab-details');
  await eventually(() => expect(byTestId('building-images')).not.toBeNull());
  return { server, bridge, sync, router, portfolio, building };
}

describe('the images card of a building', { timeout: 30_000 }, () => {
  it('adds picked images one by one with a preview and progress, refuses other files, and lists the stored names after the sync', async () => {
    const { server, bridge, building } = await imagesCard();
    expect(text(byTestId('building-images'))).toContain('This building has no images.');
    expect(text(byTestId('building-images-hint'))).toContain('offers no way to download them');
    const created = vi.spyOn(URL, 'createObjectURL');
    const revoked = vi.spyOn(URL, 'revokeObjectURL');
    const release = server.hold('addBuildingImage');

    await pick([
      new File([tinyPng(2, 2)], 'facade.png', { type: 'image/png' }),
      new File(['minutes of the meeting'], 'notes.txt', { type: 'text/plain' }),
      new File([tinyJpeg()], 'entrance.jpg', { type: 'image/jpeg' }),
    ]);
    await eventually(() =>
      expect(uploads()).toEqual([
        ['facade.png', 'Uploading…', ''],
        ['notes.txt', 'Failed', 'Only PNG and JPEG images can be added.'],
        ['entrance.jpg', 'Waiting', ''],
      ]),
    );
    expect(byTestId('building-image-uploads')?.getAttribute('aria-busy')).toBe('true');
    expect(all('building-image-preview').map((image) => [image.getAttribute('alt'), image.getAttribute('src')?.startsWith('blob:')])).toEqual([
      ['Preview of facade.png', true],
      ['Preview of entrance.jpg', true],
    ]);
    expect(created).toHaveBeenCalledTimes(2);

    release();
    await eventually(() =>
      expect(uploads()).toEqual([
        ['facade.png', 'Added as facade.png', ''],
        ['notes.txt', 'Failed', 'Only PNG and JPEG images can be added.'],
        ['entrance.jpg', 'Added as entrance.jpg', ''],
      ]),
    );
    expect(bridge.requestsOf('api:upload-image').map((upload) => upload.fileName)).toEqual(['facade.png', 'entrance.jpg']);
    expect((await server.request<{ images: string[] }>('GET', `/buildings/${building.id}`)).json.images).toEqual(['facade.png', 'entrance.jpg']);
    await eventually(() => expect(all('building-image').map(text)).toEqual(['facade.png', 'entrance.jpg']));

    const urls = created.mock.results.map((result) => result.value as string);
    click('building-image-clear');
    await flushPromises();
    expect(byTestId('building-image-uploads')).toBeNull();
    expect(revoked.mock.calls.map(([url]) => url)).toEqual(urls);
  });

  it('takes images dropped on it', async () => {
    const { bridge } = await imagesCard();
    const zone = byTestId('building-images-drop');
    const file = new File([tinyPng()], 'site.png', { type: 'image/png' });
    const over = new Event('dragover', { cancelable: true });
    Object.defineProperty(over, 'dataTransfer', { value: { dropEffect: 'none', files: [] } });
    zone?.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    const drop = new Event('drop', { cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [file] } });
    zone?.dispatchEvent(drop);
    await eventually(() => expect(uploads()).toEqual([['site.png', 'Added as site.png', '']]));
    expect(bridge.requestsOf('api:upload-image')).toHaveLength(1);
  });

  it('shows the server’s refusal with its reason, and revokes the failed file’s preview', async () => {
    const { server } = await imagesCard();
    const revoked = vi.spyOn(URL, 'revokeObjectURL');
    server.overrides.set('addBuildingImage', () => problem(403, 'Forbidden', 'This key may only read this building.'));
    await pick([new File([tinyPng()], 'plan.png', { type: 'image/png' })]);
    await eventually(() =>
      expect(uploads()).toEqual([['plan.png', 'Failed', expect.stringContaining('This key may only read this building.')]]),
    );
    expect(all('building-image-preview')).toEqual([]);
    expect(revoked).toHaveBeenCalledTimes(1);
  });

  it('offline, says that adding images needs the server, and offers no way to add one', async () => {
    const { bridge } = await imagesCard();
    expect(byTestId('building-image-add')).not.toBeNull();
    window.dispatchEvent(new Event('offline'));
    await eventually(() => expect(byTestId('building-images-offline')).not.toBeNull());
    expect(text(byTestId('building-images-offline'))).toBe(
      'Adding images needs a connection to the server. Images are not kept to send later: add them again once the app is online.',
    );
    expect(byTestId('building-image-add')).toBeNull();
    expect(byTestId('building-image-input')).toBeNull();
    expect(bridge.requestsOf('api:upload-image')).toEqual([]);

    window.dispatchEvent(new Event('online'));
    await eventually(() => expect(byTestId('building-image-add')).not.toBeNull());
  });

  it('says that a building created here gets images once it is on the server', async () => {
    const { sync, router, portfolio } = await imagesCard();
    const localId = await createBuilding(sync.db!, portfolio.id, { name: 'Annex' });
    await router.push(`/buildings/${encodeURIComponent(localId)}`);
    await eventually(() => expect(document.querySelector('h1')?.textContent).toBe('Annex'));
    click('building-tab-details');
    await eventually(() => expect(byTestId('building-images-not-on-server')).not.toBeNull());
    expect(byTestId('building-image-add')).toBeNull();
  });
});
