import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { proxyChoiceFile, startProxyControl, type ProxySession } from '../../../../electron/network/proxy-control';
import type { SessionProxyConfig } from '../../../../electron/network/proxy-settings';
import { BridgeError } from '../../../../shared/ipc';

/** Electron's session as far as the proxy uses it: what it was told, and a resolver that follows the last config. */
class FakeSession implements ProxySession {
  readonly applied: SessionProxyConfig[] = [];
  closedConnections = 0;

  async setProxy(config: SessionProxyConfig): Promise<void> {
    this.applied.push(config);
  }

  async resolveProxy(url: string): Promise<string> {
    const config = this.applied.at(-1);
    if (config?.mode !== 'fixed_servers' || config.proxyBypassRules.split(',').includes(new URL(url).hostname)) return 'DIRECT';
    return `PROXY ${new URL(config.proxyRules).host}`;
  }

  async closeAllConnections(): Promise<void> {
    this.closedConnections += 1;
  }
}

let userDataDir: string;
const logged: string[] = [];
const log = (message: string): void => void logged.push(message);

beforeEach(async () => {
  userDataDir = await mkdtemp(path.join(tmpdir(), 'proxy-control-'));
  logged.length = 0;
});

afterEach(async () => {
  await rm(userDataDir, { recursive: true, force: true });
});

describe('startProxyControl', () => {
  it('applies the system proxy on a first start', async () => {
    const session = new FakeSession();
    const control = await startProxyControl({ userDataDir, session, log });
    expect(control.choice()).toEqual({ mode: 'system' });
    expect(session.applied).toEqual([{ mode: 'system' }]);
  });

  it('saves a manual proxy, applies it at once and ends the connections opened before', async () => {
    const session = new FakeSession();
    const control = await startProxyControl({ userDataDir, session, log });
    const saved = await control.choose({ mode: 'manual', proxyUrl: 'http://proxy.example.com:8080', bypass: 'intranet' });
    expect(saved).toEqual({ mode: 'manual', proxyUrl: 'http://proxy.example.com:8080', bypass: 'intranet' });
    expect(session.applied.at(-1)).toEqual({ mode: 'fixed_servers', proxyRules: 'http://proxy.example.com:8080', proxyBypassRules: 'intranet' });
    expect(session.closedConnections).toBe(1);
    expect(await control.resolve('https://api.example.com')).toBe('PROXY proxy.example.com:8080');
    expect(await control.resolve('http://intranet:3000')).toBe('DIRECT');
  });

  it('applies the saved choice at the next start', async () => {
    await (await startProxyControl({ userDataDir, session: new FakeSession(), log })).choose({ mode: 'none' });
    const session = new FakeSession();
    const control = await startProxyControl({ userDataDir, session, log });
    expect(control.choice()).toEqual({ mode: 'none' });
    expect(session.applied).toEqual([{ mode: 'direct' }]);
  });

  it('refuses a proxy with a password and keeps the one in use, on disk too', async () => {
    const session = new FakeSession();
    const control = await startProxyControl({ userDataDir, session, log });
    await control.choose({ mode: 'none' });
    await expect(control.choose({ mode: 'manual', proxyUrl: 'http://ann:secret@proxy:8080', bypass: '' })).rejects.toBeInstanceOf(BridgeError);
    expect(control.choice()).toEqual({ mode: 'none' });
    expect(session.applied.at(-1)).toEqual({ mode: 'direct' });
    expect(await readFile(proxyChoiceFile(userDataDir), 'utf8')).not.toContain('secret');
  });

  it('falls back to the system proxy, saying why, when the file cannot be read or holds a proxy no longer accepted', async () => {
    await writeFile(proxyChoiceFile(userDataDir), '{ not json');
    const unreadable = new FakeSession();
    expect((await startProxyControl({ userDataDir, session: unreadable, log })).choice()).toEqual({ mode: 'system' });
    expect(unreadable.applied).toEqual([{ mode: 'system' }]);

    await writeFile(proxyChoiceFile(userDataDir), JSON.stringify({ mode: 'manual', proxyUrl: 'http://ann:secret@proxy:8080', bypass: '' }));
    const refused = new FakeSession();
    expect((await startProxyControl({ userDataDir, session: refused, log })).choice()).toEqual({ mode: 'system' });
    expect(refused.applied).toEqual([{ mode: 'system' }]);
    expect(logged).toHaveLength(2);
    expect(logged.every((line) => line.includes('system proxy is used'))).toBe(true);
  });
});
