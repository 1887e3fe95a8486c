/**
 * One implementation of the Bridge contract for both hosts: the handlers of every channel, and the dispatch that
 * checks the channel and the request before a handler sees it. Electron's IPC (`ipc.ts`) and the browser host's
 * WebSocket (`web-host.ts`) are only transports over it.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ipcChannels,
  ipcErrorOf,
  isIpcChannel,
  requestProblem,
  type IpcChannel,
  type IpcEvent,
  type IpcEventPayload,
  type IpcRequest,
  type IpcResult,
  type IpcValue,
} from '../shared/ipc';

/** A handler for every channel of the contract; a handler throws `BridgeError` for failures the user should read. */
export type BridgeHandlers = {
  [C in IpcChannel]: (request: IpcRequest<C>) => Promise<IpcValue<C>>;
};

/** Sends host events to whoever listens (the window in Electron, every socket in browser mode). */
export type BridgeEventSink = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) => void;

/** Where a dispatch logs what it did not show the renderer. */
export type DispatchLog = (message: string, error: unknown) => void;

/**
 * Checks the request fields the contract marks as folders on this machine: each one given must be an absolute path of
 * an existing folder. Returns the first problem as a sentence for the user, or undefined. Runs after the schema check,
 * so the fields are strings when present.
 */
export async function folderProblem(channel: IpcChannel, request: unknown): Promise<string | undefined> {
  for (const field of ipcChannels[channel].folders) {
    const folder = (request as Record<string, unknown>)[field];
    if (typeof folder !== 'string') continue;
    if (!path.isAbsolute(folder)) {
      return `The folder must be given as a full path (starting at a drive or at /), not as '${folder}'.`;
    }
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(folder)).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return `The folder ${folder} does not exist.`;
      if (code === 'EACCES' || code === 'EPERM') return `The folder ${folder} cannot be opened: permission denied.`;
      return `The folder ${folder} cannot be read (${code ?? 'not a valid path'}).`;
    }
    if (!isDirectory) return `${folder} is a file, not a folder.`;
  }
  return undefined;
}

/**
 * Runs one call from the renderer: an unknown channel or an invalid request (its shape, or a folder it names that is
 * not one) is refused before any handler runs;
 * a handler's failure becomes `{ ok: false, error }` and never reaches the renderer as an exception.
 */
export async function dispatchBridgeCall(
  handlers: BridgeHandlers,
  channel: unknown,
  request: unknown,
  log: DispatchLog,
): Promise<IpcResult<unknown>> {
  if (!isIpcChannel(channel)) {
    return { ok: false, error: { code: 'invalid-request', message: `There is no bridge channel '${String(channel)}'.` } };
  }
  const problem = requestProblem(channel, request);
  if (problem !== undefined) return { ok: false, error: { code: 'invalid-request', message: problem } };
  const notAFolder = await folderProblem(channel, request);
  if (notAFolder !== undefined) return { ok: false, error: { code: 'invalid-request', message: notAFolder } };
  try {
    const handler = handlers[channel] as (request: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(request) };
  } catch (error) {
    const failure = ipcErrorOf(error);
    if (failure.code === 'internal') log(`Bridge call ${channel} failed`, error);
    return { ok: false, error: failure };
  }
}
