// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountType, BuildingFileStatuses, BuildingFileType } from '../../../../../shared/api/enums';
import { ROUTE_NAMES } from '../../../../../renderer/router';
import { mountedPage } from '../../harness';
import { all, byTestId, click, eventually, text } from '../../dom';
import { BUILDING, file, filesPage, messages, ok, operations, problem } from './files-harness';

const TOWER = '30000000-0000-4000-8000-000000000003';
const REPORT = '30000000-0000-4000-8000-000000000004';
const ANNEX = '30000000-0000-4000-8000-000000000005';
const BROKEN = '30000000-0000-4000-8000-000000000006';
const PASSPORT = '30000000-0000-4000-8000-000000000007';
const MAKING = '30000000-0000-4000-8000-000000000008';
const OWN = '40000000-0000-4000-8000-000000000001';
const SUPPLIER = '40000000-0000-4000-8000-000000000002';
const SIGNED = 'https://files.example.com/downloads/0123456789abcdef';
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
  window.dispatchEvent(new Event('online'));
  vi.restoreAllMocks();
});

function rowOf(fileId: string): HTMLElement {
  const row = document.querySelector<HTMLElement>(`[data-testid="file-row"][data-file-id="${fileId}"]`);
  if (row === null) throw new Error(`No row of ${fileId}.`);
  return row;
}

function inRow(fileId: string, testId: string): HTMLElement {
  const found = rowOf(fileId).querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (found === null) throw new Error(`No ${testId} in the row of ${fileId}.`);
  return found;
}

function steps(fileId: string): Array<[string | undefined, string | undefined, string | null]> {
  return [...rowOf(fileId).querySelectorAll<HTMLElement>('[data-testid="file-timeline-step"]')].map((step) => [
    step.dataset['step'],
    step.dataset['state'],
    step.querySelector('time')?.getAttribute('datetime') ?? null,
  ]);
}

/** The links the page let the browser follow: address, file name to save under, and target. */
function followedLinks() {
  const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return () => clicked.mock.contexts.map((anchor) => [(anchor as HTMLAnchorElement).href, (anchor as HTMLAnchorElement).download, (anchor as HTMLAnchorElement).target]);
}

const tower = file(TOWER, 'tower.ifc', BuildingFileStatuses.Mapped);
const report = file(REPORT, 'report.pdf', BuildingFileStatuses.Uploaded, { type: BuildingFileType.Information });

describe('the timeline of a source file', { timeout: 30_000 }, () => {
  it('shows each stage with the time the app saw it, the element counts and the step, and follows the file to Mapped', async () => {
    const { bridge } = await filesPage(mounted, {
      files: [file(ANNEX, 'annex.ifc', BuildingFileStatuses.Refining)],
      statuses: [{ id: ANNEX, status: BuildingFileStatuses.Refining, elementProcessedCount: 40, elementCount: 160, statusMessage: 'Refining elements' }],
      seen: {
        [ANNEX]: [
          { status: BuildingFileStatuses.Uploaded, at: '2026-01-01T09:00:00.000Z' },
          { status: BuildingFileStatuses.Importing, at: '2026-01-01T09:00:05.000Z' },
          { status: BuildingFileStatuses.Imported, at: '2026-01-01T09:01:00.000Z' },
          { status: BuildingFileStatuses.Refining, at: '2026-01-01T09:02:00.000Z' },
        ],
      },
      api: {
        getBuildingFileStatus: () => ok({ id: ANNEX, status: BuildingFileStatuses.Mapped, elementProcessedCount: 160, elementCount: 160, statusMessage: 'Mapped 160 elements' }),
      },
    });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    expect(steps(ANNEX)).toEqual([
      ['uploaded', 'done', '2026-01-01T09:00:00.000Z'],
      ['importing', 'done', '2026-01-01T09:00:05.000Z'],
      ['imported', 'done', '2026-01-01T09:01:00.000Z'],
      ['refining', 'current', '2026-01-01T09:02:00.000Z'],
      ['mapped', 'waiting', null],
    ]);
    expect(inRow(ANNEX, 'file-progress').textContent).toContain('40 of 160 elements');
    expect(inRow(ANNEX, 'file-status-message').textContent).toBe('Refining elements');

    // The page reads the status of a busy file; the answer Mapped is noted with the time it was seen.
    await eventually(() => expect(steps(ANNEX)[4]?.[1]).toBe('done'));
    expect(steps(ANNEX)[4]?.[2]).not.toBeNull();
    expect(rowOf(ANNEX).dataset['fileStatus']).toBe(String(BuildingFileStatuses.Mapped));
    expect(operations(bridge)).toContain('getBuildingFileStatus');
  });

  it('counts the elements of a file the server has just mapped while they are on their way, not 0', async () => {
    await filesPage(mounted, {
      files: [file(ANNEX, 'annex.ifc', BuildingFileStatuses.Refining)],
      api: {
        getBuildingFileStatus: () => ok({ id: ANNEX, status: BuildingFileStatuses.Mapped, elementProcessedCount: 160, elementCount: 160, statusMessage: '160 elements imported.' }),
      },
    });
    await eventually(() => expect(rowOf(ANNEX).dataset['fileStatus']).toBe(String(BuildingFileStatuses.Mapped)));
    // The sync that brings the elements gets no answer here: the row says how many the server mapped meanwhile.
    await eventually(() => expect(inRow(ANNEX, 'file-elements').textContent).toBe('160'));
  });

  it('shows the stages a file passed unseen without a time, and an information file without a timeline', async () => {
    await filesPage(mounted, { files: [tower, report], seen: { [TOWER]: [{ status: BuildingFileStatuses.Mapped, at: '2026-01-01T10:00:00.000Z' }] } });
    await eventually(() => expect(all('file-row')).toHaveLength(2));
    expect(steps(TOWER)).toEqual([
      ['uploaded', 'done', null],
      ['importing', 'done', null],
      ['imported', 'done', null],
      ['refining', 'done', null],
      ['mapped', 'done', '2026-01-01T10:00:00.000Z'],
    ]);
    expect(rowOf(REPORT).querySelector('[data-testid="file-timeline"]')).toBeNull();
  });

  it('shows the server’s reason of a failure at the stage it stopped, and Retry sends the bytes again where the host has them', async () => {
    const { bridge, uploads } = await filesPage(mounted, {
      files: [file(BROKEN, 'broken.ifc', BuildingFileStatuses.Error)],
      statuses: [{ id: BROKEN, status: BuildingFileStatuses.Error, elementProcessedCount: 0, elementCount: 0, statusMessage: 'The file holds no IFC entities.' }],
      seen: { [BROKEN]: [{ status: BuildingFileStatuses.Uploaded, at: AT_NINE }, { status: BuildingFileStatuses.Importing, at: AT_NINE }, { status: BuildingFileStatuses.Error, at: AT_NINE }] },
      uploads: [{ id: 'upload-old', fileName: 'broken.ifc', target: { kind: 'building-file', buildingId: BUILDING, fileType: 0 }, remoteFileId: BROKEN }],
    });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    expect(inRow(BROKEN, 'file-error-reason').textContent).toBe('The file holds no IFC entities.');
    expect(steps(BROKEN).map(([stage, state]) => [stage, state])).toEqual([
      ['uploaded', 'done'],
      ['importing', 'failed'],
      ['imported', 'waiting'],
      ['refining', 'waiting'],
      ['mapped', 'waiting'],
    ]);
    inRow(BROKEN, 'file-retry').click();
    await eventually(() => expect(bridge.requestsOf('uploads:retry')).toEqual([{ uploadId: 'upload-old' }]));
    await eventually(() => expect(messages()).toContain('broken.ifc is being uploaded again.'));

    uploads.retried = () => ({ state: 'failed', problem: { code: 'source-gone', message: 'The content is gone.' } });
    const opened = vi.spyOn(HTMLInputElement.prototype, 'click');
    inRow(BROKEN, 'file-retry').click();
    await eventually(() => expect(messages()).toContain('The app no longer has the content of broken.ifc: choose the file to upload it again.'));
    expect((opened.mock.contexts[0] as HTMLInputElement).dataset['testid']).toBe('upload-version-file');
  });

  it('offers only what can work on a failed import: a file the server could not read gets a corrected version, never Retry or Activate', async () => {
    await filesPage(mounted, {
      files: [file(BROKEN, 'truncated.ifc', BuildingFileStatuses.UnknownImportFile), file(ANNEX, 'annex.ifc', BuildingFileStatuses.Error)],
      statuses: [
        { id: BROKEN, status: BuildingFileStatuses.UnknownImportFile, elementProcessedCount: 0, elementCount: 0, statusMessage: 'Line 412: the last statement never ends (no \';\').' },
        { id: ANNEX, status: BuildingFileStatuses.Error, elementProcessedCount: 0, elementCount: 0, statusMessage: 'The import took longer than its budget.' },
      ],
    });
    await eventually(() => expect(all('file-row')).toHaveLength(2));
    expect(inRow(BROKEN, 'file-row-status').textContent?.trim()).toBe('Could not be read');
    expect(rowOf(BROKEN).querySelector('[data-testid="file-retry"]')).toBeNull();
    expect(rowOf(BROKEN).querySelector('[data-testid="activate-file"]')).toBeNull();
    expect(rowOf(ANNEX).querySelector('[data-testid="activate-file"]')).toBeNull();
    expect(inRow(ANNEX, 'file-retry').textContent?.trim()).toBe('Retry');

    const opened = vi.spyOn(HTMLInputElement.prototype, 'click');
    inRow(BROKEN, 'file-upload-corrected').click();
    await eventually(() => expect(opened.mock.contexts.map((input) => (input as HTMLInputElement).dataset['testid'])).toContain('upload-version-file'));
  });

  it('reads the reason of a file that failed before the app saw its status', async () => {
    const { bridge } = await filesPage(mounted, {
      files: [file(BROKEN, 'broken.ifc', BuildingFileStatuses.UnknownImportFile)],
      api: {
        getBuildingFileStatus: () => ok({ id: BROKEN, status: BuildingFileStatuses.UnknownImportFile, elementProcessedCount: 0, elementCount: 0, statusMessage: 'Not an IFC or spreadsheet file.' }),
      },
    });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    await eventually(() => expect(inRow(BROKEN, 'file-error-reason').textContent).toBe('Not an IFC or spreadsheet file.'));
    await flushPromises();
    expect(operations(bridge).filter((operation) => operation === 'getBuildingFileStatus')).toHaveLength(1);
  });
});

const AT_NINE = '2026-01-01T09:00:00.000Z';

describe('the actions on a file', { timeout: 30_000 }, () => {
  it('keeps the attributes checks rely on, activates a source file saying the figures are recalculated, and offers no information file Activate', async () => {
    const { bridge } = await filesPage(mounted, { files: [tower, report], api: { setBuildingFileActive: () => ok({ ...tower, isActive: true }) } });
    await eventually(() => expect(all('file-row')).toHaveLength(2));
    expect([rowOf(TOWER).dataset['fileStatus'], rowOf(TOWER).dataset['fileActive']]).toEqual(['3', 'false']);
    expect(rowOf(REPORT).querySelector('[data-testid="activate-file"]')).toBeNull();
    expect(inRow(REPORT, 'download-file')).toBeDefined();
    expect(inRow(TOWER, 'activate-file').textContent?.trim()).toBe('Activate');
    inRow(TOWER, 'activate-file').click();
    await eventually(() => expect(messages()).toContain('tower.ifc is active. The server recalculates the building’s figures.'));
    const activation = bridge.requestsOf('api:request').find((request) => request.operationId === 'setBuildingFileActive');
    expect([activation?.params, activation?.body]).toEqual([{ buildingId: BUILDING, fileId: TOWER }, true]);
  });

  it('says at once, without waiting for a sync, that an activated file’s elements count now', async () => {
    const summary = '160 elements imported. 120 of 160 elements will count in the circularity index once the file is active: 40 have no material.';
    await filesPage(mounted, {
      files: [tower],
      statuses: [{ id: TOWER, status: BuildingFileStatuses.Mapped, elementProcessedCount: 160, elementCount: 160, statusMessage: summary }],
      api: { setBuildingFileActive: () => ok({ ...tower, isActive: true }) },
    });
    await eventually(() => expect(inRow(TOWER, 'file-status-message').textContent).toContain('once the file is active'));
    inRow(TOWER, 'activate-file').click();
    await eventually(() => expect(rowOf(TOWER).dataset['fileActive']).toBe('true'));
    expect(inRow(TOWER, 'file-active')).toBeDefined();
    expect(inRow(TOWER, 'file-status-message').textContent).toBe('160 elements imported. 120 of 160 elements count in the circularity index: 40 have no material.');
    expect(inRow(TOWER, 'activate-file').textContent?.trim()).toBe('Deactivate');
  });

  it('downloads through the browser in browser mode: the signed address, saved under the file’s name', async () => {
    const links = followedLinks();
    const { bridge } = await filesPage(mounted, { files: [tower], api: { getBuildingFileDownload: () => ok({ url: SIGNED, expirationDateTime: AT_NINE }) } });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    inRow(TOWER, 'download-file').click();
    await eventually(() => expect(links()).toEqual([[SIGNED, 'tower.ifc', '']]));
    expect(messages()).toContain('Your browser saves tower.ifc among its downloads.');
    expect(bridge.requestsOf('files:download')).toEqual([]);
  });

  it('downloads through the host’s save dialog in Electron', async () => {
    const { bridge } = await filesPage(mounted, {
      host: 'electron',
      files: [tower],
      handlers: { 'files:download': async () => ({ path: '/home/anna/tower.ifc', bytes: 1000 }) },
    });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    inRow(TOWER, 'download-file').click();
    await eventually(() => expect(messages()).toContain('tower.ifc was saved to /home/anna/tower.ifc.'));
    expect(bridge.requestsOf('files:download')[0]).toMatchObject({ buildingId: BUILDING, fileId: TOWER, fileName: 'tower.ifc' });
    expect(operations(bridge)).not.toContain('getBuildingFileDownload');
  });

  it('deletes a file once confirmed', async () => {
    const { bridge } = await filesPage(mounted, { files: [tower, report], api: { deleteBuildingFile: () => ok(null, 204) } });
    await eventually(() => expect(all('file-row')).toHaveLength(2));
    inRow(REPORT, 'delete-file').click();
    await eventually(() => expect(byTestId('delete-file-confirm')).not.toBeNull());
    expect(document.body.textContent).toContain('Delete report.pdf?');
    expect(operations(bridge)).not.toContain('deleteBuildingFile');
    click('delete-file-confirm');
    await eventually(() => expect(messages()).toContain('report.pdf was deleted.'));
    expect(bridge.requestsOf('api:request').find((request) => request.operationId === 'deleteBuildingFile')?.params).toEqual({ buildingId: BUILDING, fileId: REPORT });
  });

  it('says plainly that the actions need the server when offline, and calls nothing', async () => {
    const { bridge } = await filesPage(mounted, { files: [tower] });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    window.dispatchEvent(new Event('offline'));
    await flushPromises();
    inRow(TOWER, 'activate-file').click();
    await eventually(() => expect(messages()).toContain('You are offline. This needs the server: try again when you are online.'));
    expect(operations(bridge)).not.toContain('setBuildingFileActive');
  });

  it('does not open a file’s elements from its buttons, and opens them from its row', async () => {
    const { router } = await filesPage(mounted, { files: [tower], api: { setBuildingFileActive: () => ok(tower) } });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    inRow(TOWER, 'activate-file').click();
    await flushPromises();
    expect(router.currentRoute.value.name).toBe(ROUTE_NAMES.building);
    rowOf(TOWER).click();
    await eventually(() => expect(router.currentRoute.value.name).toBe(ROUTE_NAMES.file));
  });
});

describe('the tags and databases of a file', { timeout: 30_000 }, () => {
  it('shows them, replaces them, and refines the file again', async () => {
    let refining = false;
    const { bridge } = await filesPage(mounted, {
      files: [tower],
      api: {
        getBuildingFileSettings: () => ok({ tags: ['phase 1'], preferredAccountIds: [OWN] }),
        listAvailableDatabases: () =>
          ok([
            { id: OWN, name: 'Our materials', accountType: AccountType.Private },
            { id: SUPPLIER, name: 'Supplier catalogue', accountType: AccountType.Supplier },
          ]),
        replaceBuildingFileSettings: (request) => ok(request.body),
        setBuildingFileImporting: () => ok(null, 204),
        startBuildingFileRefinement: () => {
          refining = true;
          return ok(null, 202);
        },
        getBuildingFileStatus: () =>
          ok({
            id: TOWER,
            status: refining ? BuildingFileStatuses.Refining : BuildingFileStatuses.Mapped,
            elementProcessedCount: refining ? 0 : 10,
            elementCount: 10,
            statusMessage: null,
          }),
      },
    });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    inRow(TOWER, 'file-settings').click();
    await eventually(() => expect(byTestId('file-settings-save')).not.toBeNull());
    expect(text('file-settings-tags-list')).toContain('phase 1');
    expect(text('file-settings-databases')).toContain('Our materials');

    // Adding a tag is the upload panel's test; here one is removed.
    byTestId('file-settings-tags-list')?.querySelector<HTMLElement>('.n-tag__close')?.click();
    await eventually(() => expect(text('file-settings-tags-list')).not.toContain('phase 1'));
    click('file-settings-save');
    await eventually(() => expect(messages()).toContain('Saved. Refine the file again'));
    expect(bridge.requestsOf('api:request').find((request) => request.operationId === 'replaceBuildingFileSettings')?.body).toEqual({
      tags: [],
      preferredAccountIds: [OWN],
    });

    click('file-refine');
    await eventually(() => expect(messages()).toContain('Refinement of tower.ifc started.'));
    // The page read the Mapped file's status (its summary) once when it opened; the refinement's requests follow.
    const refinement = operations(bridge).filter((operation) => ['setBuildingFileImporting', 'startBuildingFileRefinement', 'getBuildingFileStatus'].includes(operation));
    const started = refinement.indexOf('setBuildingFileImporting');
    expect(refinement.slice(started, started + 3)).toEqual(['setBuildingFileImporting', 'startBuildingFileRefinement', 'getBuildingFileStatus']);
    await eventually(() => expect(rowOf(TOWER).dataset['fileStatus']).toBe(String(BuildingFileStatuses.Refining)));
  });

  it('says plainly that a server without the extension sets them only at upload', async () => {
    await filesPage(mounted, {
      files: [{ ...tower, tags: ['existing'] }],
      api: {
        getBuildingFileSettings: () => problem(404, 'Not Found', 'No route GET /api/v2.3/buildings/x/files/y/settings.'),
        listAvailableDatabases: () => ok([]),
      },
    });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    inRow(TOWER, 'file-settings').click();
    await eventually(() => expect(byTestId('file-settings-unsupported')).not.toBeNull());
    expect(text('file-settings-unsupported')).toBe(
      'This server sets a file’s tags and databases only when the file is uploaded. Tags can be given in Tags for new files when you add a file.',
    );
    expect(text('file-settings-panel')).toContain('existing');
    expect(byTestId('file-settings-save')).toBeNull();
  });
});

describe('the passports of a building', { timeout: 30_000 }, () => {
  it('lists them apart from the source files, never opens an elements grid for them, and opens or saves them', async () => {
    const links = followedLinks();
    const { router } = await filesPage(mounted, {
      files: [
        tower,
        file(PASSPORT, 'Tower A - passport.pdf', BuildingFileStatuses.Uploaded, { type: BuildingFileType.PassportPdf }),
        file(MAKING, 'Tower A - passport.xlsx', BuildingFileStatuses.Creating, { type: BuildingFileType.PassportExcel }),
      ],
      api: { getBuildingFileDownload: () => ok({ url: SIGNED, expirationDateTime: AT_NINE }) },
    });
    await eventually(() => expect(all('building-passport-file')).toHaveLength(2));
    expect(all('file-row').map((row) => row.dataset['fileId'])).toEqual([TOWER]);
    const [passport, making] = all('building-passport-file');
    expect([passport?.dataset['fileId'], passport?.dataset['fileStatus']]).toEqual([PASSPORT, String(BuildingFileStatuses.Uploaded)]);
    expect(making?.querySelector('[data-testid="building-passport-making"]')).not.toBeNull();

    passport?.click();
    await flushPromises();
    expect(router.currentRoute.value.name).toBe(ROUTE_NAMES.building);
    passport?.querySelector<HTMLElement>('[data-testid="building-passport-open"]')?.click();
    await eventually(() => expect(links()).toEqual([[SIGNED, '', '_blank']]));
    passport?.querySelector<HTMLElement>('[data-testid="building-passport-save"]')?.click();
    await eventually(() => expect(links()).toEqual([[SIGNED, '', '_blank'], [SIGNED, 'Tower A - passport.pdf', '']]));
  });
});
