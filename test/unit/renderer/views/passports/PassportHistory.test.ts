// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BuildingFileStatuses, BuildingFileType, PortfolioFileStatuses, PortfolioFileType } from '../../../../../shared/api/enums';
import type { PortfolioFileResponse } from '../../../../../shared/api/schemas';
import { mountedPage } from '../../harness';
import { all, eventually } from '../../dom';
import { passport, passportTarget } from '../activity/activity-fixtures';
import { file, filesPage, ok, PORTFOLIO } from '../buildings/files-harness';

const FROM_FOLDER = '30000000-0000-4000-8000-000000000011';
const FROM_PAGE = '30000000-0000-4000-8000-000000000012';
const MAKING = '30000000-0000-4000-8000-000000000013';
const PORTFOLIO_PASSPORT = '30000000-0000-4000-8000-000000000014';
const PORTFOLIO_INFO = '30000000-0000-4000-8000-000000000015';
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

function portfolioFile(id: string, type: PortfolioFileResponse['type'], lastModifiedDate: string): PortfolioFileResponse {
  return { id, portfolioId: PORTFOLIO, fileName: `file-${id.slice(-2)}.pdf`, fileSize: 1000, status: PortfolioFileStatuses.Uploaded, type, lastModifiedDate, tags: [] };
}

describe('one list of passports', () => {
  const pages = {
    files: [passportFile(FROM_PAGE, BuildingFileStatuses.Uploaded, BuildingFileType.PassportExcel, '2026-01-01T11:00:00.000Z')],
    handlers: {
      'dropfolders:list': async () => [],
      'passports:targets': async () => [],
      'passports:history': async () => [],
    },
    api: {
      listPortfolioFiles: () =>
        ok([
          portfolioFile(PORTFOLIO_PASSPORT, PortfolioFileType.PassportPdf, '2026-01-01T12:00:00.000Z'),
          portfolioFile(PORTFOLIO_INFO, PortfolioFileType.Information, '2026-01-01T12:30:00.000Z'),
        ]),
      getPortfolioFileDownload: () => ok({ url: SIGNED, expirationDateTime: '2026-01-01T13:00:00.000Z' }),
    },
  };

  it('lists a portfolio’s passport on the Passports screen beside the building’s, and opens it', async () => {
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await filesPage(mounted, { path: '/passports', ...pages });
    const rows = () => [...document.querySelectorAll<HTMLElement>('tbody tr')].map((row) => [row.dataset['testid'], row.dataset['fileId']]);
    await eventually(() =>
      expect(rows()).toEqual([
        ['portfolio-passport-entry', PORTFOLIO_PASSPORT],
        ['building-passport-entry', FROM_PAGE],
      ]),
    );
    expect(all('portfolio-passport-entry')[0]?.textContent).toContain('Woningcorporatie');
    all('portfolio-passport-entry')[0]?.querySelector<HTMLElement>('[data-testid="portfolio-passport-open"]')?.click();
    await eventually(() => expect(clicked.mock.contexts.map((anchor) => (anchor as HTMLAnchorElement).href)).toEqual([SIGNED]));
  });

  it('shows the same passports in Activity, never "No passports yet" while there are some', async () => {
    await filesPage(mounted, { path: '/activity', ...pages });
    await eventually(() =>
      expect(all('activity-server-passport').map((row) => [row.dataset['kind'], row.dataset['fileId'], row.dataset['state']])).toEqual([
        ['portfolio', PORTFOLIO_PASSPORT, 'ready'],
        ['building', FROM_PAGE, 'ready'],
      ]),
    );
    expect(document.querySelector('[data-testid="activity-passports-empty"]')).toBeNull();
  });
});
