/**
 * The window's preload (sandboxed: bundled into one CommonJS file whose only require is 'electron'). It exposes
 * `window.bridge`, built from the contract, and `window.droppedFiles`, which turns Files the user gave the page into
 * the host's choices (`shared/dropped-files.ts`): the page never gets `ipcRenderer`, a generic invoke or a file's path.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { DROPPED_FILES_CHANNEL, type DroppedFilesBridge } from '../shared/dropped-files';
import { IPC_EVENTS, IPC_EVENT_CHANNEL, createBridge, type BridgeTransport, type IpcEvent, type IpcResult } from '../shared/ipc';
import type { ChosenFiles } from '../shared/uploads';
import { isRecord } from '../shared/is-record';

function isIpcEvent(name: unknown): name is IpcEvent {
  return typeof name === 'string' && (IPC_EVENTS as string[]).includes(name);
}

const transport: BridgeTransport = {
  invoke: (channel, request) => ipcRenderer.invoke(channel, request) as Promise<IpcResult<unknown>>,
  subscribe(listener) {
    const onMessage = (_event: IpcRendererEvent, message: unknown): void => {
      if (isRecord(message) && isIpcEvent(message['event'])) listener(message['event'], message['payload']);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, onMessage);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, onMessage);
    };
  },
};

contextBridge.exposeInMainWorld('bridge', createBridge(transport));

const droppedFiles: DroppedFilesBridge = {
  choicesOf: (files) =>
    ipcRenderer.invoke(
      DROPPED_FILES_CHANNEL,
      files.map((file) => webUtils.getPathForFile(file)),
    ) as Promise<IpcResult<ChosenFiles>>,
};

contextBridge.exposeInMainWorld('droppedFiles', droppedFiles);
