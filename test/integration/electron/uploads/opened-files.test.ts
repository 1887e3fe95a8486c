/**
 * Files opened with the app (a launch's arguments, a second launch, macOS open-file) through the desktop host: they
 * become chosen files the window takes once, with an event that says so, and upload as the building page's do. Also
 * the Start at login setting, which only the desktop app has.
 */
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcEvent } from '../../../../shared/ipc';
import { MAX_UPLOAD_BYTES } from '../../../../shared/uploads';
import { startAtLogin } from '../../../../electron/start-at-login';
import { ifcFixture } from '../../../fixtures/files';
import { tempFolder } from '../dropfolders/harness';
import { createBuilding, KEY, sha256, startHost, startUploadServer, type TestHost, type UploadServer } from './harness';

const DUPLEX = ifcFixture('duplex.ifc');

let server: UploadServer;
let folder: string;
let home: string;
let app: TestHost;
let connectionId: string;
const events: { event: IpcEvent; payload: unknown }[] = [];

beforeAll(async () => {
  server = await startUploadServer();
  folder = await tempFolder('cd-opened-');
  home = await mkdtemp(path.join(os.tmpdir(), 'cd-opened-home-'));
  app = await startHost(await tempFolder('cd-opened-ud-'), {
    startAtLogin: startAtLogin({
      platform: 'linux',
      loginItems: { getLoginItemSettings: () => ({ openAtLogin: false }), setLoginItemSettings: () => undefined },
      executable: '/opt/desk/desk',
      args: [],
      entryName: 'circularity-desk',
      displayName: 'Circularity Desk',
      env: {},
      homeDir: home,
    }),
  });
  app.host.onEvent((event, payload) => events.push({ event, payload }));
  connectionId = (await app.host.provision(server.url, KEY)).id;
}, 120_000);

afterAll(async () => {
  await app?.host.close();
  await server?.close();
  for (const each of [folder, home, app?.userDataDir]) if (each !== undefined) await rm(each, { recursive: true, force: true });
});

describe('files opened with the app', () => {
  it('are handed to the window once, as chosen files, and upload into the building picked for them', async () => {
    await app.host.openFiles([DUPLEX]);
    expect(events.filter((each) => each.event === 'app:files-opened').map((each) => each.payload)).toEqual([{ count: 1 }]);
    const size = (await stat(DUPLEX)).size;
    const taken = await app.value('app:take-opened-files', {});
    expect(taken).toEqual([{ choiceId: expect.any(String), fileName: 'duplex.ifc', size }]);
    expect(JSON.stringify(taken)).not.toContain(path.dirname(DUPLEX));
    expect(await app.value('app:take-opened-files', {})).toEqual([]);

    const { buildingId } = await createBuilding(server, 'Opened');
    const [chosen] = taken;
    const started = await app.value('uploads:start', {
      connectionId,
      target: { kind: 'building-file', buildingId, fileType: 0 },
      source: { kind: 'chosen', choiceId: chosen?.choiceId ?? '' },
      fileName: 'duplex.ifc',
      size,
    });
    const done = await app.until(started.id, 'done', (entry) => entry.state === 'done');
    expect(sha256(await server.content('buildings', buildingId, done.remoteFileId as string))).toBe(sha256(await readFile(DUPLEX)));
    expect(app.host.status()).toMatchObject({ uploadsInFlight: 0, uploadsFailed: 0, dropFolders: 0, passportFolders: 0 });
  }, 60_000);

  it('keep those opened before the window took them, and say why a file the server would not take is left out', async () => {
    events.length = 0;
    const tooLarge = path.join(folder, 'huge.ifc');
    const handle = await open(tooLarge, 'w');
    await handle.truncate(MAX_UPLOAD_BYTES + 1);
    await handle.close();
    await app.host.openFiles([DUPLEX]);
    await app.host.openFiles([tooLarge, DUPLEX]);
    expect(events.filter((each) => each.event === 'app:files-opened').map((each) => each.payload)).toEqual([{ count: 1 }, { count: 2 }]);
    expect(events.find((each) => each.event === 'notice')?.payload).toMatchObject({ kind: 'error', title: 'huge.ifc cannot be uploaded', message: expect.stringContaining('2 GiB') });
    const taken = await app.value('app:take-opened-files', {});
    expect(taken.map((file) => file.fileName)).toEqual(['duplex.ifc', 'duplex.ifc']);
    expect(new Set(taken.map((file) => file.choiceId)).size).toBe(2);
  });
});

describe('Start at login', () => {
  it('is read and changed through the Bridge', async () => {
    expect(await app.value('app:start-at-login', {})).toEqual({ enabled: false });
    expect(await app.value('app:set-start-at-login', { enabled: true })).toEqual({ enabled: true });
    expect(await readFile(path.join(home, '.config', 'autostart', 'circularity-desk.desktop'), 'utf8')).toContain('Exec=/opt/desk/desk\n');
    expect(await app.value('app:set-start-at-login', { enabled: false })).toEqual({ enabled: false });
    expect(await app.value('app:start-at-login', {})).toEqual({ enabled: false });
  });

  it('answers unavailable where the host has no such setting (browser mode)', async () => {
    const browser = await startHost(await tempFolder('cd-opened-browser-'));
    try {
      expect(await browser.call('app:start-at-login', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } });
      expect(await browser.call('app:set-start-at-login', { enabled: true })).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    } finally {
      await browser.host.close();
      await rm(browser.userDataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
