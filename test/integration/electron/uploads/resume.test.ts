/**
 * Uploads across what happens to a desktop app: a server that is away, the host stopped in the middle of an upload (its
 * request half sent, or sent in full with the answer lost) and started again on the same user data, a page that stops
 * sending, and a ledger that cannot be read. A real server counts what reaches it, so "exactly once" is counted there.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../../electron/vault';
import { BuildingFileStatuses } from '../../../../shared/api/enums';
import type { BuildingFileResponse } from '../../../../shared/api/schemas';
import { SPOOL_CHUNK_BYTES, type UploadEntry } from '../../../../shared/uploads';
import { ifcFixture } from '../../../fixtures/files';
import { tempFolder } from '../dropfolders/harness';
import {
  chunksOf,
  createBuilding,
  KEY,
  randomFile,
  sha256,
  startGateProxy,
  startHost,
  startUploadServer,
  type GateProxy,
  type TestHost,
  type SpoolChunkSent,
  type UploadServer,
} from './harness';
import { waitFor } from '../wait-for';

const LARGE_BYTES = 32 * 1024 * 1024;
/** Each test starts one to three hosts, each with its Local workspace server: seconds apiece on a busy machine. */
const TEST_TIMEOUT_MS = 180_000;

let server: UploadServer;
let proxy: GateProxy;
let folder: string;
let large: string;
const hosts: TestHost[] = [];
const folders: string[] = [];

async function scratch(prefix: string): Promise<string> {
  const made = await tempFolder(prefix);
  folders.push(made);
  return made;
}

/** The key vault of each user-data folder: it outlives a restart of the host, as the one on disk does. */
const vaults = new Map<string, MemoryVault>();

/** Starts a host that answers the open dialog with `large`; it is closed at the end if a test does not close it. */
async function hostOn(userDataDir: string, tuning: { stalledMs?: number; unclaimedMs?: number; retryBaseMs?: number; retryMaxMs?: number } = {}): Promise<TestHost> {
  const vault = vaults.get(userDataDir) ?? new MemoryVault();
  vaults.set(userDataDir, vault);
  const started = await startHost(userDataDir, { vault, chooseFiles: async () => [large], tuning: { uploads: tuning } });
  hosts.push(started);
  return started;
}

async function closeHost(host: TestHost): Promise<void> {
  hosts.splice(hosts.indexOf(host), 1);
  await host.host.close();
}

function files(buildingId: string): Promise<BuildingFileResponse[]> {
  return server.request<BuildingFileResponse[]>('GET', `/buildings/${buildingId}/files`);
}

function uploadsInto(fileId: string | null): string[] {
  return server.uploads.filter((url) => fileId !== null && url.includes(`/files/${fileId}/upload/`));
}

/** Starts an upload of the large file chosen in the dialog into a new source file of the building. */
async function uploadLarge(app: TestHost, connectionId: string, buildingId: string): Promise<UploadEntry> {
  const [chosen] = await app.value('dialog:choose-files', { kinds: 'any', multiple: false });
  if (chosen === undefined) throw new Error('nothing chosen');
  return app.value('uploads:start', {
    connectionId,
    target: { kind: 'building-file', buildingId, fileType: 0 },
    source: { kind: 'chosen', choiceId: chosen.choiceId },
    fileName: 'large.ifc',
    size: chosen.size,
  });
}

beforeAll(async () => {
  server = await startUploadServer();
  proxy = await startGateProxy(server.port);
  folder = await scratch('cd-uploads-resume-');
  large = path.join(folder, 'large.ifc');
  await randomFile(large, LARGE_BYTES);
}, 120_000);

afterAll(async () => {
  for (const each of hosts.splice(0)) await each.host.close();
  await proxy?.close();
  await server?.close();
  for (const each of folders) await rm(each, { recursive: true, force: true });
});

describe('uploads across restarts and outages', () => {
  it('sets an unreadable ledger aside; without dialogs (browser mode) the dialog and download channels answer unavailable', async () => {
    const userDataDir = await scratch('cd-uploads-unreadable-');
    await mkdir(path.join(userDataDir, 'uploads'), { recursive: true });
    await writeFile(path.join(userDataDir, 'uploads', 'uploads.json'), '{"version": 1, "uploads": [');
    const app = await startHost(userDataDir);
    hosts.push(app);
    expect(app.logged).toContainEqual(expect.stringMatching(/^The upload ledger could not be read \(it is not JSON\) and was moved aside to .*uploads\.json\.invalid-/));
    const names = await readdir(path.join(userDataDir, 'uploads'));
    expect(names.filter((name) => name.startsWith('uploads.json.invalid-'))).toHaveLength(1);
    expect(await app.value('uploads:list', {})).toEqual([]);

    const connectionId = (await app.host.provision(server.url, KEY)).id;
    expect(await app.call('dialog:choose-files', { kinds: 'source', multiple: true })).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    const download = { connectionId, buildingId: '00000000-0000-4000-8000-000000000000', fileId: '00000000-0000-4000-8000-000000000001', fileName: 'x.ifc' };
    expect(await app.call('files:download', download)).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    await closeHost(app);
  }, TEST_TIMEOUT_MS);

  it('waits while the server is away, goes as soon as a call to it succeeds again, and reaches it exactly once', async () => {
    const app = await hostOn(await scratch('cd-uploads-offline-'), { retryBaseMs: 60_000, retryMaxMs: 60_000 });
    const connectionId = (await app.host.provision(server.url, KEY)).id;
    const { buildingId } = await createBuilding(server, 'Offline');
    const bytes = await readFile(ifcFixture('duplex.ifc'));
    const creates = server.creates.length;
    const uploads = server.uploads.length;

    await server.stop();
    try {
      const { spoolId } = await app.value('uploads:open-spool', { fileName: 'duplex.ifc', size: bytes.byteLength });
      for (const chunk of chunksOf(bytes)) await app.value('uploads:write-spool', { spoolId, ...chunk });
      const started = await app.value('uploads:start', {
        connectionId,
        target: { kind: 'building-file', buildingId, fileType: 0 },
        source: { kind: 'spool', spoolId },
        fileName: 'duplex.ifc',
        size: bytes.byteLength,
      });
      const waiting = await app.until(started.id, 'waiting offline', (entry) => entry.problem?.code === 'offline');
      expect(waiting).toMatchObject({ state: 'waiting', remoteFileId: null, problem: { code: 'offline', message: 'The server cannot be reached; the upload starts by itself when it can.' } });
    } finally {
      await server.restart();
    }
    const [upload] = await app.value('uploads:list', { connectionId });
    if (upload === undefined) throw new Error('the upload is not listed');
    // Its backoff is a minute: a call to the server that succeeds is what starts it.
    expect(await app.value('api:request', { connectionId, operationId: 'getCurrentAccount' })).toMatchObject({ kind: 'ok' });
    const done = await app.until(upload.id, 'done once the server answers', (entry) => entry.state === 'done', 20_000);
    expect(app.statesOf(upload.id)).toEqual(['waiting', 'creating', 'waiting', 'creating', 'sending', 'done']);
    expect(server.creates.length - creates).toBe(1);
    expect(server.uploads.length - uploads).toBe(1);
    expect((await files(buildingId)).map((file) => file.id)).toEqual([done.remoteFileId]);
    expect(sha256(await server.content('buildings', buildingId, done.remoteFileId as string))).toBe(sha256(bytes));
    await closeHost(app);
  }, TEST_TIMEOUT_MS);

  it('carries on after a restart in the middle of sending, into the same file, and never sends a done upload again', async () => {
    const userDataDir = await scratch('cd-uploads-restart-');
    const first = await hostOn(userDataDir);
    const connectionId = (await first.host.provision(proxy.url, KEY)).id;
    const { buildingId } = await createBuilding(server, 'Restarted');
    const { buildingId: otherBuildingId } = await createBuilding(server, 'Restarted spool');

    proxy.holdUploads('large.ifc');
    const started = await uploadLarge(first, connectionId, buildingId);
    await proxy.uploadHeld();
    const sending = await first.until(started.id, 'sending', (entry) => entry.state === 'sending');
    // And a page that had sent one chunk of three when the app stopped.
    const partial = Buffer.alloc(2 * 1024 * 1024 + 1, 9);
    const { spoolId } = await first.value('uploads:open-spool', { fileName: 'partial.ifc', size: partial.byteLength });
    await first.value('uploads:write-spool', { spoolId, ...(chunksOf(partial)[0] as SpoolChunkSent) });
    const spooled = await first.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId: otherBuildingId, fileType: 0 },
      source: { kind: 'spool', spoolId },
      fileName: 'partial.ifc',
      size: partial.byteLength,
    });
    await first.until(spooled.id, 'the partial spool sending', (entry) => entry.state === 'sending');
    const fileId = sending.remoteFileId as string;
    await closeHost(first);
    proxy.releaseUploads();
    expect((await files(buildingId)).map((file) => [file.id, file.status])).toEqual([[fileId, BuildingFileStatuses.Creating]]);
    expect(uploadsInto(fileId)).toHaveLength(1);
    const ledger = JSON.parse(await readFile(path.join(userDataDir, 'uploads', 'uploads.json'), 'utf8')) as { uploads: { entry: UploadEntry }[] };
    expect(ledger.uploads.map((record) => [record.entry.id, record.entry.state, record.entry.remoteFileId])).toContainEqual([started.id, 'sending', fileId]);
    const stray = path.join(userDataDir, 'uploads', 'spool', 'left-by-nobody');
    await writeFile(stray, 'stray');

    const second = await hostOn(userDataDir);
    const done = await second.until(started.id, 'done after the restart', (entry) => entry.state === 'done');
    expect(done.remoteFileId).toBe(fileId);
    expect(uploadsInto(fileId)).toHaveLength(2);
    expect((await files(buildingId)).map((file) => [file.id, file.fileSize])).toEqual([[fileId, LARGE_BYTES]]);
    expect(sha256(await server.content('buildings', buildingId, fileId))).toBe(sha256(await readFile(large)));
    // The spool that had not arrived in full cannot be sent, and is gone with its stray neighbour.
    const lost = await second.until(spooled.id, 'the partial spool failed', (entry) => entry.state === 'failed');
    expect(lost.problem).toEqual({ code: 'source-gone', message: 'The file had not arrived completely when the app stopped; add it again.' });
    await expect(stat(stray)).rejects.toMatchObject({ code: 'ENOENT' });
    await waitFor('the partial spool deleted', async () => ((await stat(path.join(userDataDir, 'uploads', 'spool', spoolId)).catch(() => undefined)) === undefined ? true : undefined));
    await closeHost(second);

    const third = await hostOn(userDataDir);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(third.changes.filter((entry) => entry.id === started.id)).toEqual([]);
    expect((await third.value('uploads:list', {})).find((entry) => entry.id === started.id)).toMatchObject({ state: 'done', remoteFileId: fileId });
    expect(uploadsInto(fileId)).toHaveLength(2);
    await closeHost(third);
  }, TEST_TIMEOUT_MS);

  it('takes an upload whose answer was lost as done after a restart, without sending it again', async () => {
    const userDataDir = await scratch('cd-uploads-lost-answer-');
    const first = await hostOn(userDataDir);
    const connectionId = (await first.host.provision(proxy.url, KEY)).id;
    const { buildingId } = await createBuilding(server, 'Answer lost');
    proxy.holdUploads('large.ifc');
    const started = await uploadLarge(first, connectionId, buildingId);
    await proxy.uploadHeld();
    const fileId = (await first.until(started.id, 'sending', (entry) => entry.state === 'sending')).remoteFileId as string;
    proxy.holdAnswers();
    proxy.releaseUploads();
    await waitFor('the server to have the file', async () => {
      const [file] = await files(buildingId);
      return file !== undefined && file.status !== BuildingFileStatuses.Creating ? file : undefined;
    });
    await closeHost(first);
    proxy.releaseAnswers();

    const second = await hostOn(userDataDir);
    const done = await second.until(started.id, 'done after the restart', (entry) => entry.state === 'done');
    expect(done.remoteFileId).toBe(fileId);
    // Found landed: nothing is created or sent again.
    expect(second.statesOf(started.id)).toEqual(['done']);
    expect(uploadsInto(fileId)).toHaveLength(1);
    expect(sha256(await server.content('buildings', buildingId, fileId))).toBe(sha256(await readFile(large)));
    await closeHost(second);
  }, TEST_TIMEOUT_MS);

  it('fails an upload whose page stopped sending, and deletes a spool nobody started an upload for', async () => {
    const app = await hostOn(await scratch('cd-uploads-stalled-'), { stalledMs: 800, unclaimedMs: 800 });
    const connectionId = (await app.host.provision(server.url, KEY)).id;
    const { buildingId } = await createBuilding(server, 'Stalled');
    const bytes = Buffer.alloc(2 * 1024 * 1024 + 1, 5);
    const [firstChunk] = chunksOf(bytes) as [SpoolChunkSent];
    const { spoolId } = await app.value('uploads:open-spool', { fileName: 'stalled.ifc', size: bytes.byteLength });
    await app.value('uploads:write-spool', { spoolId, ...firstChunk });
    const started = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0 },
      source: { kind: 'spool', spoolId },
      fileName: 'stalled.ifc',
      size: bytes.byteLength,
    });
    const failed = await app.until(started.id, 'failed', (entry) => entry.state === 'failed');
    expect(failed.problem).toEqual({ code: 'source-gone', message: 'stalled.ifc stopped arriving before all of it was here; add it again.' });
    // The empty file it made on the server goes too: nothing can fill it.
    await waitFor('its empty file deleted', async () => ((await files(buildingId)).length === 0 ? true : undefined));

    const { spoolId: unclaimed } = await app.value('uploads:open-spool', { fileName: 'forgotten.ifc', size: bytes.byteLength });
    await app.value('uploads:write-spool', { spoolId: unclaimed, ...firstChunk });
    await waitFor('the unclaimed spool deleted', async () => ((await stat(path.join(app.userDataDir, 'uploads', 'spool', unclaimed)).catch(() => undefined)) === undefined ? true : undefined));
    expect(await app.call('uploads:write-spool', { spoolId: unclaimed, offset: SPOOL_CHUNK_BYTES, data: new Uint8Array(3) })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    await closeHost(app);
  }, TEST_TIMEOUT_MS);
});
