/**
 * The host's side of files dropped or picked in the window (`shared/dropped-files.ts`): the preload's paths, from our
 * window only, registered as chosen files, so that their uploads read them from disk like the dialog's.
 */
import type { IpcMainInvokeEvent } from 'electron';
import { Value } from 'typebox/value';
import { DROPPED_FILES_CHANNEL, DroppedFilePaths } from '../shared/dropped-files';
import { BridgeError, ipcErrorOf, type IpcResult } from '../shared/ipc';
import type { ChosenFiles } from '../shared/uploads';
import type { DispatchLog } from './bridge-dispatch';
import { isTrusted, UNTRUSTED, type BridgeIpcMain, type SenderCheck } from './ipc';

/** Registers files as chosen (the upload service's `registerChoices`). */
export type RegisterChoices = (paths: readonly string[]) => Promise<ChosenFiles>;

/** Answers the preload's paths with their choices; returns the function that removes the handler. */
export function registerDroppedFilesHandler(ipcMain: BridgeIpcMain, register: RegisterChoices, isTrustedSender: SenderCheck, log: DispatchLog): () => void {
  ipcMain.handle(DROPPED_FILES_CHANNEL, async (event: IpcMainInvokeEvent, request: unknown): Promise<IpcResult<ChosenFiles>> => {
    if (!isTrusted(isTrustedSender, event, DROPPED_FILES_CHANNEL, log)) return UNTRUSTED;
    if (!Value.Check(DroppedFilePaths, request)) {
      return { ok: false, error: { code: 'invalid-request', message: 'The dropped files came without their paths.' } };
    }
    try {
      if (request.some((filePath) => filePath === '')) {
        throw new BridgeError('invalid-request', 'A dropped file is not on this computer’s disk (it came from another app or a web page).');
      }
      return { ok: true, value: await register(request) };
    } catch (error) {
      const failure = ipcErrorOf(error);
      if (failure.code === 'internal') log('Registering dropped files failed', error);
      return { ok: false, error: failure };
    }
  });
  return () => ipcMain.removeHandler(DROPPED_FILES_CHANNEL);
}
