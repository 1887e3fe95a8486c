import { chmod, link, mkdir, mkdtemp, readdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAPPINGS_FILE_NAME } from '../../../../electron/dropfolders/mapping-store';
import type { DropFolderEvent } from '../../../../shared/dropfolders';
import { startDropFolderService, type DropFolderService, type DropFolderServiceOptions } from '../../../../electron/dropfolders/service';
import { BridgeError } from '../../../../shared/ipc';
import { MAX_UPLOAD_BYTES } from '../../../../shared/uploads';

const BUILDING = { kind: 'building', buildingId: '0b6c8f4e-3d7a-4e59-9a43-6a0f1c2d3e4f' } as const;
const TIMING = { stableMs: 50, statusPollMs: 50, retryBaseMs: 20, retryMaxMs: 100, rescanIntervalMs: 60_000 };

let root: string;
let stateDir: string;
let services: DropFolderService[];

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cd-drop-service-'));
  stateDir = path.join(root, 'state');
  services = [];
});
afterEach(async () => {
  for (const service of services) await service.close();
  await rm(root, { recursive: true, force: true });
});

/** A service with no connection at all: uploads wait for one, which is all these tests need. */
async function start(events: DropFolderEvent[] = [], options: Partial<DropFolderServiceOptions> = {}): Promise<DropFolderService> {
  const service = await startDropFolderService({ stateDir, clientFor: () => undefined, onEvent: (event) => events.push(event), timing: TIMING, ...options });
  services.push(service);
  return service;
}

async function folder(name: string): Promise<string> {
  const created = path.join(root, name);
  await mkdir(created, { recursive: true });
  return created;
}

async function until<T>(probe: () => T | undefined): Promise<T> {
  for (let tries = 0; tries < 400; tries += 1) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('Timed out.');
}

function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof BridgeError ? error.code : 'not a BridgeError'),
  );
}

describe('startDropFolderService', () => {
  it('refuses a folder that does not exist, one that overlaps a mapped folder, and its own state folder', async () => {
    const service = await start();
    const drop = await folder('drop');
    await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    expect(await codeOf(service.add({ folder: path.join(root, 'missing'), target: BUILDING, connectionId: 'c' }))).toBe('invalid-request');
    expect(await codeOf(service.add({ folder: await folder('drop/inner'), target: BUILDING, connectionId: 'c' }))).toBe('conflict');
    expect(await codeOf(service.add({ folder: root, target: BUILDING, connectionId: 'c' }))).toBe('conflict');
    expect(await codeOf(service.add({ folder: await folder('state/inside'), target: BUILDING, connectionId: 'c' }))).toBe('invalid-request');
    expect(await codeOf(service.add({ folder: drop, target: { kind: 'building', buildingId: 'not-a-uuid' }, connectionId: 'c' }))).toBe('invalid-request');
    expect(service.list()).toHaveLength(1);
  });

  it('keeps its mappings, with their settings and pauses, across a restart', async () => {
    const first = await start();
    const added = await first.add({ folder: await folder('drop'), target: BUILDING, connectionId: 'c', activate: true, fileTypes: ['.ifc'] });
    expect(added).toMatchObject({ activate: true, fileTypes: ['.ifc'], informationFiles: false, polling: false, paused: false, watch: 'watching', problem: null });
    await first.pause(added.id);
    await first.update(added.id, { informationFiles: true });
    await first.close();

    const second = await start();
    expect(second.list()).toEqual([{ ...added, informationFiles: true, paused: true, watch: 'paused' }]);
    await second.remove(added.id);
    expect(second.list()).toEqual([]);
    expect(JSON.parse(await readFile(path.join(stateDir, MAPPINGS_FILE_NAME), 'utf8'))).toEqual({ version: 1, mappings: [] });
  });

  it('takes no file while paused, and takes it up on resume; without a connection the upload waits and says why', async () => {
    const events: DropFolderEvent[] = [];
    const service = await start(events);
    const drop = await folder('drop');
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'gone' });
    await service.pause(mapping.id);
    await writeFile(path.join(drop, 'model.ifc'), 'ISO-10303-21;');
    await service.rescan();
    expect(service.files(mapping.id)).toEqual([]);

    await service.resume(mapping.id);
    const waiting = await until(() => service.files(mapping.id).find((file) => file.state === 'uploading' && file.lastError !== null));
    expect(waiting.lastError).toMatch(/connection gone is not available/);
    expect(events.some((event) => event.kind === 'folders' && event.folders[0]?.paused === true)).toBe(true);
  });

  it('waits for a missing connection with a doubling, jittered backoff up to its longest wait', async () => {
    const waits: number[] = [];
    const service = await startDropFolderService({
      stateDir,
      clientFor: () => undefined,
      timing: { ...TIMING, stableMs: 10, retryBaseMs: 1_000, retryMaxMs: 3_000 },
      random: () => 0.5,
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    services.push(service);
    const drop = await folder('drop');
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'later' });
    await writeFile(path.join(drop, 'model.ifc'), 'ISO-10303-21;');
    await until(() => (waits.filter((ms) => ms >= 750).length >= 4 ? true : undefined));
    // Half the ceiling plus half of it times the jitter (0.5): 0.75 of 1 s, 2 s, 4 s capped at 3 s.
    expect(waits.filter((ms) => ms >= 750).slice(0, 4)).toEqual([750, 1_500, 2_250, 2_250]);
    expect(service.files(mapping.id)).toMatchObject([{ path: 'model.ifc', state: 'uploading', attempts: 0 }]);
  });

  it('marks a folder that went away unavailable, and watches it again once it is back', async () => {
    const service = await start();
    const drop = await folder('drop');
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    await rm(drop, { recursive: true });
    await service.rescan(mapping.id);
    expect(service.list()[0]).toMatchObject({ watch: 'unavailable' });
    expect(service.list()[0]?.problem).toMatch(/cannot be read/);
    await mkdir(drop);
    await service.rescan(mapping.id);
    expect(service.list()[0]).toMatchObject({ watch: 'watching', problem: null });
  });

  it('walks the folder again after the walk under way when a rescan is asked for meanwhile: that walk may have read the folder before the change', async () => {
    let passportFolders: readonly string[] = [];
    const service = await start([], { passportFolders: () => passportFolders, watch: () => ({ close: async () => undefined }) });
    const drop = await folder('drop');
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    const underWay = service.rescan(mapping.id);
    passportFolders = [path.join(drop, 'passports')];
    await service.rescan(mapping.id);
    await underWay;
    expect(service.list()[0]).toMatchObject({ watch: 'unavailable', problem: expect.stringMatching(/holds the passport folder/) });
  });

  it('sets an unreadable mappings file aside and starts with none', async () => {
    await mkdir(stateDir, { recursive: true });
    await writeFile(path.join(stateDir, MAPPINGS_FILE_NAME), '{"version": 1, "mappings": [{"id": 3}]}');
    const service = await start();
    expect(service.list()).toEqual([]);
    expect((await readdir(stateDir)).some((name) => name.startsWith(`${MAPPINGS_FILE_NAME}.invalid-`))).toBe(true);
  });

  it('refuses the home folder, a drive root and a folder that holds a passport folder; one that became such a folder is not watched', async () => {
    const home = await folder('home');
    const passportFolders: string[] = [];
    const options = { homeFolder: home, passportFolders: () => passportFolders };
    const service = await start([], options);
    const drop = await folder('drop');
    await symlink(drop, path.join(root, 'drop-link'));
    passportFolders.push(path.join(root, 'drop-link', 'passports'));
    for (const forbidden of [home, root, path.parse(root).root, drop]) {
      const refusal = await service.add({ folder: forbidden, target: BUILDING, connectionId: 'c' }).catch((error: unknown) => error);
      expect(refusal, forbidden).toBeInstanceOf(BridgeError);
      expect(refusal).toMatchObject({ code: 'invalid-request' });
    }
    expect(await service.add({ folder: drop, target: BUILDING, connectionId: 'c' }).catch((error: Error) => error.message)).toMatch(/holds the passport folder/);

    passportFolders.length = 0;
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    passportFolders.push(path.join(drop, 'passports'));
    await service.rescan(mapping.id);
    expect(service.list()[0]).toMatchObject({ watch: 'unavailable', problem: expect.stringMatching(/holds the passport folder/) });
    await writeFile(path.join(drop, 'model.ifc'), 'ISO-10303-21;');
    expect(await codeOf(service.update(mapping.id, { activate: true }))).toBe('invalid-request');
    await service.close();

    const watched: string[] = [];
    const restarted = await start([], { ...options, watch: (watchedFolder) => (watched.push(watchedFolder), { close: async () => undefined }) });
    await restarted.rescan();
    expect(restarted.list()[0]).toMatchObject({ watch: 'unavailable', problem: expect.stringMatching(/holds the passport folder/) });
    expect(watched).toEqual([]);
    expect(restarted.files(mapping.id)).toEqual([]);
  });

  /** A folder with a real file, a link to a file elsewhere and a link to a folder elsewhere, each named like a model. */
  async function folderWithLinks(): Promise<string> {
    const elsewhere = await folder('elsewhere/models.ifc');
    await writeFile(path.join(elsewhere, 'secret.ifc'), 'ISO-10303-21; secret');
    const drop = await folder('drop');
    await writeFile(path.join(drop, 'real.ifc'), 'ISO-10303-21;');
    await symlink(path.join(elsewhere, 'secret.ifc'), path.join(drop, 'link.ifc'));
    await symlink(elsewhere, path.join(drop, 'linked-folder.ifc'));
    await symlink(elsewhere, path.join(drop, 'linked-folder'));
    return drop;
  }

  async function expectLinksNotFollowed(service: DropFolderService, mappingId: string): Promise<void> {
    const settled = (file: { state: string }): boolean => file.state !== 'detected' && file.state !== 'hashing';
    await until(() => (service.files(mappingId).length >= 3 && service.files(mappingId).every(settled) ? true : undefined));
    await service.rescan(mappingId);
    const files = service.files(mappingId).sort((a, b) => a.path.localeCompare(b.path));
    expect(files.map((file) => [file.path, file.state])).toEqual([
      ['link.ifc', 'failed'],
      ['linked-folder.ifc', 'failed'],
      ['real.ifc', 'uploading'],
    ]);
    expect(files[0]?.lastError).toMatch(/symbolic link: links are not followed/);
    expect(files[1]?.lastError).toMatch(/symbolic link: links are not followed/);
    expect(service.list()[0]).toMatchObject({
      watch: 'watching',
      problem: 'Symbolic links are not followed, so nothing they point to is uploaded: link.ifc, linked-folder, linked-folder.ifc. Put the files themselves (or copies) in the folder.',
    });
  }

  it('never follows a symbolic link the watcher sees, to a file or a folder, and says why it is not uploaded', async () => {
    const drop = await folderWithLinks();
    const service = await start();
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    await expectLinksNotFollowed(service, mapping.id);

    await symlink(path.join(root, 'elsewhere'), path.join(drop, 'later-link'));
    await until(() => (service.list()[0]?.problem?.includes('later-link') === true ? true : undefined));
    expect(service.files(mapping.id)).toHaveLength(3);
  });

  it('never follows a symbolic link the rescan finds, and still watches a folder that was chosen through a link', async () => {
    const drop = await folderWithLinks();
    const service = await start([], { watch: () => ({ close: async () => undefined }) });
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    await service.rescan(mapping.id);
    await expectLinksNotFollowed(service, mapping.id);

    await symlink(drop, path.join(root, 'chosen-link'));
    const watching = await start([], { stateDir: path.join(root, 'other-state') });
    const throughLink = await watching.add({ folder: path.join(root, 'chosen-link'), target: BUILDING, connectionId: 'c' });
    await writeFile(path.join(drop, 'later.ifc'), 'ISO-10303-21;');
    await until(() => watching.files(throughLink.id).find((file) => file.path === 'later.ifc'));
  });

  it('says a file it may not read cannot be read, instead of waiting for it as if another program held it', async (context) => {
    context.skip(process.getuid?.() === 0, 'root reads any file whatever its mode: there is nothing to refuse');
    const service = await start();
    const drop = await folder('drop');
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    await writeFile(path.join(drop, 'model.ifc'), 'ISO-10303-21;');
    await chmod(path.join(drop, 'model.ifc'), 0o000);
    const failed = await until(() => service.files(mapping.id).find((file) => file.state === 'failed'));
    expect(failed).toMatchObject({ path: 'model.ifc', lastError: expect.stringMatching(/cannot be read \(permission denied\)/) });
  });

  it('refuses a file larger than the server takes before reading it, saying why, as the file dialog does', async () => {
    const events: DropFolderEvent[] = [];
    const service = await start(events);
    const drop = await folder('drop');
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    // Sparse: 2 GiB and a byte that take no room on disk.
    await writeFile(path.join(drop, 'huge.ifc'), '');
    await truncate(path.join(drop, 'huge.ifc'), MAX_UPLOAD_BYTES + 1);
    const failed = await until(() => service.files(mapping.id).find((file) => file.state === 'failed'));
    expect(failed).toMatchObject({ path: 'huge.ifc', size: MAX_UPLOAD_BYTES + 1, sha256: null, lastError: 'huge.ifc is larger than 2 GiB, the most the server takes.' });
    expect(events.some((event) => event.kind === 'file' && event.file.state === 'hashing')).toBe(false);
  });

  it('uploads no hard link to a file outside the folder, and says why', async () => {
    const service = await start();
    const drop = await folder('drop');
    await writeFile(path.join(await folder('outside'), 'secret.ifc'), 'not for the server');
    const mapping = await service.add({ folder: drop, target: BUILDING, connectionId: 'c' });
    await link(path.join(root, 'outside', 'secret.ifc'), path.join(drop, 'model.ifc'));
    const failed = await until(() => service.files(mapping.id).find((file) => file.state === 'failed'));
    expect(failed).toMatchObject({ path: 'model.ifc', sha256: null, lastError: expect.stringMatching(/more than one name on the disk \(a hard link\)/) });
  });

  it('refuses system folders, folders of keys and the app’s own data, which the review found accepted', async () => {
    const appData = await folder('user-data');
    const service = await start([], { appDataFolder: appData, homeFolder: await folder('home') });
    await mkdir(path.join(root, 'home', '.ssh'));
    await mkdir(path.join(appData, 'local-workspace'));
    for (const refused of ['/var/log', '/tmp', '/run', '/opt', '/srv', path.join(root, 'home', '.ssh'), appData, path.join(appData, 'local-workspace'), root]) {
      expect([refused, await codeOf(service.add({ folder: refused, target: BUILDING, connectionId: 'c' }))]).toEqual([refused, 'invalid-request']);
    }
    expect(service.list()).toEqual([]);
  });
});
