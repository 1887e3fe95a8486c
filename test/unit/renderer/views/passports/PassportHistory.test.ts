// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BuildingFileStatuses, BuildingFileType } from '../../../../../shared/api/enums';
import { mountedPage } from '../../harness';
import { all, eventually } from '../../dom';
import { passport, passportTarget } from '../activity/activity-fixtures';
import { file, filesPage, ok } from '../buildings/files-harness';

const FROM_FOLDER = '30000000-0000-4000-8000-000000000011';
const FROM_PAGE = '30000000-0000-4000-8000-000000000012';
const MAKING = '30000000-0000-4000-8000-000000000013';
const SIGNED = 'https://files.example.com/downloads/passport';
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

function passportFile(id: string, status: BuildingFileStatuses, type: BuildingFileType, lastModifiedDate: string) {
  return file(id, `passport-${id.slice(-2)}.${type === BuildingFileType.PassportPdf ? 'pdf' : 'xlsx'}`, status, { type, lastModifiedDate });
}

describe('the history of passports', () => {
  it('lists the passports asked for on a building’s page beside those of the folders, newest first, with Open and Save', async () => {
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { bridge } = await filesPage(mounted, {
      path: '/passports',
      files: [
        passportFile(FROM_FOLDER, BuildingFileStatuses.Uploaded, BuildingFileType.PassportPdf, '2026-01-01T09:00:00.000Z'),
        passportFile(FROM_PAGE, BuildingFileStatuses.Uploaded, BuildingFileType.PassportExcel, '2026-01-01T11:00:00.000Z'),
        passportFile(MAKING, BuildingFileStatuses.Creating, BuildingFileType.PassportPdf, '2026-01-01T12:00:00.000Z'),
      ],
      handlers: {
        'dropfolders:list': async () => [],
        'passports:targets': async () => [{ ...passportTarget('t1', 'Tower A'), connectionId: 'building-files-1' }],
        'passports:history': async () => [
          passport('saved', { state: 'downloaded', remoteFileId: FROM_FOLDER, filePath: '/srv/passports/Tower A - passport.pdf', requestedAt: '2026-01-01T08:59:00.000Z' }),
        ],
      },
      api: { getBuildingFileDownload: () => ok({ url: SIGNED, expirationDateTime: '2026-01-01T13:00:00.000Z' }) },
    });

    await eventually(() => expect(all('building-passport-entry').map((row) => row.dataset['fileId'])).toEqual([MAKING, FROM_PAGE]));
    // The folder's own passport is listed once, as the folder's.
    expect(all('passport-entry')).toHaveLength(1);
    const rows = [...document.querySelectorAll<HTMLElement>('tbody tr')].map((row) => row.dataset['testid']);
    expect(rows).toEqual(['building-passport-entry', 'building-passport-entry', 'passport-entry']);
    const [making, fromPage] = all('building-passport-entry');
    expect(making?.dataset['state']).toBe('generating');
    expect(making?.querySelector('[data-testid="building-passport-open"]')).toBeNull();
    expect(fromPage?.textContent).toContain('Tower A');
    expect(fromPage?.textContent).toContain('requested on the building’s page');
    expect(fromPage?.dataset['format']).toBe('xlsx');

    fromPage?.querySelector<HTMLElement>('[data-testid="building-passport-save"]')?.click();
    await eventually(() => expect(clicked.mock.contexts.map((anchor) => (anchor as HTMLAnchorElement).href)).toEqual([SIGNED]));
    expect(bridge.requestsOf('api:request').find((request) => request.operationId === 'getBuildingFileDownload')?.params).toEqual({
      buildingId: expect.any(String),
      fileId: FROM_PAGE,
    });
  });
});
