// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startProxyControl, type ProxySession } from '../../../../../electron/network/proxy-control';
import type { SessionProxyConfig } from '../../../../../electron/network/proxy-settings';
import type { AppInfo, Connection } from '../../../../../shared/ipc';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { createAppI18n } from '../../../../../renderer/i18n';
import NetworkSettings from '../../../../../renderer/views/settings/NetworkSettings.vue';
import { click, eventually, text, type } from '../../dom';
import { testBridge } from '../../harness';

const production: Connection = { id: 'c1', name: 'Production', baseUrl: 'https://api.example.com', apiVersion: 'v2.3', kind: 'remote', hasKey: true };

/** Electron's session as the proxy uses it: the configs it was given, and Chromium's answer for the last one. */
class FakeSession implements ProxySession {
  readonly applied: SessionProxyConfig[] = [];

  async setProxy(config: SessionProxyConfig): Promise<void> {
    this.applied.push(config);
  }

  async resolveProxy(): Promise<string> {
    const config = this.applied.at(-1);
    return config?.mode === 'fixed_servers' ? `PROXY ${new URL(config.proxyRules).host}` : 'DIRECT';
  }

  async closeAllConnections(): Promise<void> {}
}

let userDataDir: string;

beforeEach(async () => {
  userDataDir = await mkdtemp(path.join(tmpdir(), 'network-settings-'));
});

afterEach(async () => {
  document.body.innerHTML = '';
  await rm(userDataDir, { recursive: true, force: true });
});

function appInfo(host: AppInfo['host']): AppInfo {
  return { version: '1.0.0', host, platform: 'linux', userDataDir };
}

async function electronHost() {
  const session = new FakeSession();
  const proxy = await startProxyControl({ userDataDir, session, log: () => undefined });
  const bridge = testBridge({
    'app:info': async () => appInfo('electron'),
    'connections:list': async () => ({ connections: [production], activeId: 'c1' }),
    'network:proxy': async () => proxy.choice(),
    'network:set-proxy': (choice) => proxy.choose(choice),
    'network:test-proxy': async () => ({ proxy: await proxy.resolve(production.baseUrl), server: { kind: 'ok', accountName: 'Acme', accountType: 1 } }),
  });
  return { bridge, session };
}

function mountSection(bridge: ReturnType<typeof testBridge>) {
  return mount(NetworkSettings, {
    global: { plugins: [createPinia(), createAppI18n('en')], provide: { [BRIDGE_KEY]: bridge.handle } },
    attachTo: document.body,
  });
}

function chooseMode(mode: 'system' | 'none' | 'manual'): void {
  const radio = document.querySelector<HTMLInputElement>(`[data-testid="network-mode-${mode}"] input`);
  if (radio === null) throw new Error(`No ${mode} choice.`);
  radio.click();
}

describe('NetworkSettings', () => {
  it('shows the system proxy on a first start, and applies a manual proxy the user saves', async () => {
    const { bridge, session } = await electronHost();
    mountSection(bridge);
    await eventually(() => expect(document.querySelector<HTMLInputElement>('[data-testid="network-mode-system"] input')?.checked).toBe(true));
    expect(document.querySelector('[data-testid="network-proxy-url"]')).toBeNull();

    chooseMode('manual');
    await flushPromises();
    await type('network-proxy-url', 'http://proxy.example.com:8080');
    await type('network-bypass', 'intranet.example.com *.local');
    click('network-save');
    await eventually(() => expect(text('network-saved')).toBe('Saved: servers are reached this way from now on.'));

    expect(session.applied.at(-1)).toEqual({ mode: 'fixed_servers', proxyRules: 'http://proxy.example.com:8080', proxyBypassRules: 'intranet.example.com,*.local' });
    expect((document.querySelector('[data-testid="network-bypass"]') as HTMLInputElement).value).toBe('intranet.example.com,*.local');

    await type('network-proxy-url', 'http://other.example.com:8080');
    expect(text('network-saved')).toBe('');
  });

  it('says why a proxy address with a password is refused, and keeps the proxy in use', async () => {
    const { bridge, session } = await electronHost();
    mountSection(bridge);
    await eventually(() => expect(document.querySelector('[data-testid="network-mode-manual"] input')).not.toBeNull());
    chooseMode('manual');
    await flushPromises();
    await type('network-proxy-url', 'http://ann:secret@proxy.example.com:8080');
    click('network-save');

    await eventually(() => expect(text('network-save-error')).toContain('may not hold a user name or password'));
    expect(session.applied).toEqual([{ mode: 'system' }]);
  });

  it('tests the proxy in use against the active connection: the way its address takes and the server’s answer', async () => {
    const { bridge } = await electronHost();
    mountSection(bridge);
    await eventually(() => expect(text('network-test')).toBe('Test with Production'));
    click('network-test');
    await eventually(() => expect(text('network-test-route')).toBe('Its address is reached directly, without a proxy.'));
    expect(text('network-test-server')).toBe('The server answered: account Acme.');

    chooseMode('manual');
    await flushPromises();
    await type('network-proxy-url', 'socks5://proxy.example.com:1080');
    click('network-save');
    await eventually(() => expect(text('network-test-result')).toBe(''));
    click('network-test');
    await eventually(() => expect(text('network-test-route')).toBe('Its address is reached through PROXY proxy.example.com:1080.'));
    expect(bridge.requestsOf('network:test-proxy')).toEqual([{ connectionId: 'c1' }, { connectionId: 'c1' }]);
  });

  it('in browser mode says the proxy comes from the environment, and asks the host for none', async () => {
    const bridge = testBridge({ 'app:info': async () => appInfo('browser') });
    mountSection(bridge);
    await eventually(() => expect(text('network-browser-mode')).toContain('HTTPS_PROXY or HTTP_PROXY'));
    expect(text('network-browser-mode')).toContain('NO_PROXY');
    expect(text('network-browser-mode')).toContain('NODE_EXTRA_CA_CERTS');
    expect(bridge.calls.map((call) => call.channel)).toEqual(['app:info']);
  });
});
