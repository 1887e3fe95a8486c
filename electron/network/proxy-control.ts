/**
 * The proxy of the Electron app: the user's choice kept in `network.json` of the user-data folder and applied to the
 * session `net.fetch` goes through, at start and whenever it changes. A missing or unreadable file means the system's
 * proxy, so a new install follows the operating system (PAC included) without asking.
 */
import path from 'node:path';
import { ProxyChoice } from '../../shared/network';
import { readJsonFile, writeJsonFile } from '../json-file';
import { checkedProxyChoice, sessionProxyConfig, type SessionProxyConfig } from './proxy-settings';

/** What the proxy needs of Electron's session (`session.defaultSession`). */
export interface ProxySession {
  setProxy(config: SessionProxyConfig): Promise<void>;
  resolveProxy(url: string): Promise<string>;
  /** Ends open connections, so no request keeps going through the proxy chosen before. */
  closeAllConnections(): Promise<void>;
}

/** The proxy as the host's Bridge handlers use it. */
export interface ProxyControl {
  choice(): ProxyChoice;
  /** Checks, saves and applies a choice; answers it as saved. */
  choose(choice: ProxyChoice): Promise<ProxyChoice>;
  /** The proxy the session uses for `url`: `DIRECT`, or e.g. `PROXY proxy.example.com:8080`. */
  resolve(url: string): Promise<string>;
}

const SYSTEM: ProxyChoice = { mode: 'system' };

/** The file the choice is kept in. */
export function proxyChoiceFile(userDataDir: string): string {
  return path.join(userDataDir, 'network.json');
}

/** Reads the saved choice and applies it to `session`; resolves once the session uses it. */
export async function startProxyControl(options: {
  userDataDir: string;
  session: ProxySession;
  log: (message: string, error?: unknown) => void;
}): Promise<ProxyControl> {
  const { session, log } = options;
  const file = proxyChoiceFile(options.userDataDir);
  const read = await readJsonFile(file, ProxyChoice);
  let current = SYSTEM;
  if (read.kind === 'ok') {
    try {
      current = checkedProxyChoice(read.value);
    } catch (error) {
      log('The saved proxy is not valid; the system proxy is used.', error);
    }
  } else if (read.kind === 'invalid') {
    log(`The proxy setting could not be read (${read.reason}); the system proxy is used.`);
  }
  await session.setProxy(sessionProxyConfig(current));

  return {
    choice: () => current,
    async choose(choice) {
      const checked = checkedProxyChoice(choice);
      await writeJsonFile(file, checked);
      await session.setProxy(sessionProxyConfig(checked));
      await session.closeAllConnections();
      current = checked;
      return checked;
    },
    resolve: (url) => session.resolveProxy(url),
  };
}
