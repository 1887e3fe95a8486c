import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerDroppedFilesHandler } from '../../../electron/dropped-files';
import { ChoiceRegistry } from '../../../electron/uploads/choices';
import { DROPPED_FILES_CHANNEL, MAX_DROPPED_FILES } from '../../../shared/dropped-files';
import type { IpcResult } from '../../../shared/ipc';
import type { ChosenFiles } from '../../../shared/uploads';
import { RecordingIpcMain } from './recording-ipc-main';

const fromWindow = { senderFrame: { url: 'app://renderer/index.html' } } as unknown as IpcMainInvokeEvent;
const fromElsewhere = { senderFrame: { url: 'https://example.com/' } } as unknown as IpcMainInvokeEvent;
const isOurs = (event: IpcMainInvokeEvent): boolean => event === fromWindow;

let folder: string;
let registry: ChoiceRegistry;
let ipcMain: RecordingIpcMain;
let logged: string[];
let unregister: () => void;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cd-dropped-files-'));
  registry = new ChoiceRegistry();
  ipcMain = new RecordingIpcMain();
  logged = [];
  unregister = registerDroppedFilesHandler(ipcMain, (paths) => registry.register(paths), isOurs, (message) => logged.push(message));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function drop(event: IpcMainInvokeEvent, request: unknown): Promise<IpcResult<ChosenFiles>> {
  return ipcMain.invoke(DROPPED_FILES_CHANNEL, event, request) as Promise<IpcResult<ChosenFiles>>;
}

describe('files dropped on the window', () => {
  it('registers the files on disk as chosen, so that their uploads read them from there', async () => {
    const model = path.join(folder, 'tower.ifc');
    const sheet = path.join(folder, 'quantities.xlsx');
    await writeFile(model, 'ISO-10303-21;');
    await writeFile(sheet, Buffer.alloc(2048));
    const answer = await drop(fromWindow, [model, sheet]);
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.map(({ fileName, size }) => [fileName, size])).toEqual([
      ['tower.ifc', 13],
      ['quantities.xlsx', 2048],
    ]);
    expect(registry.get(answer.value[0]!.choiceId).path).toBe(model);
  });

  it('refuses a call from anywhere but the window, before looking at its paths', async () => {
    const model = path.join(folder, 'tower.ifc');
    await writeFile(model, 'ISO-10303-21;');
    expect(await drop(fromElsewhere, [model])).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
  });

  it('refuses a File that is not on disk, a path that is no file, and a request that is no list of paths', async () => {
    expect(await drop(fromWindow, [''])).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringMatching(/not on this computer’s disk/) } });
    expect(await drop(fromWindow, [folder])).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringMatching(/is not a file that can be read/) } });
    for (const request of [undefined, 'tower.ifc', [], [42], Array.from({ length: MAX_DROPPED_FILES + 1 }, () => 'a.ifc')]) {
      expect(await drop(fromWindow, request)).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    }
    expect(logged).toEqual([]);
  });

  it('answers an unexpected failure as internal, logs it, and is gone once unregistered', async () => {
    const failing = new RecordingIpcMain();
    registerDroppedFilesHandler(failing, () => Promise.reject(new Error('the disk is gone')), isOurs, (message) => logged.push(message));
    const answer = (await failing.invoke(DROPPED_FILES_CHANNEL, fromWindow, ['/x.ifc'])) as IpcResult<ChosenFiles>;
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(logged).toEqual(['Registering dropped files failed']);
    unregister();
    await expect(drop(fromWindow, ['/x.ifc'])).rejects.toThrow(/No handler registered/);
  });
});
