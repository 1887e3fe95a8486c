/**
 * Uploads through the desktop host's Bridge, end to end: a real server with its worker on 127.0.0.1 as a remote
 * connection, the host's own queued clients, the IFC fixtures, files chosen through a stand-in for the native dialog and
 * spools filled in chunks as the page fills them. Every upload is checked byte for byte against what the server holds.
 */
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildingFileStatuses } from '../../../../shared/api/enums';
import type { BuildingFileResponse } from '../../../../shared/api/schemas';
import { SPOOL_CHUNK_BYTES, SPOOL_CHUNKS_IN_FLIGHT, type UploadEntry } from '../../../../shared/uploads';
import type { FileDialogRequest } from '../../../../electron/uploads/choices';
import { ifcFixture } from '../../../fixtures/files';
import { tempFolder } from '../dropfolders/harness';
import { chunksOf, createBuilding, KEY, sha256, startHost, startUploadServer, type TestHost, type SpoolChunkSent, type UploadServer } from './harness';
import { waitFor } from '../wait-for';

const DUPLEX = ifcFixture('duplex.ifc');
const SMALL = ifcFixture('ISSUE_044_test_IFCCOMPOSITEPROFILEDEF.ifc');

let server: UploadServer;
let folder: string;
let app: TestHost;
let connectionId: string;
/** What the stand-in for the open dialog answers next, and what it was asked. */
let dialogAnswer: string[] = [];
const dialogRequests: FileDialogRequest[] = [];
let saveAnswer: string | null = null;

async function choose(file: string): Promise<{ choiceId: string; fileName: string; size: number }> {
  dialogAnswer = [file];
  const [chosen] = await app.value('dialog:choose-files', { kinds: 'source', multiple: false });
  if (chosen === undefined) throw new Error('nothing chosen');
  return chosen;
}

/** Sends a whole file into a new spool, as the page does; answers the spool's id. */
async function spoolOf(bytes: Uint8Array, fileName: string): Promise<string> {
  const { spoolId } = await app.value('uploads:open-spool', { fileName, size: bytes.byteLength });
  for (const chunk of chunksOf(bytes)) await app.value('uploads:write-spool', { spoolId, ...chunk });
  return spoolId;
}

function files(buildingId: string): Promise<BuildingFileResponse[]> {
  return server.request<BuildingFileResponse[]>('GET', `/buildings/${buildingId}/files`);
}

function uploadsInto(fileId: string | null): string[] {
  return server.uploads.filter((url) => fileId !== null && url.includes(`/files/${fileId}/upload/`));
}

beforeAll(async () => {
  server = await startUploadServer();
  folder = await tempFolder('cd-uploads-');
  app = await startHost(await tempFolder('cd-uploads-ud-'), {
    chooseFiles: async (request) => {
      dialogRequests.push(request);
      return dialogAnswer;
    },
    chooseSaveTarget: async () => saveAnswer,
  });
  connectionId = (await app.host.provision(server.url, KEY)).id;
}, 120_000);

afterAll(async () => {
  await app?.host.close();
  await server?.close();
  for (const each of [folder, app?.userDataDir]) if (each !== undefined) await rm(each, { recursive: true, force: true });
});

describe('an upload of a chosen file', () => {
  it('creates the source file, sends the model and downloads back the same bytes', async () => {
    const { buildingId } = await createBuilding(server, 'Chosen');
    const chosen = await choose(DUPLEX);
    expect(chosen).toEqual({ choiceId: expect.any(String), fileName: 'duplex.ifc', size: (await stat(DUPLEX)).size });
    expect(dialogRequests.at(-1)).toEqual({ title: 'Choose a file', filters: [{ name: 'Models and spreadsheets', extensions: ['ifc', 'xlsx', 'csv'] }], multiple: false });
    expect(JSON.stringify(chosen)).not.toContain(path.dirname(DUPLEX));

    const started = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0, tags: ['model'] },
      source: { kind: 'chosen', choiceId: chosen.choiceId },
      fileName: chosen.fileName,
      size: chosen.size,
    });
    expect(started).toMatchObject({ state: 'waiting', remoteFileId: null, sentBytes: 0, problem: null, doneAt: null });
    const done = await app.until(started.id, 'done', (entry) => entry.state === 'done');
    expect(app.statesOf(started.id)).toEqual(['waiting', 'creating', 'sending', 'done']);
    expect(done).toMatchObject({ sentBytes: chosen.size, problem: null, doneAt: expect.any(String) });

    const remote = await files(buildingId);
    expect(remote.map((file) => [file.id, file.fileName, file.type, file.fileSize, file.tags])).toEqual([[done.remoteFileId, 'duplex.ifc', 0, chosen.size, ['model']]]);
    expect(uploadsInto(done.remoteFileId)).toHaveLength(1);

    // Downloaded back through the host's save dialog: into the chosen path, through a temporary file beside it.
    saveAnswer = path.join(folder, 'duplex copy.ifc');
    const saved = await app.value('files:download', { connectionId, buildingId, fileId: done.remoteFileId as string, fileName: 'duplex.ifc' });
    expect(saved).toEqual({ path: saveAnswer, bytes: chosen.size });
    expect((await readFile(saveAnswer)).equals(await readFile(DUPLEX))).toBe(true);
    saveAnswer = null;
    expect(await app.value('files:download', { connectionId, buildingId, fileId: done.remoteFileId as string, fileName: 'duplex.ifc' })).toBeNull();
  });

  it('adds a new version into an existing source file, and refuses one while the last is still being processed', async () => {
    const { buildingId } = await createBuilding(server, 'New version');
    const first = await choose(SMALL);
    const original = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0 },
      source: { kind: 'chosen', choiceId: first.choiceId },
      fileName: 'model.ifc',
      size: first.size,
    });
    const fileId = (await app.until(original.id, 'the first version done', (entry) => entry.state === 'done')).remoteFileId as string;

    // Straight after its upload the file is being processed: a new version is refused, in plain words.
    const early = await choose(DUPLEX);
    const refused = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0, replaceFileId: fileId },
      source: { kind: 'chosen', choiceId: early.choiceId },
      fileName: 'model.ifc',
      size: early.size,
    });
    const failed = await app.until(refused.id, 'refused while processing', (entry) => entry.state === 'failed');
    expect(failed.problem).toEqual({ code: 'refused', message: 'The file on the server is still being processed; a new version can be added once that has ended.' });

    await waitFor('the first version mapped', async () => {
      const [file] = await files(buildingId);
      return file?.status === BuildingFileStatuses.Mapped ? file : undefined;
    });
    const again = await app.value('uploads:retry', { uploadId: refused.id });
    expect(again).toMatchObject({ state: 'waiting', problem: null, remoteFileId: fileId });
    const done = await app.until(refused.id, 'the new version done', (entry) => entry.state === 'done');
    expect(app.statesOf(refused.id).slice(-2)).toEqual(['sending', 'done']);
    expect(done.remoteFileId).toBe(fileId);
    expect((await files(buildingId)).map((file) => [file.id, file.fileSize])).toEqual([[fileId, early.size]]);
    expect(sha256(await server.content('buildings', buildingId, fileId))).toBe(sha256(await readFile(DUPLEX)));
    expect(uploadsInto(fileId)).toHaveLength(2);
  }, 120_000);

  it('refuses a choice the dialog did not hand out, and a size other than the chosen file’s', async () => {
    const { buildingId } = await createBuilding(server, 'Unknown choice');
    const target = { kind: 'building-file' as const, buildingId, fileType: 0 as const };
    const unknown = await app.call('uploads:start', { connectionId, target, source: { kind: 'chosen', choiceId: '/etc/passwd' }, fileName: 'passwd', size: 10 });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringContaining('choose it again') } });
    const chosen = await choose(SMALL);
    const wrongSize = await app.call('uploads:start', { connectionId, target, source: { kind: 'chosen', choiceId: chosen.choiceId }, fileName: 'x.ifc', size: 1 });
    expect(wrongSize).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    dialogAnswer = [];
    expect(await app.value('dialog:choose-files', { kinds: 'any', multiple: true })).toEqual([]);
    expect(await files(buildingId)).toEqual([]);
  });

  it('ends as failed, in plain words, when the server refuses the file or the connection has no key', async () => {
    const chosen = await choose(SMALL);
    const missing = '00000000-0000-4000-8000-000000000000';
    const refused = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId: missing, fileType: 1 },
      source: { kind: 'chosen', choiceId: chosen.choiceId },
      fileName: 'note.ifc',
      size: chosen.size,
    });
    const failed = await app.until(refused.id, 'refused', (entry) => entry.state === 'failed');
    expect(failed.problem).toEqual({ code: 'refused', message: 'The building no longer exists on the server.' });

    const keyless = await app.value('connections:add', { name: 'No key', baseUrl: server.url, apiVersion: 'v2.3' });
    const { buildingId } = await createBuilding(server, 'No key');
    const noKey = await app.value('uploads:start', {
      connectionId: keyless.id,
      target: { kind: 'building-file', buildingId, fileType: 0 },
      source: { kind: 'chosen', choiceId: chosen.choiceId },
      fileName: 'model.ifc',
      size: chosen.size,
    });
    const withoutKey = await app.until(noKey.id, 'failed for its key', (entry) => entry.state === 'failed');
    expect(withoutKey.problem?.code).toBe('no-key');
    for (const entry of [failed, withoutKey]) expect(entry.problem?.message).not.toMatch(/[0-9a-f]{8}-|[a-z][A-Z]\w*File|Error:|at /);
    expect(await files(buildingId)).toEqual([]);
  });
});

describe('an upload from a spool the page fills', () => {
  it('starts before the last chunk arrived, waits for it, and the server holds the same bytes', async () => {
    const { buildingId } = await createBuilding(server, 'Spooled');
    const bytes = await readFile(DUPLEX);
    const chunks = chunksOf(bytes);
    expect(chunks.length).toBe(3);
    const { spoolId } = await app.value('uploads:open-spool', { fileName: 'duplex.ifc', size: bytes.byteLength });
    for (const chunk of chunks.slice(0, -1)) expect(await app.value('uploads:write-spool', { spoolId, ...chunk })).toEqual({ written: chunk.offset + SPOOL_CHUNK_BYTES });
    const started = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0 },
      source: { kind: 'spool', spoolId },
      fileName: 'duplex.ifc',
      size: bytes.byteLength,
    });
    // It sends what is there and waits for the rest.
    const sending = await app.until(started.id, 'sending', (entry) => entry.state === 'sending');
    expect(sending.remoteFileId).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.changes.findLast((entry) => entry.id === started.id)?.state).toBe('sending');

    const last = chunks.at(-1) as SpoolChunkSent;
    expect(await app.value('uploads:write-spool', { spoolId, ...last })).toEqual({ written: bytes.byteLength });
    const done = await app.until(started.id, 'done', (entry) => entry.state === 'done');
    expect(sha256(await server.content('buildings', buildingId, done.remoteFileId as string))).toBe(sha256(bytes));
    expect(uploadsInto(done.remoteFileId)).toHaveLength(1);
    // The spool of an upload that is done is deleted.
    await expect(stat(path.join(app.userDataDir, 'uploads', 'spool', spoolId))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await app.call('uploads:write-spool', { spoolId, offset: bytes.byteLength, data: new Uint8Array(3) })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('takes several chunks on their way at once, in order, and refuses chunks out of order, too long or not bytes', async () => {
    const bytes = Buffer.alloc(3 * SPOOL_CHUNK_BYTES + 10, 7);
    const { spoolId } = await app.value('uploads:open-spool', { fileName: 'blocks.bin', size: bytes.byteLength });
    const [first, second, third, fourth] = chunksOf(bytes) as [SpoolChunkSent, SpoolChunkSent, SpoolChunkSent, SpoolChunkSent];
    expect(SPOOL_CHUNKS_IN_FLIGHT).toBeGreaterThanOrEqual(3);
    const answers = await Promise.all([first, second, third].map((chunk) => app.value('uploads:write-spool', { spoolId, ...chunk })));
    expect(answers).toEqual([{ written: SPOOL_CHUNK_BYTES }, { written: 2 * SPOOL_CHUNK_BYTES }, { written: 3 * SPOOL_CHUNK_BYTES }]);

    expect(await app.call('uploads:write-spool', { spoolId, offset: 0, data: first.data })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: `The chunk starts at byte 0, but byte ${3 * SPOOL_CHUNK_BYTES} comes next: chunks must come in order.` },
    });
    expect(await app.call('uploads:write-spool', { spoolId, offset: fourth.offset, data: new Uint8Array(11) })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringContaining('past the') },
    });
    expect(await app.call('uploads:write-spool', { spoolId, offset: fourth.offset, data: 'not bytes' as unknown as Uint8Array })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    const tooLarge = new Uint8Array(SPOOL_CHUNK_BYTES + 2);
    expect(await app.call('uploads:write-spool', { spoolId, offset: fourth.offset, data: tooLarge })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringContaining(`between 1 and ${SPOOL_CHUNK_BYTES} bytes`) },
    });
    expect(await app.call('uploads:write-spool', { spoolId: 'no-such-spool', offset: 0, data: new Uint8Array(3) })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await app.value('uploads:write-spool', { spoolId, ...fourth })).toEqual({ written: bytes.byteLength });
    expect((await readFile(path.join(app.userDataDir, 'uploads', 'spool', spoolId))).equals(bytes)).toBe(true);
  });

  it('stores a portfolio’s document', async () => {
    const { portfolioId } = await createBuilding(server, 'Portfolio document');
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200_000, 1)]);
    const spoolId = await spoolOf(bytes, 'report.pdf');
    const started = await app.value('uploads:start', { connectionId, target: { kind: 'portfolio-file', portfolioId }, source: { kind: 'spool', spoolId }, fileName: 'report.pdf', size: bytes.byteLength });
    const done = await app.until(started.id, 'done', (entry) => entry.state === 'done');
    const [file] = await server.request<{ id: string; fileName: string; fileSize: number }[]>('GET', `/portfolios/${portfolioId}/files`);
    expect(file).toMatchObject({ id: done.remoteFileId, fileName: 'report.pdf', fileSize: bytes.byteLength });
    expect((await server.content('portfolios', portfolioId, done.remoteFileId as string)).equals(bytes)).toBe(true);
  });

  it('reports progress at most four times a second, with the rate and the time left', async () => {
    const { buildingId } = await createBuilding(server, 'Progress');
    const bytes = Buffer.alloc(8 * SPOOL_CHUNK_BYTES, 3);
    const { spoolId } = await app.value('uploads:open-spool', { fileName: 'slow.ifc', size: bytes.byteLength });
    const started = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 1 },
      source: { kind: 'spool', spoolId },
      fileName: 'slow.ifc',
      size: bytes.byteLength,
    });
    // A page sending slowly paces the upload: about two seconds.
    for (const chunk of chunksOf(bytes)) {
      await app.value('uploads:write-spool', { spoolId, ...chunk });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await app.until(started.id, 'done', (entry) => entry.state === 'done');
    const moving = app.changes.flatMap((entry, index) =>
      entry.id === started.id && entry.state === 'sending' && entry.sentBytes > 0 && entry.sentBytes < bytes.byteLength ? [{ entry, at: app.changedAt[index] as number }] : [],
    );
    expect(moving.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < moving.length; index += 1) {
      expect((moving[index]?.at as number) - (moving[index - 1]?.at as number)).toBeGreaterThanOrEqual(245);
    }
    const sent = moving.map(({ entry }) => entry.sentBytes);
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    const rated = moving.map(({ entry }) => entry).filter((entry) => entry.bytesPerSecond !== null);
    expect(rated.length).toBeGreaterThan(0);
    for (const entry of rated) {
      expect(entry.bytesPerSecond).toBeGreaterThan(0);
      expect(entry.secondsLeft).toBeGreaterThanOrEqual(0);
    }
  });

  it('cancels: the request stops, the empty file it created is deleted, and a retry sends it once the bytes are there', async () => {
    const { buildingId } = await createBuilding(server, 'Cancelled');
    const bytes = await readFile(DUPLEX);
    const [first, ...rest] = chunksOf(bytes);
    const { spoolId } = await app.value('uploads:open-spool', { fileName: 'duplex.ifc', size: bytes.byteLength });
    await app.value('uploads:write-spool', { spoolId, ...(first as SpoolChunkSent) });
    const started = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0 },
      source: { kind: 'spool', spoolId },
      fileName: 'duplex.ifc',
      size: bytes.byteLength,
    });
    const sending = await app.until(started.id, 'sending', (entry) => entry.state === 'sending');
    await waitFor('the upload request at the server', () => (uploadsInto(sending.remoteFileId).length === 1 ? true : undefined));
    expect(await files(buildingId)).toHaveLength(1);
    expect(await app.call('uploads:forget', { uploadId: started.id })).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const cancelled = await app.value('uploads:cancel', { uploadId: started.id });
    expect(cancelled).toMatchObject({ state: 'cancelled', problem: null });
    await waitFor('the empty file deleted', async () => ((await files(buildingId)).length === 0 ? true : undefined));
    await app.until(started.id, 'its remote file forgotten', (entry) => entry.remoteFileId === null);
    expect(uploadsInto(sending.remoteFileId)).toHaveLength(1);
    expect(await app.call('uploads:cancel', { uploadId: started.id })).toMatchObject({ ok: false, error: { code: 'conflict' } });

    // The spool is kept for a retry; the page sends the rest, and the retry makes a new file.
    for (const chunk of rest) await app.value('uploads:write-spool', { spoolId, ...chunk });
    await app.value('uploads:retry', { uploadId: started.id });
    const done = await app.until(started.id, 'done after the retry', (entry) => entry.state === 'done');
    expect(done.remoteFileId).not.toBe(sending.remoteFileId);
    const remote = await files(buildingId);
    expect(remote.map((file) => file.id)).toEqual([done.remoteFileId]);
    expect(sha256(await server.content('buildings', buildingId, done.remoteFileId as string))).toBe(sha256(bytes));
    expect(await app.call('uploads:retry', { uploadId: started.id })).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('fails with source-gone when the spool file vanished', async () => {
    const { buildingId } = await createBuilding(server, 'Vanished');
    const bytes = await readFile(SMALL);
    const spoolId = await spoolOf(bytes, 'model.ifc');
    await rm(path.join(app.userDataDir, 'uploads', 'spool', spoolId));
    const started = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0 },
      source: { kind: 'spool', spoolId },
      fileName: 'model.ifc',
      size: bytes.byteLength,
    });
    const failed = await app.until(started.id, 'failed', (entry) => entry.state === 'failed');
    expect(failed.problem).toEqual({ code: 'source-gone', message: 'The file kept for this upload was deleted; add the file again.' });
    expect(await files(buildingId)).toEqual([]);
    expect(await app.call('uploads:retry', { uploadId: started.id })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('lists uploads newest first, per connection, and forgets ended ones', async () => {
    const all = await app.value('uploads:list', {});
    expect(all.length).toBeGreaterThan(3);
    const created = all.map((entry) => entry.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const mine = await app.value('uploads:list', { connectionId });
    expect(mine.every((entry: UploadEntry) => entry.connectionId === connectionId)).toBe(true);
    const ended = mine.find((entry) => entry.state === 'done') as UploadEntry;
    expect(await app.value('uploads:forget', { uploadId: ended.id })).toBeNull();
    expect((await app.value('uploads:list', {})).map((entry) => entry.id)).not.toContain(ended.id);
    expect(await app.call('uploads:forget', { uploadId: ended.id })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });
});

describe('the ledger on disk', () => {
  it('keeps every upload that is not forgotten, with its version', async () => {
    const ledger = JSON.parse(await readFile(path.join(app.userDataDir, 'uploads', 'uploads.json'), 'utf8')) as { version: number; uploads: { entry: UploadEntry }[] };
    expect(ledger.version).toBe(1);
    expect(ledger.uploads.map((record) => record.entry.id).reverse()).toEqual((await app.value('uploads:list', {})).map((entry) => entry.id));
  });
});
