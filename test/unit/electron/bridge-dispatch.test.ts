import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchBridgeCall, folderProblem, type BridgeHandlers } from '../../../electron/bridge-dispatch';
import { IPC_CHANNELS, type IpcChannel } from '../../../shared/ipc';

const BUILDING = '3f2b8a4e-4c1d-4e8f-9a6b-0c5d7e9f1a2b';

let scratch: string;
let aFile: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'bridge-dispatch-'));
  aFile = path.join(scratch, 'model.ifc');
  await writeFile(aFile, 'ISO-10303-21;');
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Handlers that record which channels ran; every one answers null (the tests only look at refusals and calls). */
function recordingHandlers(calls: IpcChannel[]): BridgeHandlers {
  return Object.fromEntries(
    IPC_CHANNELS.map((channel) => [
      channel,
      async () => {
        calls.push(channel);
        return null;
      },
    ]),
  ) as unknown as BridgeHandlers;
}

function dropFolderDraft(folder: string) {
  return { folder, target: { kind: 'building', buildingId: BUILDING }, connectionId: 'local' };
}

function passportDraft(folder: string) {
  return { connectionId: 'local', subject: { kind: 'building', id: BUILDING }, folder, formats: ['pdf'], language: 'en', requestOnMapped: false };
}

describe('the folder check of the dispatch', () => {
  it('refuses a relative path, a missing folder and a file with invalid-request and a sentence naming the path', async () => {
    const calls: IpcChannel[] = [];
    const handlers = recordingHandlers(calls);
    const missing = path.join(scratch, 'not-there');
    const cases: [unknown, RegExp][] = [
      [dropFolderDraft('exports/revit'), /full path.*'exports\/revit'/],
      [dropFolderDraft(missing), new RegExp(`The folder ${missing.replace(/[\\/.]/g, '\\$&')} does not exist\\.`)],
      [dropFolderDraft(aFile), /model\.ifc is a file, not a folder\./],
    ];
    for (const [request, message] of cases) {
      const result = await dispatchBridgeCall(handlers, 'dropfolders:add', request, () => undefined);
      expect(result).toEqual({ ok: false, error: { code: 'invalid-request', message: expect.stringMatching(message) } });
    }
    const passport = await dispatchBridgeCall(handlers, 'passports:add-target', passportDraft(missing), () => undefined);
    expect(passport).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('does not exist') } });
    const update = await dispatchBridgeCall(handlers, 'passports:update-target', { targetId: 't1', folder: aFile }, () => undefined);
    expect(update).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('not a folder') } });
    expect(calls).toEqual([]);
  });

  it('passes an existing absolute folder, and a request that leaves an optional folder out, to the handler', async () => {
    const calls: IpcChannel[] = [];
    const handlers = recordingHandlers(calls);
    expect(await dispatchBridgeCall(handlers, 'dropfolders:add', dropFolderDraft(scratch), () => undefined)).toEqual({ ok: true, value: null });
    expect(await dispatchBridgeCall(handlers, 'passports:add-target', passportDraft(scratch), () => undefined)).toEqual({ ok: true, value: null });
    expect(await dispatchBridgeCall(handlers, 'passports:update-target', { targetId: 't1', language: 'nl' }, () => undefined)).toEqual({
      ok: true,
      value: null,
    });
    expect(calls).toEqual(['dropfolders:add', 'passports:add-target', 'passports:update-target']);
  });

  it('checks the shape first: a request of the wrong shape is refused by its schema, not by the disk', async () => {
    const result = await dispatchBridgeCall(recordingHandlers([]), 'dropfolders:add', { folder: 42 }, () => undefined);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringContaining('dropfolders:add is not valid') } });
  });

  it('looks only at the fields the contract names as folders', async () => {
    expect(await folderProblem('dropfolders:retry', { mappingId: 'm1', path: 'no/such/file.ifc' })).toBeUndefined();
    expect(await folderProblem('dialog:choose-folder', { title: 'relative/looking' })).toBeUndefined();
    expect(await folderProblem('dropfolders:add', dropFolderDraft('relative'))).toMatch(/full path/);
  });

  it('says a path with a NUL byte cannot be read instead of failing the call', async () => {
    expect(await folderProblem('dropfolders:add', dropFolderDraft(`${scratch}\0x`))).toMatch(/cannot be read/);
  });
});
