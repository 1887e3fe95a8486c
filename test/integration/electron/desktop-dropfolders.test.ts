/**
 * Drop folders and passports through the desktop host's Bridge handlers, end to end: a real server with its job worker
 * on 127.0.0.1 as a remote connection, the host's own queued clients, real folders in the temp folder and the IFC
 * fixtures. Only the vault is in memory, and opening a folder or file only records what would be opened.
 */
import { copyFile, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '../../../electron/bridge-dispatch';
import type { DesktopHost } from '../../../electron/desktop';
import type { DropFolderEvent } from '../../../shared/dropfolders';
import {
  ipcEvents,
  isChannelValue,
  type IpcChannel,
  type IpcEvent,
  type IpcRequest,
  type IpcResult,
  type IpcValue,
  type Notice,
} from '../../../shared/ipc';
import type { PassportEvent } from '../../../shared/passports';
import { createTarget, KEY, remoteFiles, SMALL_IFC, startDropServer, tempFolder, type DropServer } from './dropfolders/harness';
import { startTestDesktopHost } from './desktop-harness';
import { waitFor } from './wait-for';

let server: DropServer;
let userDataDir: string;
let host: DesktopHost;
let connectionId: string;
const opened: string[] = [];
const events: { event: IpcEvent; payload: unknown }[] = [];
const folders: string[] = [];

async function call<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcValue<C>>> {
  const result = await dispatchBridgeCall(host.handlers, channel, request, () => undefined);
  if (result.ok) expect(isChannelValue(channel, result.value)).toBe(true);
  return result as IpcResult<IpcValue<C>>;
}

async function value<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcValue<C>> {
  const result = await call(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

async function scratch(prefix: string): Promise<string> {
  const folder = await tempFolder(prefix);
  folders.push(folder);
  return folder;
}

function dropFolderEvents(): DropFolderEvent[] {
  return events.filter((each) => each.event === 'dropfolders:changed').map((each) => each.payload as DropFolderEvent);
}

function passportEvents(): PassportEvent[] {
  return events.filter((each) => each.event === 'passports:changed').map((each) => each.payload as PassportEvent);
}

function notices(): Notice[] {
  return events.filter((each) => each.event === 'notice').map((each) => each.payload as Notice);
}

/** The distinct states a drop folder file went through, in order, from the host's events. */
function statesOf(mappingId: string, relativePath: string): string[] {
  const states: string[] = [];
  for (const event of dropFolderEvents()) {
    if (event.kind !== 'file' || event.file.mappingId !== mappingId || event.file.path !== relativePath) continue;
    if (states.at(-1) !== event.file.state) states.push(event.file.state);
  }
  return states;
}

beforeAll(async () => {
  server = await startDropServer();
  userDataDir = await scratch('cd-desktop-drop-');
  host = await startTestDesktopHost(userDataDir, {
    opened,
    tuning: {
      dropFolders: { stableMs: 300, statusPollMs: 100, retryBaseMs: 100, retryMaxMs: 500, watchPollMs: 100 },
      passportPollMs: 200,
      clientRetry: { attempts: 2, baseDelayMs: 20 },
    },
  });
  host.onEvent((event, payload) => events.push({ event, payload }));
  connectionId = (await host.provision(server.url, KEY)).id;
}, 120_000);

afterAll(async () => {
  await host?.close();
  await server?.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('a drop folder through the Bridge', () => {
  it('uploads a dropped IFC once, follows it to mapped in dropfolders:changed events, and gives notice', async () => {
    const { buildingId } = await createTarget(server, 'Dropped through the bridge');
    const folder = await scratch('cd-desktop-drop-folder-');
    const added = await value('dropfolders:add', {
      folder,
      target: { kind: 'building', buildingId: buildingId as string },
      connectionId,
      activate: true,
    });
    expect(added).toMatchObject({ folder, connectionId, activate: true, paused: false, problem: null });
    expect((await value('dropfolders:list', {})).map((mapping) => mapping.id)).toContain(added.id);

    await copyFile(SMALL_IFC, path.join(folder, 'model.ifc'));
    await waitFor('model.ifc to be mapped', () => (statesOf(added.id, 'model.ifc').at(-1) === 'mapped' ? true : undefined));
    expect(statesOf(added.id, 'model.ifc')).toEqual(['detected', 'hashing', 'uploading', 'processing', 'mapped']);
    expect(notices()).toContainEqual({ kind: 'success', title: 'model.ifc is mapped', message: expect.stringContaining('Activated.') });

    const [file] = await value('dropfolders:files', { mappingId: added.id });
    expect(file).toMatchObject({ path: 'model.ifc', state: 'mapped', buildingId, lastError: null });
    const remote = await remoteFiles(server, buildingId as string);
    expect(remote.map((each) => [each.id, each.fileName, each.status])).toEqual([[file?.fileId, 'model.ifc', 3]]);
  });

  it('pauses, resumes, rescans and opens its folder; an unknown drop folder is not-found', async () => {
    const { buildingId } = await createTarget(server, 'Paused');
    const folder = await scratch('cd-desktop-pause-');
    const mapping = await value('dropfolders:add', { folder, target: { kind: 'building', buildingId: buildingId as string }, connectionId });
    expect(await value('dropfolders:pause', { mappingId: mapping.id })).toMatchObject({ paused: true, watch: 'paused' });
    expect(await value('dropfolders:resume', { mappingId: mapping.id })).toMatchObject({ paused: false, watch: 'watching' });
    expect(await value('dropfolders:update', { mappingId: mapping.id, activate: true })).toMatchObject({ activate: true });
    expect(await value('dropfolders:rescan', {})).toBeNull();
    expect(await value('dropfolders:open-folder', { mappingId: mapping.id })).toBeNull();
    expect(opened).toContain(folder);
    expect(await call('dropfolders:open-folder', { mappingId: 'gone' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await call('dropfolders:retry', { mappingId: mapping.id, path: 'never.ifc' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await value('dropfolders:remove', { mappingId: mapping.id })).toBeNull();
    expect((await value('dropfolders:list', {})).map((each) => each.id)).not.toContain(mapping.id);
  });

  it('refuses a folder that is not one, a connection that does not exist, and a passport folder inside a drop folder', async () => {
    const { buildingId } = await createTarget(server, 'Refused');
    const folder = await scratch('cd-desktop-refused-');
    const target = { kind: 'building' as const, buildingId: buildingId as string };
    expect(await call('dropfolders:add', { folder: 'relative/folder', target, connectionId })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', message: expect.stringContaining('full path') },
    });
    expect(await call('dropfolders:add', { folder, target, connectionId: 'no-such-connection' })).toMatchObject({ ok: false, error: { code: 'not-found' } });

    await value('dropfolders:add', { folder, target, connectionId });
    const inside = path.join(folder, 'passports');
    await mkdir(inside);
    const draft = { connectionId, subject: { kind: 'building' as const, id: buildingId as string }, folder: inside, formats: ['pdf' as const], language: 'en' as const, requestOnMapped: false };
    expect(await call('passports:add-target', draft)).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('would be uploaded') },
    });
  });

  it('refuses a drop folder that holds a passport folder, and a passport folder in a drop folder, when either is reached through a symbolic link', async () => {
    const { buildingId } = await createTarget(server, 'Linked');
    const folder = await scratch('cd-desktop-linked-');
    const passports = path.join(folder, 'exports', 'passports');
    await mkdir(passports, { recursive: true });
    await symlink(path.join(folder, 'exports'), path.join(folder, 'exports-link'));
    const draft = { connectionId, subject: { kind: 'building' as const, id: buildingId as string }, folder: passports, formats: ['pdf' as const], language: 'en' as const, requestOnMapped: false };
    const passportTarget = await value('passports:add-target', draft);
    const target = { kind: 'building' as const, buildingId: buildingId as string };
    expect(await call('dropfolders:add', { folder: path.join(folder, 'exports-link'), target, connectionId })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('would be uploaded') },
    });
    await value('passports:remove-target', { targetId: passportTarget.id });

    const drop = await value('dropfolders:add', { folder: path.join(folder, 'exports'), target, connectionId });
    expect(await call('passports:add-target', { ...draft, folder: path.join(folder, 'exports-link', 'passports') })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('would be uploaded') },
    });
    await value('dropfolders:remove', { mappingId: drop.id });
  });
});

describe('passports through the Bridge', () => {
  it('requested for a building land in the folder as PDF and Excel, with a notice each, and open from the history', async () => {
    const { buildingId } = await createTarget(server, 'Passport building');
    const folder = await scratch('cd-desktop-passports-');
    const target = await value('passports:add-target', {
      connectionId,
      subject: { kind: 'building', id: buildingId as string },
      folder,
      formats: ['pdf', 'xlsx'],
      language: 'en',
      requestOnMapped: false,
    });
    expect(await value('passports:targets', {})).toContainEqual(expect.objectContaining({ id: target.id, folder }));
    const requested = await value('passports:request', { targetId: target.id });
    expect(requested.map((entry) => [entry.format, entry.state, entry.origin])).toEqual([
      ['pdf', 'requested', 'request'],
      ['xlsx', 'requested', 'request'],
    ]);

    const saved = await waitFor('both passports to be saved', async () => {
      const history = await value('passports:history', { targetId: target.id });
      return history.length === 2 && history.every((entry) => entry.state === 'downloaded') ? history : undefined;
    }, 60_000);
    const byFormat = new Map(saved.map((entry) => [entry.format, entry]));
    const pdf = byFormat.get('pdf')?.filePath as string;
    const xlsx = byFormat.get('xlsx')?.filePath as string;
    expect(path.dirname(pdf)).toBe(folder);
    expect(path.basename(pdf)).toMatch(/^Passport building - passport - \d{4}-\d\d-\d\d\.pdf$/);
    expect((await readFile(pdf)).subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect((await readFile(xlsx)).subarray(0, 2).toString('latin1')).toBe('PK');
    for (const file of [pdf, xlsx]) {
      expect(notices()).toContainEqual({ kind: 'success', title: `${path.basename(file)} is saved`, message: expect.stringContaining(folder) });
    }
    expect(passportEvents().some((event) => event.type === 'entry-changed' && event.entry.state === 'generating')).toBe(true);

    expect(await value('passports:open-file', { entryId: byFormat.get('pdf')?.id as string })).toBeNull();
    expect(opened).toContain(pdf);
    await rm(xlsx);
    expect(await call('passports:open-file', { entryId: byFormat.get('xlsx')?.id as string })).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: expect.stringContaining('moved or deleted') },
    });
    expect(await value('passports:update-target', { targetId: target.id, language: 'nl' })).toMatchObject({ language: 'nl' });
    expect(await value('passports:remove-target', { targetId: target.id })).toBeNull();
    expect(await value('passports:history', { targetId: target.id })).toEqual([]);
  }, 90_000);

  it('are requested by themselves when a drop folder file of the building reaches Mapped', async () => {
    const { buildingId } = await createTarget(server, 'On mapped');
    const passportFolder = await scratch('cd-desktop-on-mapped-');
    const target = await value('passports:add-target', {
      connectionId,
      subject: { kind: 'building', id: buildingId as string },
      folder: passportFolder,
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: true,
    });
    // The target's first check notes the files already there; only files mapped after it cause passports.
    await waitFor('the first check of the target', async () =>
      (await value('passports:targets', {})).find((each) => each.id === target.id)?.lastCheckedAt ?? undefined,
    );
    const dropFolder = await scratch('cd-desktop-on-mapped-drop-');
    await value('dropfolders:add', { folder: dropFolder, target: { kind: 'building', buildingId: buildingId as string }, connectionId });
    await copyFile(SMALL_IFC, path.join(dropFolder, 'model.ifc'));

    // The service would wait 30 s after Mapped on its own; the drop folder's mapped file makes it ask at once.
    const [entry] = await waitFor('the passport of the mapped file', async () => {
      const history = await value('passports:history', { targetId: target.id });
      return history[0]?.state === 'downloaded' ? history : undefined;
    }, 25_000);
    expect(entry).toMatchObject({ origin: 'on-mapped', format: 'pdf', sourceFiles: [expect.objectContaining({ name: 'model.ifc' })] });
    expect((await readFile(entry?.filePath as string)).subarray(0, 4).toString('latin1')).toBe('%PDF');
  }, 60_000);
});

describe('a removed connection', () => {
  it('leaves its drop folder and passport folder in place, each saying why it no longer works', async () => {
    const other = await value('connections:add', { name: 'Short-lived', baseUrl: server.url, apiVersion: 'v2.3' });
    await value('vault:set-key', { connectionId: other.id, key: KEY });
    const { buildingId } = await createTarget(server, 'Orphaned');
    const dropFolder = await scratch('cd-desktop-orphan-drop-');
    const passportFolder = await scratch('cd-desktop-orphan-passports-');
    const mapping = await value('dropfolders:add', { folder: dropFolder, target: { kind: 'building', buildingId: buildingId as string }, connectionId: other.id });
    const target = await value('passports:add-target', {
      connectionId: other.id,
      subject: { kind: 'building', id: buildingId as string },
      folder: passportFolder,
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: false,
    });

    await value('connections:remove', { connectionId: other.id });
    const listed = (await value('dropfolders:list', {})).find((each) => each.id === mapping.id);
    expect(listed?.problem).toMatch(/connection was removed/);
    const announced = dropFolderEvents().filter((event) => event.kind === 'folders').at(-1);
    expect(announced?.kind === 'folders' && announced.folders.find((each) => each.id === mapping.id)?.problem).toMatch(/connection was removed/);

    await copyFile(SMALL_IFC, path.join(dropFolder, 'model.ifc'));
    const waiting = await waitFor('the file to wait for its connection', async () => {
      const [file] = await value('dropfolders:files', { mappingId: mapping.id });
      return file?.lastError?.includes('not available') === true ? file : undefined;
    });
    expect(waiting.state).toBe('uploading');
    expect(await remoteFiles(server, buildingId as string)).toEqual([]);

    await waitFor('the passport folder to say so', async () =>
      (await value('passports:targets', {})).find((each) => each.id === target.id)?.lastError?.includes('connection was removed') === true ? true : undefined,
    );
    expect(await value('dropfolders:remove', { mappingId: mapping.id })).toBeNull();
    expect(await value('passports:remove-target', { targetId: target.id })).toBeNull();
  });
});

describe('the host', () => {
  it('has no folder dialog in browser mode: the screen asks for a path instead', async () => {
    expect(await call('dialog:choose-folder', {})).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('path') } });
  });

  it('sends only events that match the contract', () => {
    expect(events.length).toBeGreaterThan(0);
    for (const { event, payload } of events) expect(Value.Check(ipcEvents[event], payload)).toBe(true);
  });

  it('keeps its state under the user data folder', async () => {
    expect(JSON.parse(await readFile(path.join(userDataDir, 'dropfolders', 'drop-folders.json'), 'utf8'))).toMatchObject({ version: 1 });
    expect(JSON.parse(await readFile(path.join(userDataDir, 'passports', 'passports.json'), 'utf8'))).toMatchObject({ version: 1 });
  });
});
