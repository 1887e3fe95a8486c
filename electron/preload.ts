/**
 * The window's preload (sandboxed: bundled into one CommonJS file whose only require is 'electron'). It exposes
 * `window.bridge`, built from the contract, and nothing else: the page never gets `ipcRenderer` or a generic invoke.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENTS, IPC_EVENT_CHANNEL, createBridge, type BridgeTransport, type IpcEvent, type IpcResult } from '../shared/ipc';
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
