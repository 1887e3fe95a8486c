import { describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { APP_ORIGIN } from '../../../electron/app-protocol';
import type { BridgeHandlers } from '../../../electron/bridge-dispatch';
import {
  bridgeEventSender,
  registerBridgeHandlers,
  trustedSenderCheck,
  type BridgeEventTarget,
  type TrustedWindow,
} from '../../../electron/ipc';
import { BridgeError, IPC_CHANNELS, IPC_EVENT_CHANNEL, type IpcChannel } from '../../../shared/ipc';
import { RecordingIpcMain } from './recording-ipc-main';

interface FakeFrame {
  url: string;
}

function eventFrom(frame: FakeFrame | null): IpcMainInvokeEvent {
  return { senderFrame: frame } as unknown as IpcMainInvokeEvent;
}

/** Handlers that record their calls; the ones a test needs answer something, the rest fail loudly. */
function recordingHandlers(calls: [IpcChannel, unknown][], overrides: Partial<Record<IpcChannel, (request: unknown) => Promise<unknown>>> = {}): BridgeHandlers {
  const handlers = Object.fromEntries(
    IPC_CHANNELS.map((channel) => [
      channel,
      async (request: unknown) => {
        calls.push([channel, request]);
        const override = overrides[channel];
        if (override === undefined) throw new Error(`unexpected call of ${channel}`);
        return override(request);
      },
    ]),
  );
  return handlers as unknown as BridgeHandlers;
}

const mainFrame: FakeFrame = { url: 'app://renderer/index.html' };
const window: TrustedWindow & { destroyed: boolean } = {
  destroyed: false,
  isDestroyed() {
    return this.destroyed;
  },
  webContents: { mainFrame },
};

describe('registerBridgeHandlers', () => {
  it('passes a trusted, valid call to its handler and answers its value', async () => {
    const ipcMain = new RecordingIpcMain();
    const calls: [IpcChannel, unknown][] = [];
    registerBridgeHandlers(
      ipcMain,
      recordingHandlers(calls, { 'vault:has-key': async () => true }),
      () => true,
      () => undefined,
    );
    expect(await ipcMain.invoke('vault:has-key', eventFrom(mainFrame), { connectionId: 'c1' })).toEqual({ ok: true, value: true });
    expect(calls).toEqual([['vault:has-key', { connectionId: 'c1' }]]);
  });

  it('answers a BridgeError with its code and message, and logs only unexpected failures', async () => {
    const ipcMain = new RecordingIpcMain();
    const logged: [string, unknown][] = [];
    const crash = new Error('disk on fire');
    registerBridgeHandlers(
      ipcMain,
      recordingHandlers([], {
        'connections:remove': async () => {
          throw new BridgeError('not-found', 'This connection no longer exists.');
        },
        'connections:list': async () => {
          throw crash;
        },
      }),
      () => true,
      (message, error) => logged.push([message, error]),
    );
    expect(await ipcMain.invoke('connections:remove', eventFrom(mainFrame), { connectionId: 'gone' })).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'This connection no longer exists.' },
    });
    expect(logged).toEqual([]);
    const failed = (await ipcMain.invoke('connections:list', eventFrom(mainFrame), {})) as { ok: false; error: { code: string; message: string } };
    expect(failed.error.code).toBe('internal');
    expect(failed.error.message).not.toContain('disk on fire');
    expect(logged).toEqual([['Bridge call connections:list failed', crash]]);
  });

  it('treats a sender check that throws as a refusal and logs it', async () => {
    const ipcMain = new RecordingIpcMain();
    const calls: [IpcChannel, unknown][] = [];
    const logged: string[] = [];
    registerBridgeHandlers(
      ipcMain,
      recordingHandlers(calls),
      () => {
        throw new Error('frame gone');
      },
      (message) => logged.push(message),
    );
    const answer = (await ipcMain.invoke('app:info', eventFrom(mainFrame), {})) as { ok: boolean; error?: { code: string } };
    expect(answer.error?.code).toBe('untrusted-sender');
    expect(calls).toEqual([]);
    expect(logged).toEqual(['Checking the sender of app:info failed']);
  });

  it('lets calls made while the handlers start wait for them', async () => {
    const ipcMain = new RecordingIpcMain();
    const calls: [IpcChannel, unknown][] = [];
    let start: (handlers: BridgeHandlers) => void = () => undefined;
    const starting = new Promise<BridgeHandlers>((resolve) => {
      start = resolve;
    });
    registerBridgeHandlers(ipcMain, starting, () => true, () => undefined);
    const early = ipcMain.invoke('vault:has-key', eventFrom(mainFrame), { connectionId: 'c1' });
    let answered = false;
    void early.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    start(recordingHandlers(calls, { 'vault:has-key': async () => false }));
    expect(await early).toEqual({ ok: true, value: false });
    expect(calls).toEqual([['vault:has-key', { connectionId: 'c1' }]]);
  });

  it('answers unavailable when the handlers could not start, and still refuses untrusted senders first', async () => {
    const ipcMain = new RecordingIpcMain();
    const failed = Promise.reject(new Error('vault unreadable'));
    failed.catch(() => undefined);
    let trusted = true;
    registerBridgeHandlers(ipcMain, failed, () => trusted, () => undefined);
    const answer = (await ipcMain.invoke('app:info', eventFrom(mainFrame), {})) as { ok: false; error: { code: string; message: string } };
    expect(answer.error.code).toBe('unavailable');
    expect(answer.error.message).not.toContain('vault unreadable');
    trusted = false;
    expect(((await ipcMain.invoke('app:info', eventFrom(mainFrame), {})) as { error: { code: string } }).error.code).toBe('untrusted-sender');
  });

  it('returns a function that removes every handler it registered', () => {
    const ipcMain = new RecordingIpcMain();
    const unregister = registerBridgeHandlers(ipcMain, recordingHandlers([]), () => true, () => undefined);
    expect(ipcMain.listeners.size).toBe(IPC_CHANNELS.length);
    unregister();
    expect(ipcMain.listeners.size).toBe(0);
    // Registering again after removal works, as it must when the window is re-created.
    registerBridgeHandlers(ipcMain, recordingHandlers([]), () => true, () => undefined);
    expect(ipcMain.listeners.size).toBe(IPC_CHANNELS.length);
  });
});

describe('trustedSenderCheck', () => {
  const check = trustedSenderCheck(window, APP_ORIGIN);

  it('trusts the main frame of the window on the app origin, on any page of it', () => {
    expect(check(eventFrom(mainFrame))).toBe(true);
    mainFrame.url = 'app://renderer/buildings/42?tab=files#top';
    expect(check(eventFrom(mainFrame))).toBe(true);
    mainFrame.url = 'app://renderer/index.html';
  });

  it('refuses a frame that is not the main frame, even on the app origin', () => {
    expect(check(eventFrom({ url: 'app://renderer/index.html' }))).toBe(false);
  });

  it('refuses a sender without a frame (navigated away or destroyed)', () => {
    expect(check(eventFrom(null))).toBe(false);
  });

  it.each(['https://example.org/', 'file:///etc/passwd', 'app://renderer.evil/index.html', 'app://other/index.html', 'about:blank', 'devtools://devtools/'])(
    'refuses the main frame when it shows %s',
    (url) => {
      const saved = mainFrame.url;
      mainFrame.url = url;
      try {
        expect(check(eventFrom(mainFrame))).toBe(false);
      } finally {
        mainFrame.url = saved;
      }
    },
  );

  it('refuses everything once the window is destroyed', () => {
    window.destroyed = true;
    try {
      expect(check(eventFrom(mainFrame))).toBe(false);
    } finally {
      window.destroyed = false;
    }
  });
});

describe('bridgeEventSender', () => {
  class FakeContents implements BridgeEventTarget {
    destroyed = false;
    readonly sent: [string, unknown][] = [];
    isDestroyed(): boolean {
      return this.destroyed;
    }
    send(channel: string, message: unknown): void {
      this.sent.push([channel, message]);
    }
  }

  it('sends each event with its payload on the one event channel', () => {
    const contents = new FakeContents();
    const sink = bridgeEventSender(() => contents);
    sink('local:status-changed', { state: 'running' });
    sink('http:activity', { connectionId: 'c1', queued: 2, running: 1 });
    expect(contents.sent).toEqual([
      [IPC_EVENT_CHANNEL, { event: 'local:status-changed', payload: { state: 'running' } }],
      [IPC_EVENT_CHANNEL, { event: 'http:activity', payload: { connectionId: 'c1', queued: 2, running: 1 } }],
    ]);
  });

  it('sends to the window of the moment, and to none while there is none or it is destroyed', () => {
    const first = new FakeContents();
    const second = new FakeContents();
    let current: FakeContents | undefined;
    const sink = bridgeEventSender(() => current);
    sink('local:status-changed', { state: 'starting' });
    current = first;
    first.destroyed = true;
    sink('local:status-changed', { state: 'starting' });
    current = second;
    sink('local:status-changed', { state: 'running' });
    expect(first.sent).toEqual([]);
    expect(second.sent).toEqual([[IPC_EVENT_CHANNEL, { event: 'local:status-changed', payload: { state: 'running' } }]]);
  });
});
