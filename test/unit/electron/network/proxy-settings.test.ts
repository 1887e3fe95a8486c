import { describe, expect, it } from 'vitest';
import { checkedProxyChoice, sessionProxyConfig } from '../../../../electron/network/proxy-settings';
import { BridgeError } from '../../../../shared/ipc';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof BridgeError && error.code === 'invalid-request') return error.message;
    throw error;
  }
  throw new Error('The choice was accepted.');
}

describe('checkedProxyChoice', () => {
  it('keeps the system and no-proxy choices as they are', () => {
    expect(checkedProxyChoice({ mode: 'system' })).toEqual({ mode: 'system' });
    expect(checkedProxyChoice({ mode: 'none' })).toEqual({ mode: 'none' });
  });

  it('writes a manual proxy as scheme, host and port, and its bypass list comma-separated', () => {
    expect(checkedProxyChoice({ mode: 'manual', proxyUrl: ' http://Proxy.Example.com:8080/ ', bypass: 'intranet.local; *.corp.example.com\n10.0.0.0/8 <local>' })).toEqual({
      mode: 'manual',
      proxyUrl: 'http://proxy.example.com:8080',
      bypass: 'intranet.local,*.corp.example.com,10.0.0.0/8,<local>',
    });
    expect(checkedProxyChoice({ mode: 'manual', proxyUrl: 'socks5://[::1]:1080', bypass: '' })).toEqual({ mode: 'manual', proxyUrl: 'socks5://[::1]:1080', bypass: '' });
  });

  it('refuses a proxy address with a user or password, since the setting is stored unencrypted', () => {
    expect(refusal(() => checkedProxyChoice({ mode: 'manual', proxyUrl: 'http://ann:secret@proxy:8080', bypass: '' }))).toMatch(/user name or password/);
    expect(refusal(() => checkedProxyChoice({ mode: 'manual', proxyUrl: 'http://ann@proxy:8080', bypass: '' }))).toMatch(/user name or password/);
  });

  it('refuses what is not a proxy address, and bypass rules Chromium would not read', () => {
    expect(refusal(() => checkedProxyChoice({ mode: 'manual', proxyUrl: 'proxy.example.com:8080', bypass: '' }))).toMatch(/http:\/\/, https:\/\/, socks4:\/\/ or socks5:\/\//);
    expect(refusal(() => checkedProxyChoice({ mode: 'manual', proxyUrl: 'ftp://proxy:21', bypass: '' }))).toMatch(/must start with/);
    expect(refusal(() => checkedProxyChoice({ mode: 'manual', proxyUrl: 'not an address', bypass: '' }))).toMatch(/not an address/);
    expect(refusal(() => checkedProxyChoice({ mode: 'manual', proxyUrl: 'http://proxy:8080/path', bypass: '' }))).toMatch(/without a path/);
    expect(refusal(() => checkedProxyChoice({ mode: 'manual', proxyUrl: 'http://proxy:8080', bypass: 'good.example, bad"rule' }))).toMatch(/bad"rule/);
  });
});

describe('sessionProxyConfig', () => {
  it('turns the system choice into the system proxy, PAC included', () => {
    expect(sessionProxyConfig({ mode: 'system' })).toEqual({ mode: 'system' });
  });

  it('turns no proxy into direct connections', () => {
    expect(sessionProxyConfig({ mode: 'none' })).toEqual({ mode: 'direct' });
  });

  it('turns a manual proxy into fixed servers with its bypass rules', () => {
    const choice = checkedProxyChoice({ mode: 'manual', proxyUrl: 'https://proxy.example.com:3129', bypass: '*.corp.example.com <local>' });
    expect(sessionProxyConfig(choice)).toEqual({
      mode: 'fixed_servers',
      proxyRules: 'https://proxy.example.com:3129',
      proxyBypassRules: '*.corp.example.com,<local>',
    });
  });
});
