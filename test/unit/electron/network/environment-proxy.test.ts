import { describe, expect, it } from 'vitest';
import { environmentProxyOf, proxyFor } from '../../../../electron/network/environment-proxy';

const PROXY = 'http://proxy.example.com:3128';

function through(address: string, env: NodeJS.ProcessEnv): string | undefined {
  return proxyFor(new URL(address), environmentProxyOf(env));
}

describe('proxyFor', () => {
  it('sends every address directly when the environment names no proxy', () => {
    expect(through('https://api.example.com', {})).toBeUndefined();
    expect(through('http://api.example.com', { HTTPS_PROXY: '' })).toBeUndefined();
  });

  it('takes HTTPS_PROXY for https addresses and HTTP_PROXY for http ones, HTTP_PROXY for both when it is the only one', () => {
    expect(through('https://api.example.com', { HTTPS_PROXY: PROXY })).toBe(PROXY);
    expect(through('http://api.example.com', { HTTPS_PROXY: PROXY })).toBeUndefined();
    expect(through('http://api.example.com', { HTTP_PROXY: 'http://plain:8080', HTTPS_PROXY: PROXY })).toBe('http://plain:8080');
    expect(through('https://api.example.com', { HTTP_PROXY: 'http://plain:8080' })).toBe('http://plain:8080');
  });

  it('prefers the lower-case variables, as curl and undici do', () => {
    expect(through('https://api.example.com', { https_proxy: 'http://lower:1', HTTPS_PROXY: PROXY })).toBe('http://lower:1');
    expect(through('https://intranet', { HTTPS_PROXY: PROXY, no_proxy: 'intranet', NO_PROXY: '' })).toBeUndefined();
  });

  it('goes directly to a host in NO_PROXY and to its subdomains, however the entry is written', () => {
    const env = { HTTPS_PROXY: PROXY, NO_PROXY: 'localhost, .corp.example.com *.lab.example.com,example.org' };
    expect(through('https://localhost:8443', env)).toBeUndefined();
    expect(through('https://api.corp.example.com', env)).toBeUndefined();
    expect(through('https://corp.example.com', env)).toBeUndefined();
    expect(through('https://deep.lab.example.com', env)).toBeUndefined();
    expect(through('https://EXAMPLE.org', env)).toBeUndefined();
    expect(through('https://notexample.org', env)).toBe(PROXY);
    expect(through('https://api.example.com', env)).toBe(PROXY);
  });

  it('honours a port in NO_PROXY, the scheme’s default port included', () => {
    const env = { HTTPS_PROXY: PROXY, NO_PROXY: 'api.example.com:8443,secure.example.com:443' };
    expect(through('https://api.example.com:8443', env)).toBeUndefined();
    expect(through('https://api.example.com', env)).toBe(PROXY);
    expect(through('https://secure.example.com', env)).toBeUndefined();
  });

  it('goes directly everywhere with NO_PROXY=*, and matches IPv6 addresses with their brackets', () => {
    expect(through('https://api.example.com', { HTTPS_PROXY: PROXY, NO_PROXY: ' * ' })).toBeUndefined();
    expect(through('http://[2001:db8::1]:3000', { HTTP_PROXY: PROXY, NO_PROXY: '[2001:db8::1]' })).toBeUndefined();
    expect(through('http://[2001:db8::2]:3000', { HTTP_PROXY: PROXY, NO_PROXY: '[2001:db8::1]' })).toBe(PROXY);
  });

  it('always reaches this computer directly, where the Local workspace listens', () => {
    const env = { HTTP_PROXY: PROXY, NO_PROXY: 'intranet' };
    expect(through('http://127.0.0.1:47000/api', env)).toBeUndefined();
    expect(through('http://localhost:47000', env)).toBeUndefined();
    expect(through('http://[::1]:47000', { HTTP_PROXY: PROXY })).toBeUndefined();
    expect(environmentProxyOf({ HTTP_PROXY: PROXY }).noProxy).toBe('localhost,127.0.0.1,[::1]');
  });
});
