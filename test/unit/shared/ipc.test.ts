import { describe, expect, it } from 'vitest';
import {
  BridgeError,
  IPC_CHANNELS,
  bridgeMethodOf,
  createBridge,
  ipcErrorOf,
  ipcChannels,
  isIpcChannel,
  requestProblem,
  type BridgeTransport,
  type IpcChannel,
  type IpcEvent,
} from '../../../shared/ipc';

/** A transport that records calls and lets the test push events. */
function recordingTransport() {
  const calls: { channel: IpcChannel; request: unknown }[] = [];
  let deliver: ((event: IpcEvent, payload: unknown) => void) | undefined;
  let subscriptions = 0;
  const transport: BridgeTransport = {
    invoke: async (channel, request) => {
      calls.push({ channel, request });
      return { ok: true, value: channel };
    },
    subscribe: (listener) => {
      subscriptions += 1;
      deliver = listener;
      return () => undefined;
    },
  };
  return { transport, calls, emit: (event: IpcEvent, payload: unknown) => deliver?.(event, payload), subscriptions: () => subscriptions };
}

describe('the Bridge built from the contract', () => {
  it('has one named method per channel, in camel case, calling that channel', async () => {
    const { transport, calls } = recordingTransport();
    const bridge = createBridge(transport);
    expect(await bridge.vault.hasKey({ connectionId: 'a' })).toEqual({ ok: true, value: 'vault:has-key' });
    expect(await bridge.connections.list()).toEqual({ ok: true, value: 'connections:list' });
    expect(await bridge.shell.openExternal({ url: 'https://example.org' })).toEqual({ ok: true, value: 'shell:open-external' });
    expect(calls.map((call) => call.channel)).toEqual(['vault:has-key', 'connections:list', 'shell:open-external']);
    expect(calls[1]?.request).toEqual({});
    const methods = Object.entries(bridge).flatMap(([namespace, value]) =>
      typeof value === 'function' ? [] : Object.keys(value as object).map((method) => `${namespace}.${method}`),
    );
    expect(methods).toHaveLength(IPC_CHANNELS.length);
  });

  it('delivers events to the listeners of that event only, and stops after unsubscribe', () => {
    const { transport, emit, subscriptions } = recordingTransport();
    const bridge = createBridge(transport);
    const seen: unknown[] = [];
    const stop = bridge.on('local:status-changed', (payload) => seen.push(payload));
    bridge.on('http:activity', () => seen.push('wrong event'));
    emit('local:status-changed', { state: 'running' });
    stop();
    emit('local:status-changed', { state: 'stopped' });
    expect(seen).toEqual([{ state: 'running' }]);
    expect(subscriptions()).toBe(1);
  });
});

describe('channel names and requests', () => {
  it('maps every channel to namespace and method', () => {
    expect(bridgeMethodOf('vault:set-key')).toEqual({ namespace: 'vault', method: 'setKey' });
    for (const channel of IPC_CHANNELS) expect(channel).toMatch(/^[a-z]+:[a-z]+(-[a-z]+)*$/);
  });

  it('knows its channels and nothing inherited', () => {
    expect(isIpcChannel('api:request')).toBe(true);
    expect(isIpcChannel('toString')).toBe(false);
    expect(isIpcChannel('__proto__')).toBe(false);
    expect(isIpcChannel(42)).toBe(false);
  });

  it('says what is wrong with a request, and accepts a valid one', () => {
    expect(requestProblem('connections:add', { name: 'Team', baseUrl: 'https://api.example.org', apiVersion: 'v2.3' })).toBeUndefined();
    expect(requestProblem('connections:add', { name: 'Team', baseUrl: 'ftp://x.example', apiVersion: 'v2.3' })).toMatch(/baseUrl/);
    expect(requestProblem('connections:add', { name: 'Team', baseUrl: 'https://user:pw@x.example', apiVersion: 'v2.3' })).toBeDefined();
    expect(requestProblem('vault:set-key', { connectionId: 'a', key: 'has space' })).toBeDefined();
    expect(requestProblem('vault:set-key', { connectionId: 'a', key: 'k', extra: true })).toBeDefined();
    expect(requestProblem('shell:open-external', { url: 'javascript:alert(1)' })).toBeDefined();
    expect(requestProblem('app:info', undefined)).toBeDefined();
  });

  it('turns a BridgeError into its code and message, and anything else into a message without internals', () => {
    expect(ipcErrorOf(new BridgeError('not-found', 'Gone.'))).toEqual({ code: 'not-found', message: 'Gone.' });
    const hidden = ipcErrorOf(new Error('ENOENT /home/user/secret'));
    expect(hidden.code).toBe('internal');
    expect(hidden.message).not.toContain('secret');
  });
});

describe('drop folder and passport channels', () => {
  it('names as folders only string fields of the request, so the host checks the paths that reach the disk', () => {
    const marked = IPC_CHANNELS.flatMap((channel) => ipcChannels[channel].folders.map((field) => `${channel}.${field}`));
    expect(marked.sort()).toEqual(['dropfolders:add.folder', 'passports:add-target.folder', 'passports:update-target.folder']);
    for (const channel of IPC_CHANNELS) {
      const properties = (ipcChannels[channel].request as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
      for (const field of ipcChannels[channel].folders) expect(properties[field]?.type).toBe('string');
    }
  });

  it('takes the shapes of the services: a settings update, a request of other formats, an optional filter', () => {
    expect(requestProblem('dropfolders:update', { mappingId: 'm1', activate: true, polling: false })).toBeUndefined();
    expect(requestProblem('dropfolders:update', { mappingId: 'm1', paused: true })).toMatch(/dropfolders:update/);
    expect(requestProblem('dropfolders:add', { folder: '/x', target: { kind: 'building', buildingId: 'nope' }, connectionId: 'c' })).toBeDefined();
    expect(requestProblem('passports:request', { targetId: 't1', formats: ['xlsx'], language: 'de' })).toBeUndefined();
    expect(requestProblem('passports:request', { targetId: 't1', language: 'pt' })).toBeDefined();
    expect(requestProblem('passports:history', {})).toBeUndefined();
    expect(requestProblem('dropfolders:rescan', { mappingId: 'm1' })).toBeUndefined();
    expect(requestProblem('dialog:choose-folder', { title: 'Drop folder' })).toBeUndefined();
  });

  it('gives the renderer named methods for them', async () => {
    const { transport, calls } = recordingTransport();
    const bridge = createBridge(transport);
    await bridge.dropfolders.openFolder({ mappingId: 'm1' });
    await bridge.passports.addTarget({
      connectionId: 'c',
      subject: { kind: 'portfolio', id: 'p' },
      folder: '/x',
      formats: ['pdf'],
      language: 'en',
      requestOnMapped: true,
    });
    await bridge.dialog.chooseFolder();
    expect(calls.map((call) => call.channel)).toEqual(['dropfolders:open-folder', 'passports:add-target', 'dialog:choose-folder']);
  });
});
