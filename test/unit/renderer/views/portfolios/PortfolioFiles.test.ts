// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortfolioFileResponse } from '../../../../../shared/api/schemas';
import { mountedPage } from '../../harness';
import { all, byTestId, click, eventually, text } from '../../dom';
import { filesPage, messages, ok, operations, PORTFOLIO } from '../buildings/files-harness';

const REPORT = '50000000-0000-4000-8000-000000000001';
const PASSPORT = '50000000-0000-4000-8000-000000000002';
const SIGNED = 'https://files.example.com/downloads/fedcba9876543210';
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

const listed: PortfolioFileResponse[] = [
  { id: REPORT, portfolioId: PORTFOLIO, fileName: 'annual report.pdf', fileSize: 3 * 1024 * 1024, status: 1, type: 1, lastModifiedDate: '2026-01-01T10:00:00.000Z', tags: [] },
  { id: PASSPORT, portfolioId: PORTFOLIO, fileName: 'passport.pdf', fileSize: null, status: 6, type: 1000, lastModifiedDate: '2026-01-01T11:00:00.000Z', tags: [] },
];

async function filesTab(options: Parameters<typeof filesPage>[1] = {}) {
  const page = await filesPage(mounted, { path: `/portfolios/${PORTFOLIO}`, ...options });
  await eventually(() => expect(byTestId('portfolio-tab-files')).not.toBeNull());
  click('portfolio-tab-files');
  await eventually(() => expect(byTestId('portfolio-files')).not.toBeNull());
  return page;
}

function cells(row: HTMLElement): string[] {
  return [...row.querySelectorAll('td')].slice(0, 5).map((cell) => cell.textContent?.trim() ?? '');
}

describe('the files of a portfolio', { timeout: 30_000 }, () => {
  it('lists them as the server has them, and downloads one through the browser', async () => {
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { bridge } = await filesTab({
      api: { listPortfolioFiles: () => ok(listed), getPortfolioFileDownload: () => ok({ url: SIGNED, expirationDateTime: '2026-01-01T12:00:00.000Z' }) },
    });
    await eventually(() => expect(all('portfolio-file-row')).toHaveLength(2));
    expect(cells(all('portfolio-file-row')[0]!)).toEqual(['annual report.pdf', 'Information file', 'Uploaded', '3 MiB', expect.stringContaining('2026')]);
    expect(cells(all('portfolio-file-row')[1]!).slice(0, 4)).toEqual(['passport.pdf', 'PDF passport', 'Creating', '—']);
    all('portfolio-file-row')[0]!.querySelector<HTMLElement>('[data-testid="portfolio-file-download"]')?.click();
    await eventually(() => expect(clicked).toHaveBeenCalledTimes(1));
    const anchor = clicked.mock.contexts[0] as HTMLAnchorElement;
    expect([anchor.href, anchor.download]).toEqual([SIGNED, 'annual report.pdf']);
    expect(bridge.requestsOf('api:request').find((request) => request.operationId === 'getPortfolioFileDownload')?.params).toEqual({ portfolioId: PORTFOLIO, fileId: REPORT });
  });

  it('adds files through the upload service, and lists them again once the server took one', async () => {
    const { bridge, uploads } = await filesTab({ api: { listPortfolioFiles: () => ok([]) } });
    await eventually(() => expect(byTestId('portfolio-files-empty')).not.toBeNull());
    const input = byTestId('portfolio-file-input') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [new File(['minutes'], 'minutes.docx'), new File([], 'empty.pdf')], configurable: true });
    input.dispatchEvent(new Event('change'));
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[0]).toMatchObject({ fileName: 'minutes.docx', target: { kind: 'portfolio-file', portfolioId: PORTFOLIO } });
    expect(text('portfolio-file-refused')).toContain('empty.pdf was not added: the file is empty.');
    const lists = () => operations(bridge).filter((operation) => operation === 'listPortfolioFiles').length;
    const before = lists();
    const id = all('upload-row')[0]!.dataset['uploadId']!;
    uploads.change(id, { state: 'done', sentBytes: 7, remoteFileId: REPORT, doneAt: '2026-01-02T09:00:00.000Z' });
    await eventually(() => expect(lists()).toBeGreaterThan(before));
  });

  it('deletes a file once confirmed', async () => {
    const { bridge } = await filesTab({ api: { listPortfolioFiles: () => ok(listed), deletePortfolioFile: () => ok(null, 204) } });
    await eventually(() => expect(all('portfolio-file-row')).toHaveLength(2));
    all('portfolio-file-row')[0]!.querySelector<HTMLElement>('[data-testid="portfolio-file-delete"]')?.click();
    await eventually(() => expect(byTestId('portfolio-file-delete-confirm')).not.toBeNull());
    click('portfolio-file-delete-confirm');
    await eventually(() => expect(messages()).toContain('annual report.pdf was deleted.'));
    await flushPromises();
    expect(bridge.requestsOf('api:request').find((request) => request.operationId === 'deletePortfolioFile')?.params).toEqual({ portfolioId: PORTFOLIO, fileId: REPORT });
  });

  it('says why the list could not be read', async () => {
    await filesTab();
    await eventually(() => expect(text('portfolio-files-refusal')).toContain('The server could not be reached.'));
  });
});
