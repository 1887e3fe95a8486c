/**
 * The user's proxy choice checked and turned into the proxy configuration of Electron's session (`session.setProxy`),
 * which `net.fetch` and so every call of the host goes through.
 */
import { BridgeError } from '../../shared/ipc';
import type { ProxyChoice } from '../../shared/network';

/** The part of Electron's `ProxyConfig` the three choices use. */
export type SessionProxyConfig =
  | { mode: 'system' }
  | { mode: 'direct' }
  | { mode: 'fixed_servers'; proxyRules: string; proxyBypassRules: string };

const PROXY_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'socks4:', 'socks5:']);
/** One bypass rule as Chromium reads them: a host or pattern (`*.example.com`, `.example.com`), an IP range, `<local>`. */
const BYPASS_RULE = /^(<local>|<-loopback>|[A-Za-z0-9*.:[\]/_-]+)$/;

function refuse(message: string): never {
  throw new BridgeError('invalid-request', message);
}

/** The proxy address as `scheme://host:port`; refuses anything else, a user or password above all. */
function checkedProxyUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    refuse('The proxy address is not an address; write it as http://proxy.example.com:8080.');
  }
  if (!PROXY_SCHEMES.has(url.protocol)) refuse('The proxy address must start with http://, https://, socks4:// or socks5://.');
  // The settings file is plain text: a password there would be readable by anything that reads the user's files.
  // A proxy that asks for credentials asks the system (Windows, macOS) or fails with its own answer.
  if (url.username !== '' || url.password !== '') refuse('The proxy address may not hold a user name or password; they would be stored unencrypted.');
  if (url.hostname === '') refuse('The proxy address needs a host.');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    refuse('The proxy address is a host and port only, without a path.');
  }
  return `${url.protocol}//${url.host}`;
}

/** The bypass list as Chromium takes it: rules separated by commas, without blanks. */
function checkedBypass(text: string): string {
  const rules = text
    .split(/[,;\s]+/)
    .map((rule) => rule.trim())
    .filter((rule) => rule !== '');
  for (const rule of rules) {
    if (!BYPASS_RULE.test(rule)) refuse(`“${rule}” is not a host, pattern or address range the proxy can be bypassed for.`);
  }
  return rules.join(',');
}

/** The choice as it is saved and applied: a manual proxy's address and bypass list checked and written the one way. */
export function checkedProxyChoice(choice: ProxyChoice): ProxyChoice {
  switch (choice.mode) {
    case 'system':
    case 'none':
      return { mode: choice.mode };
    case 'manual':
      return { mode: 'manual', proxyUrl: checkedProxyUrl(choice.proxyUrl), bypass: checkedBypass(choice.bypass) };
  }
}

/** The session configuration of a checked choice. */
export function sessionProxyConfig(choice: ProxyChoice): SessionProxyConfig {
  switch (choice.mode) {
    case 'system':
      return { mode: 'system' };
    case 'none':
      return { mode: 'direct' };
    case 'manual':
      return { mode: 'fixed_servers', proxyRules: choice.proxyUrl, proxyBypassRules: choice.bypass };
  }
}
