/**
 * Electron's ipcMain cannot run here: this one records registrations and lets a test invoke a channel, for the tests of
 * the handlers the host registers on it.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { BridgeIpcMain } from '../../../electron/ipc';

type Listener = Parameters<IpcMain['handle']>[1];

export class RecordingIpcMain implements BridgeIpcMain {
  readonly listeners = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    // Electron throws on a second handler for a channel; so does this fake.
    if (this.listeners.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.listeners.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.listeners.delete(channel);
  }
  async invoke(channel: string, event: IpcMainInvokeEvent, request?: unknown): Promise<unknown> {
    const listener = this.listeners.get(channel);
    if (listener === undefined) throw new Error(`No handler registered for '${channel}'`);
    return listener(event, request);
  }
}
