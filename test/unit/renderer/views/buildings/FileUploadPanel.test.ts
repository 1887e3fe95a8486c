// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BuildingFileStatuses } from '../../../../../shared/api/enums';
import { importTemplateSheets, sheetsOf } from '../../../../../shared/import-template';
import { SPOOL_CHUNK_BYTES } from '../../../../../shared/uploads';
import { SPOOL_PIECE_BYTES } from '../../../../../shared/web-bridge-protocol';
import { useUiStore } from '../../../../../renderer/stores/ui';
import { mountedPage } from '../../harness';
import { all, byTestId, click, eventually, text } from '../../dom';
import { BUILDING, file, filesPage, operations } from './files-harness';

const TOWER = '30000000-0000-4000-8000-000000000003';
const mounted = mountedPage();

afterEach(() => {
  mounted.release();
  document.body.innerHTML = '';
  window.dispatchEvent(new Event('online'));
  vi.restoreAllMocks();
});

/** Picks files with a file input, as the platform's picker does. */
async function pick(testId: string, files: File[]): Promise<void> {
  const input = byTestId(testId) as HTMLInputElement | null;
  if (input === null) throw new Error(`No ${testId}.`);
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  input.dispatchEvent(new Event('change'));
  await flushPromises();
}

function named(name: string, size = 10): File {
  return new File([new Uint8Array(size).fill(7)], name);
}

function rows(): Array<[string, string]> {
  return all('upload-row').map((row) => [row.querySelector('[data-testid="upload-name"]')?.textContent ?? '', row.dataset['state'] ?? '']);
}

describe('adding files to a building', { timeout: 30_000 }, () => {
  it('makes models and spreadsheets source files and PDFs and images information files, and refuses anything else with the reason', async () => {
    const { bridge } = await filesPage(mounted);
    await eventually(() => expect(byTestId('upload-source-file')).not.toBeNull());
    expect((byTestId('upload-source-file') as HTMLInputElement).type).toBe('file');
    await pick('upload-source-file', [
      named('model.IFC'),
      named('quantities.xlsx'),
      named('rows.csv'),
      named('report.pdf'),
      named('photo.jpeg'),
      named('notes.txt'),
      named('empty.ifc', 0),
    ]);
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(5));
    expect(bridge.requestsOf('uploads:start').map((start) => [start.fileName, start.target.kind === 'building-file' ? start.target.fileType : null])).toEqual([
      ['model.IFC', 0],
      ['quantities.xlsx', 0],
      ['rows.csv', 0],
      ['report.pdf', 1],
      ['photo.jpeg', 1],
    ]);
    expect(bridge.requestsOf('uploads:start')[0]?.target).toEqual({ kind: 'building-file', buildingId: BUILDING, fileType: 0, tags: [] });
    expect(text('upload-refused')).toContain('notes.txt was not added: only IFC models, spreadsheets (.xlsx, .csv), PDFs and images can be added to a building.');
    expect(text('upload-refused')).toContain('empty.ifc was not added: the file is empty.');
    await eventually(() => expect(rows().map(([name]) => name)).toEqual(['model.IFC', 'quantities.xlsx', 'rows.csv', 'report.pdf', 'photo.jpeg']));
  });

  it('in browser mode, sends a file of the page to the host’s spool as pieces the browser reads, after starting the upload from that spool', async () => {
    const pieces: Array<{ spoolId: string; offset: number; bytes: Uint8Array }> = [];
    const { bridge, uploads } = await filesPage(mounted, {
      sendSpoolPiece: async (spoolId, offset, piece) => {
        pieces.push({ spoolId, offset, bytes: new Uint8Array(await piece.arrayBuffer()) });
        return { ok: true, value: { written: offset + piece.size } };
      },
    });
    await eventually(() => expect(byTestId('upload-source-file')).not.toBeNull());
    const bytes = new Uint8Array(SPOOL_PIECE_BYTES + 1234).map((_, index) => index % 251);
    await pick('upload-source-file', [new File([bytes], 'big.ifc')]);
    await eventually(() => expect(pieces).toHaveLength(2));
    const [spoolId] = [...uploads.spools.keys()];
    expect(bridge.requestsOf('uploads:start')[0]?.source).toEqual({ kind: 'spool', spoolId });
    expect(pieces.map((piece) => [piece.spoolId, piece.offset, piece.bytes.byteLength])).toEqual([
      [spoolId, 0, SPOOL_PIECE_BYTES],
      [spoolId, SPOOL_PIECE_BYTES, 1234],
    ]);
    expect(Buffer.concat(pieces.map((piece) => piece.bytes)).equals(Buffer.from(bytes))).toBe(true);
    expect(bridge.requestsOf('uploads:write-spool')).toEqual([]);
  });

  it('in browser mode, stops handing a file over when the host refuses a piece, and says why', async () => {
    const offsets: number[] = [];
    await filesPage(mounted, {
      sendSpoolPiece: async (_spoolId, offset) => {
        offsets.push(offset);
        return { ok: false, error: { code: 'storage-failed', message: 'big.ifc could not be kept on this computer’s disk (is it full?).' } };
      },
    });
    await eventually(() => expect(byTestId('upload-source-file')).not.toBeNull());
    await pick('upload-source-file', [new File([new Uint8Array(SPOOL_PIECE_BYTES * 2 + 1)], 'big.ifc')]);
    await eventually(() => expect(text('upload-reason')).toContain('could not be kept on this computer’s disk'));
    expect(offsets).toEqual([0]);
  });

  it('in Electron, streams a file that is not on disk to the host’s spool a chunk at a time, after starting the upload from that spool', async () => {
    const { bridge, uploads } = await filesPage(mounted, { host: 'electron' });
    await eventually(() => expect(byTestId('upload-source-file')).not.toBeNull());
    const bytes = new Uint8Array(SPOOL_CHUNK_BYTES * 2 + 1234).map((_, index) => index % 251);
    await pick('upload-source-file', [new File([bytes], 'big.ifc')]);
    await eventually(() => expect(bridge.requestsOf('uploads:write-spool')).toHaveLength(3));
    const channels = bridge.calls.map((call) => call.channel).filter((channel) => channel.startsWith('uploads:') && channel !== 'uploads:list');
    expect(channels).toEqual(['uploads:open-spool', 'uploads:start', 'uploads:write-spool', 'uploads:write-spool', 'uploads:write-spool']);
    const [spoolId] = [...uploads.spools.keys()];
    expect(bridge.requestsOf('uploads:open-spool')).toEqual([{ fileName: 'big.ifc', size: bytes.length }]);
    expect(bridge.requestsOf('uploads:start')[0]?.source).toEqual({ kind: 'spool', spoolId });
    expect(bridge.requestsOf('uploads:write-spool').map((chunk) => chunk.offset)).toEqual([0, SPOOL_CHUNK_BYTES, SPOOL_CHUNK_BYTES * 2]);
    expect(uploads.bytesOf(spoolId!).equals(Buffer.from(bytes))).toBe(true);
  });

  it('in Electron, adds the files the host’s dialog chose, which the host reads itself', async () => {
    const { bridge, uploads } = await filesPage(mounted, { host: 'electron' });
    uploads.dialog = [{ choiceId: 'choice-1', fileName: 'site.ifc', size: 5000 }];
    await eventually(() => expect(byTestId('upload-add')).not.toBeNull());
    click('upload-add');
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('dialog:choose-files')).toEqual([{ kinds: 'any', multiple: true, title: 'Add files to Tower A' }]);
    expect(bridge.requestsOf('uploads:start')[0]).toMatchObject({ source: { kind: 'chosen', choiceId: 'choice-1' }, fileName: 'site.ifc', size: 5000 });
    expect(bridge.requestsOf('uploads:open-spool')).toEqual([]);
  });

  it('in Electron, has the host read a picked or dropped file from disk, and spools one that is not on disk', async () => {
    const asked: string[][] = [];
    const { bridge, uploads } = await filesPage(mounted, {
      host: 'electron',
      droppedFiles: {
        choicesOf: async (files) => {
          asked.push(files.map((each) => each.name));
          const [only] = files;
          if (only?.name === 'from-mail.ifc') return { ok: false, error: { code: 'invalid-request', message: 'A dropped file is not on this computer’s disk.' } };
          return { ok: true, value: [{ choiceId: 'dropped-1', fileName: only?.name ?? '', size: only?.size ?? 0 }] };
        },
      },
    });
    await eventually(() => expect(byTestId('upload-source-file')).not.toBeNull());
    await pick('upload-source-file', [named('site.ifc', 5000)]);
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[0]).toMatchObject({ source: { kind: 'chosen', choiceId: 'dropped-1' }, fileName: 'site.ifc', size: 5000 });
    expect(bridge.requestsOf('uploads:open-spool')).toEqual([]);

    await pick('upload-source-file', [named('from-mail.ifc', 20)]);
    await eventually(() => expect(bridge.requestsOf('uploads:write-spool')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[1]?.source).toEqual({ kind: 'spool', spoolId: [...uploads.spools.keys()][0] });
    expect(asked).toEqual([['site.ifc'], ['from-mail.ifc']]);
  });

  it('in browser mode, opens the page’s file input from the button', async () => {
    await filesPage(mounted);
    await eventually(() => expect(byTestId('upload-add')).not.toBeNull());
    const opened = vi.spyOn(HTMLInputElement.prototype, 'click');
    click('upload-add');
    await eventually(() => expect(opened).toHaveBeenCalled());
    expect((opened.mock.contexts[0] as HTMLInputElement).dataset['testid']).toBe('upload-source-file');
  });

  it('uploads a file named like a source file as its new version once confirmed, and not when cancelled', async () => {
    const { bridge } = await filesPage(mounted, { files: [file(TOWER, 'tower.ifc', BuildingFileStatuses.Mapped)] });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    await pick('upload-source-file', [named('tower.ifc')]);
    await eventually(() => expect(byTestId('upload-replace-cancel')).not.toBeNull());
    expect(document.body.textContent).toContain('This building already has a source file named tower.ifc.');
    click('upload-replace-cancel');
    await flushPromises();
    expect(bridge.requestsOf('uploads:start')).toEqual([]);

    // A closed dialog stays in happy-dom's document (its leave transition never ends): the new one is the last.
    await pick('upload-source-file', [named('tower.ifc')]);
    await eventually(() => expect(all('upload-replace-confirm')).toHaveLength(2));
    all('upload-replace-confirm')[1]!.click();
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[0]?.target).toEqual({ kind: 'building-file', buildingId: BUILDING, fileType: 0, replaceFileId: TOWER });
  });

  it('uploads a new version of a source file from its row, and refuses a file that is no model or spreadsheet', async () => {
    const { bridge } = await filesPage(mounted, { files: [file(TOWER, 'tower.ifc', BuildingFileStatuses.Mapped)] });
    await eventually(() => expect(byTestId('file-new-version')).not.toBeNull());
    const opened = vi.spyOn(HTMLInputElement.prototype, 'click');
    click('file-new-version');
    await eventually(() => expect(opened).toHaveBeenCalled());
    expect((opened.mock.contexts[0] as HTMLInputElement).dataset['testid']).toBe('upload-version-file');
    await pick('upload-version-file', [named('tower-v2.ifc')]);
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[0]).toMatchObject({
      fileName: 'tower-v2.ifc',
      target: { kind: 'building-file', buildingId: BUILDING, fileType: 0, replaceFileId: TOWER },
    });

    click('file-new-version');
    await pick('upload-version-file', [named('tower.pdf')]);
    await eventually(() => expect(text('upload-refused')).toContain('tower.pdf cannot be a new version of a source file'));
    expect(bridge.requestsOf('uploads:start')).toHaveLength(1);
  });

  it('gives new files the tags typed for them', async () => {
    const { bridge } = await filesPage(mounted);
    await eventually(() => expect(byTestId('upload-tags-add')).not.toBeNull());
    click('upload-tags-add');
    const input = await eventually(() => {
      const found = byTestId('upload-tags') as HTMLInputElement | null;
      expect(found).not.toBeNull();
      return found!;
    });
    input.value = 'phase 2';
    input.dispatchEvent(new Event('input'));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flushPromises();
    await pick('upload-source-file', [named('annex.ifc')]);
    await eventually(() => expect(bridge.requestsOf('uploads:start')).toHaveLength(1));
    expect(bridge.requestsOf('uploads:start')[0]?.target).toMatchObject({ tags: ['phase 2'] });
  });
});

describe('the uploads of a building', { timeout: 30_000 }, () => {
  async function oneUpload() {
    const page = await filesPage(mounted);
    await eventually(() => expect(byTestId('upload-source-file')).not.toBeNull());
    await pick('upload-source-file', [named('model.ifc', 4 * 1024 * 1024)]);
    await eventually(() => expect(all('upload-row')).toHaveLength(1));
    const id = all('upload-row')[0]!.dataset['uploadId']!;
    return { ...page, id };
  }

  function row(): HTMLElement {
    return all('upload-row')[0]!;
  }

  function part(testId: string): string {
    return row().querySelector(`[data-testid="${testId}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  }

  it('shows the bytes sent, the rate and the time left as the host reports them', async () => {
    const { uploads, id } = await oneUpload();
    uploads.change(id, { state: 'sending', sentBytes: 1.5 * 1024 * 1024, bytesPerSecond: 512 * 1024, secondsLeft: 5 });
    await eventually(() => expect(part('upload-progress')).toBe('1.5 MiB of 4 MiB · 512 KiB/s · 5 s left'));
    expect(part('upload-state')).toBe('Uploading');
    uploads.change(id, { sentBytes: 3 * 1024 * 1024, secondsLeft: 125 });
    await eventually(() => expect(part('upload-progress')).toBe('3 MiB of 4 MiB · 512 KiB/s · 3 min left'));
    uploads.change(id, { state: 'done', sentBytes: 4 * 1024 * 1024, bytesPerSecond: null, secondsLeft: null, remoteFileId: TOWER, doneAt: '2026-01-02T09:00:00.000Z' });
    await eventually(() => expect(part('upload-state')).toBe('Uploaded'));
    expect(part('upload-progress')).toBe('4 MiB of 4 MiB');
  });

  it('shows an upload that waits for the server as pending with the host’s reason, and cancels one', async () => {
    const { bridge, uploads, id } = await oneUpload();
    uploads.change(id, { state: 'waiting', problem: { code: 'offline', message: 'The server cannot be reached.' } });
    await eventually(() => expect(part('upload-pending')).toBe('Waiting: The server cannot be reached. It starts by itself once the server can be reached.'));
    click('upload-cancel');
    await eventually(() => expect(row().dataset['state']).toBe('cancelled'));
    expect(bridge.requestsOf('uploads:cancel')).toEqual([{ uploadId: id }]);
    expect(part('upload-state')).toBe('Cancelled');
    click('upload-forget');
    await eventually(() => expect(all('upload-row')).toHaveLength(0));
    expect(bridge.requestsOf('uploads:forget')).toEqual([{ uploadId: id }]);
  });

  it('shows why an upload failed with Retry, and asks for the file again when the host no longer has it', async () => {
    const { bridge, uploads, id } = await oneUpload();
    uploads.change(id, { state: 'failed', problem: { code: 'refused', message: 'The server refused the file (413).' } });
    await eventually(() => expect(part('upload-reason')).toBe('The server refused the file (413).'));
    click('upload-retry');
    await eventually(() => expect(bridge.requestsOf('uploads:retry')).toEqual([{ uploadId: id }]));
    await eventually(() => expect(row().dataset['state']).toBe('waiting'));

    uploads.change(id, { state: 'failed', problem: { code: 'source-gone', message: 'The file is gone.' } });
    await eventually(() => expect(byTestId('upload-choose-again')).not.toBeNull());
    expect(byTestId('upload-retry')).toBeNull();
    const opened = vi.spyOn(HTMLInputElement.prototype, 'click');
    click('upload-choose-again');
    await eventually(() => expect(opened).toHaveBeenCalled());
  });

  it('takes the card of an ended upload away when its file is deleted, and when the page is left, keeping a failed one', async () => {
    // The listed file's name differs from the uploads': a name alike would ask whether to upload a new version.
    const page = await filesPage(mounted, { files: [file(TOWER, 'tower-2019.ifc', BuildingFileStatuses.Mapped)] });
    await eventually(() => expect(all('file-row')).toHaveLength(1));
    await pick('upload-source-file', [named('tower.ifc'), named('annex.ifc'), named('broken.ifc')]);
    await eventually(() => expect(all('upload-row')).toHaveLength(3));
    const [tower, annex, broken] = all('upload-row').map((each) => each.dataset['uploadId']!);
    page.uploads.change(tower!, { state: 'done', remoteFileId: TOWER, doneAt: '2026-01-02T09:00:00.000Z' });
    page.uploads.change(annex!, { state: 'done', remoteFileId: '30000000-0000-4000-8000-000000000009', doneAt: '2026-01-02T09:00:00.000Z' });
    page.uploads.change(broken!, { state: 'failed', problem: { code: 'refused', message: 'The server refused the file (413).' } });
    await eventually(() => expect(rows()).toEqual([['tower.ifc', 'done'], ['annex.ifc', 'done'], ['broken.ifc', 'failed']]));

    // A sync finds the file deleted on the server: its upload's card goes with its row.
    await page.sync.db!.files.delete(TOWER);
    await eventually(() => expect(rows()).toEqual([['annex.ifc', 'done'], ['broken.ifc', 'failed']]));

    await page.router.push('/portfolios');
    await page.router.push(`/buildings/${BUILDING}`);
    await eventually(() => expect(byTestId('upload-source-file')).not.toBeNull());
    await flushPromises();
    expect(rows()).toEqual([['broken.ifc', 'failed']]);
  });

  it('once the server took a file, notes Uploaded in its timeline and syncs', async () => {
    const { uploads, sync, id, bridge } = await oneUpload();
    const before = operations(bridge).filter((operation) => operation === 'listBuildings').length;
    uploads.change(id, { state: 'done', sentBytes: 4 * 1024 * 1024, remoteFileId: TOWER, doneAt: '2026-01-02T09:00:00.000Z' });
    await eventually(async () =>
      expect((await sync.db!.fileTimelines.get(TOWER))?.seen).toEqual([{ status: BuildingFileStatuses.Uploaded, at: '2026-01-02T09:00:00.000Z' }]),
    );
    await eventually(() => expect(operations(bridge).filter((operation) => operation === 'listBuildings').length).toBeGreaterThan(before));
  });
});

describe('the import template', { timeout: 30_000 }, () => {
  it('is saved as an XLSX with its header row in the app’s language and a sheet explaining each column', async () => {
    const saved: Array<{ blob: Blob; name: string }> = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push({ blob: blob as Blob, name: '' });
      return 'blob:template';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      const last = saved.at(-1);
      if (last !== undefined) last.name = this.download;
    });
    const { pinia } = await filesPage(mounted);
    useUiStore(pinia).setLocale('nl');
    await eventually(() => expect(byTestId('import-template')).not.toBeNull());
    expect(text('import-template')).toBe('Import template');
    click('import-template');
    await eventually(() => expect(saved.map((each) => each.name)).toEqual(['Import template.xlsx']));

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (saved[0]?.blob ?? new Blob()).arrayBuffer());
    expect(sheetsOf(workbook)).toEqual(importTemplateSheets('nl'));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Elementen', 'Kolommen']);
  });
});
