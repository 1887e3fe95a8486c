/**
 * How the desktop host reaches servers: every call through the fetch it is given (Electron gives its session's, so
 * the system's proxy and certificates apply), and the proxy channels over the proxy control, with a hand-written
 * session in place of Electron's. Browser mode, without a proxy control, answers those channels `unavailable`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '../../../electron/bridge-dispatch';
import type { DesktopHost } from '../../../electron/desktop';
import { startProxyControl, type ProxySession } from '../../../electron/network/proxy-control';
import type { SessionProxyConfig } from '../../../electron/network/proxy-settings';
import type { IpcChannel, IpcRequest, IpcResult, IpcValue } from '../../../shared/ipc';
import { startTestDesktopHost } from './desktop-harness';

/** Electron's session as the proxy uses it: the configs it was given, and Chromium's answer for the last one. */
class FakeSession implements ProxySession {
  readonly applied: SessionProxyConfig[] = [];
  closedConnections = 0;

  async setProxy(config: SessionProxyConfig): Promise<void> {
    this.applied.push(config);
  }

  async resolveProxy(): Promise<string> {
    const config = this.applied.at(-1);
    return config?.mode === 'fixed_servers' ? `PROXY ${new URL(config.proxyRules).host}` : 'DIRECT';
  }

  async closeAllConnections(): Promise<void> {
    this.closedConnections += 1;
  }
}

/** The clients' timeout here, shortened from 60 s; the Local workspace answers well within it. */
const TIMEOUT_MS = 3_000;

let userDataDir: string;
let host: DesktopHost;
const session = new FakeSession();
/** The address of every request the host made. */
const fetched: string[] = [];

async function call<C extends IpcChannel>(target: DesktopHost, channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcValue<C>>> {
  return (await dispatchBridgeCall(target.handlers, channel, request, () => undefined)) as IpcResult<IpcValue<C>>;
}

async function value<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcValue<C>> {
  const result = await call(host, channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
  return result.value;
}

beforeAll(async () => {
  userDataDir = await mkdtemp(path.join(os.tmpdir(), 'desktop-network-'));
  host = await startTestDesktopHost(userDataDir, {
    fetch: (input, init) => {
      fetched.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
    proxy: await startProxyControl({ userDataDir, session, log: () => undefined }),
    tuning: { clientTimeoutMs: TIMEOUT_MS },
  });
}, 120_000);

afterAll(async () => {
  await host?.close();
  await rm(userDataDir, { recursive: true, force: true });
});

describe('the desktop host’s network', () => {
  it('sends every call through the fetch it was given: API calls, connection tests and tests of a draft', async () => {
    const { connections } = await value('connections:list', {});
    const local = connections.find((connection) => connection.kind === 'local');
    if (local === undefined) throw new Error('No Local workspace.');
    fetched.length = 0;

    expect(await value('api:request', { connectionId: local.id, operationId: 'listPortfolios' })).toMatchObject({ kind: 'ok' });
    expect(await value('connections:test', { connectionId: local.id })).toMatchObject({ kind: 'ok' });
    expect(await value('connections:test-draft', { baseUrl: local.baseUrl, apiVersion: 'v2.3', key: 'not-a-key-of-this-server' })).toMatchObject({ kind: 'problem', status: 401 });
    expect(fetched).toHaveLength(3);
    expect(fetched.every((address) => address.startsWith(`${local.baseUrl}/api/v2.3/`))).toBe(true);
  });

  it('ends a call to a server that accepts the connection and never answers after the clients\' timeout, with no second attempt', async () => {
    const held = new Set<Socket>();
    const silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const paused = await value('connections:add', { name: 'Paused', baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, apiVersion: 'v2.3' });
      const started = performance.now();
      expect(await value('api:request', { connectionId: paused.id, operationId: 'listPortfolios' })).toMatchObject({ kind: 'network', reason: 'timeout' });
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(2 * TIMEOUT_MS);
      expect(held.size).toBe(1);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('answers the proxy in use, applies a new one, and tests it against a connection', async () => {
    const { activeId } = await value('connections:list', {});
    expect(await value('network:proxy', {})).toEqual({ mode: 'system' });
    expect(await value('network:test-proxy', { connectionId: activeId ?? '' })).toMatchObject({ proxy: 'DIRECT', server: { kind: 'ok' } });

    const saved = await value('network:set-proxy', { mode: 'manual', proxyUrl: 'http://proxy.example.com:3128', bypass: 'intranet' });
    expect(saved).toEqual({ mode: 'manual', proxyUrl: 'http://proxy.example.com:3128', bypass: 'intranet' });
    expect(await value('network:proxy', {})).toEqual(saved);
    expect(session.applied.at(-1)).toEqual({ mode: 'fixed_servers', proxyRules: 'http://proxy.example.com:3128', proxyBypassRules: 'intranet' });
    expect(await value('network:test-proxy', { connectionId: activeId ?? '' })).toMatchObject({ proxy: 'PROXY proxy.example.com:3128' });

    const refused = await call(host, 'network:set-proxy', { mode: 'manual', proxyUrl: 'http://ann:secret@proxy.example.com:3128', bypass: '' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(await call(host, 'network:test-proxy', { connectionId: 'gone' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('in browser mode answers the proxy channels as unavailable, naming the environment', async () => {
    const browserDir = await mkdtemp(path.join(os.tmpdir(), 'desktop-network-browser-'));
    const browser = await startTestDesktopHost(browserDir);
    try {
      for (const result of [
        await call(browser, 'network:proxy', {}),
        await call(browser, 'network:set-proxy', { mode: 'none' }),
        await call(browser, 'network:test-proxy', { connectionId: 'local' }),
      ]) {
        expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('HTTPS_PROXY') } });
      }
    } finally {
      await browser.close();
      await rm(browserDir, { recursive: true, force: true });
    }
  }, 60_000);
});
