// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildingFileStatuses } from '../../../../shared/api/enums';
import type { ChosenFiles } from '../../../../shared/uploads';
import OpenedFilesDialog from '../../../../renderer/components/OpenedFilesDialog.vue';
import { ROUTE_NAMES } from '../../../../renderer/router';
import { mountedPage } from '../harness';
import { all, byTestId, choose, click, eventually, text } from '../dom';
import { BUILDING, file, filesPage } from '../views/buildings/files-harness';

const TOWER = '30000000-0000-4000-8000-000000000003';
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
});

/** The host's files opened with the app, handed out once as `app:take-opened-files` does. */
function openedFilesHost(initial: ChosenFiles = []) {
  let waiting: ChosenFiles = initial;
  return {
    open(files: ChosenFiles): void {
      waiting = [...waiting, ...files];
    },
    handlers: {
      'app:take-opened-files': async () => {
        const taken = waiting;
        waiting = [];
        return taken;
      },
    },
  };
}

const site = { choiceId: 'choice-1', fileName: 'site.ifc', size: 5000 };

describe('the dialog of files opened with the app', { timeout: 30_000 }, () => {
  it('asks which building a file opened before the window listened goes to, uploads it there as the building page does, and opens that building', async () => {
    const host = openedFilesHost([site]);
    const { bridge, router } = await filesPage(mounted, { path: '/portfolios', host: 'electron', handlers: host.handlers, beside: OpenedFilesDialog });
    await eventually(() => expect(all('opened-file').map((row) => row.textContent)).toEqual([expect.stringContaining('site.ifc')]));
    expect(document.body.textContent).toContain('Upload to which building?');
    expect((byTestId('opened-files-upload') as HTMLButtonElement).disabled).toBe(true);

    await choose(byTestId('opened-files-building'), 'Tower A');
    await eventually(() => expect((byTestId('opened-files-upload') as HTMLButtonElement).disabled).toBe(false));
    click('opened-files-upload');
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[0]).toMatchObject({
      target: { kind: 'building-file', buildingId: BUILDING, fileType: 0, tags: [] },
      source: { kind: 'chosen', choiceId: 'choice-1' },
      fileName: 'site.ifc',
      size: 5000,
    });
    await eventually(() => expect(router.currentRoute.value.name).toBe(ROUTE_NAMES.building));
    expect(router.currentRoute.value.params['buildingId']).toBe(BUILDING);
    await eventually(() => expect(all('opened-file')).toEqual([]));
  });

  it('takes the files the host announces later, and uploads nothing when cancelled', async () => {
    const host = openedFilesHost();
    const { bridge } = await filesPage(mounted, { path: '/portfolios', host: 'electron', handlers: host.handlers, beside: OpenedFilesDialog });
    await eventually(() => expect(bridge.requestsOf('app:take-opened-files')).toHaveLength(1));
    expect(all('opened-file')).toEqual([]);

    host.open([site, { choiceId: 'choice-2', fileName: 'rows.csv', size: 12 }]);
    bridge.emit('app:files-opened', { count: 2 });
    await eventually(() => expect(all('opened-file')).toHaveLength(2));
    expect(text('opened-files-upload')).toBe('Upload 2 files');
    click('opened-files-cancel');
    await flushPromises();
    expect(all('opened-file')).toEqual([]);
    expect(bridge.requestsOf('uploads:start')).toEqual([]);
  });

  it('asks before a file named like one of the building’s source files becomes its new version', async () => {
    const host = openedFilesHost([{ choiceId: 'choice-3', fileName: 'tower.ifc', size: 700 }]);
    const { bridge } = await filesPage(mounted, {
      path: '/portfolios',
      host: 'electron',
      files: [file(TOWER, 'tower.ifc', BuildingFileStatuses.Mapped)],
      handlers: host.handlers,
      beside: OpenedFilesDialog,
    });
    await eventually(() => expect(all('opened-file')).toHaveLength(1));
    await choose(byTestId('opened-files-building'), 'Tower A');
    await eventually(() => expect((byTestId('opened-files-upload') as HTMLButtonElement).disabled).toBe(false));
    click('opened-files-upload');
    await eventually(() => expect(byTestId('upload-replace-confirm')).not.toBeNull());
    click('upload-replace-confirm');
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[0]?.target).toEqual({ kind: 'building-file', buildingId: BUILDING, fileType: 0, replaceFileId: TOWER });
  });
});
