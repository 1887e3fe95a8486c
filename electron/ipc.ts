/**
 * The Bridge over Electron IPC: one `ipcMain.handle` per channel of the contract, each refusing calls that do not come
 * from the main frame of our window showing our own origin, and host events sent to that window on one channel.
 * Validation and the handlers themselves live in bridge-dispatch.ts, shared with the browser host.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC_CHANNELS, IPC_EVENT_CHANNEL, type IpcEvent, type IpcEventPayload, type IpcResult } from '../shared/ipc';
import { dispatchBridgeCall, type BridgeEventSink, type BridgeHandlers, type DispatchLog } from './bridge-dispatch';
import { hasOrigin } from './app-protocol';

/** The part of Electron's ipcMain the bridge uses. */
export type BridgeIpcMain = Pick<IpcMain, 'handle' | 'removeHandler'>;

/** Decides whether an IPC call comes from our window. */
export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/** The answer to a call from anywhere but our window. */
export const UNTRUSTED: IpcResult<never> = {
  ok: false,
  error: { code: 'untrusted-sender', message: 'This call did not come from the Circularity Desk window.' },
};

const UNAVAILABLE: IpcResult<never> = {
  ok: false,
  error: { code: 'unavailable', message: 'The app could not start its services. The details are in its log.' },
};

/** Whether a call on `channel` comes from our window; a sender check that throws counts as no, and is logged. */
export function isTrusted(isTrustedSender: SenderCheck, event: IpcMainInvokeEvent, channel: string, log: DispatchLog): boolean {
  try {
    return isTrustedSender(event);
  } catch (error) {
    log(`Checking the sender of ${channel} failed`, error);
    return false;
  }
}

/**
 * Registers one handler per channel of the contract; returns the function that removes them all. A sender check that
 * throws counts as a refusal. The handlers may still be starting (a promise): the window opens at once and its
 * first calls wait for them.
 */
export function registerBridgeHandlers(
  ipcMain: BridgeIpcMain,
  handlers: BridgeHandlers | Promise<BridgeHandlers>,
  isTrustedSender: SenderCheck,
  log: DispatchLog,
): () => void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, request: unknown): Promise<IpcResult<unknown>> => {
      if (!isTrusted(isTrustedSender, event, channel, log)) return UNTRUSTED;
      let ready: BridgeHandlers;
      try {
        ready = await handlers;
      } catch {
        // Whoever started the services reports why they failed; each call only says that they did.
        return UNAVAILABLE;
      }
      return dispatchBridgeCall(ready, channel, request, log);
    });
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** The parts of a BrowserWindow the sender check reads. */
export interface TrustedWindow {
  isDestroyed(): boolean;
  webContents: { mainFrame: unknown };
}

/**
 * A sender check for `window`: the call must come from the window's main frame (not an iframe, not another window)
 * while that frame shows a page of `app://renderer`.
 */
export function trustedSenderCheck(window: TrustedWindow, appOrigin: string): SenderCheck {
  return (event) => {
    if (window.isDestroyed()) return false;
    const frame = event.senderFrame;
    return frame !== null && frame === window.webContents.mainFrame && hasOrigin(frame.url, appOrigin);
  };
}

/** The parts of a WebContents events are sent through. */
export interface BridgeEventTarget {
  isDestroyed(): boolean;
  send(channel: string, message: unknown): void;
}

/** The message an event travels in on `IPC_EVENT_CHANNEL`. */
export interface BridgeEventMessage<E extends IpcEvent = IpcEvent> {
  event: E;
  payload: IpcEventPayload<E>;
}

/** A sink sending host events to the window `target()` returns at the time; none while there is no window. */
export function bridgeEventSender(target: () => BridgeEventTarget | undefined): BridgeEventSink {
  return (event, payload) => {
    const contents = target();
    if (contents === undefined || contents.isDestroyed()) return;
    const message: BridgeEventMessage = { event, payload };
    contents.send(IPC_EVENT_CHANNEL, message);
  };
}
