/**
 * The proxy of browser mode and `npm run watch`, from the environment they were started in, read with the rules of
 * undici's `EnvHttpProxyAgent` (which carries their fetch): `https_proxy`/`HTTPS_PROXY` for https addresses, else
 * `http_proxy`/`HTTP_PROXY`, which also serves http addresses; lower case first. `no_proxy`/`NO_PROXY` lists hosts
 * reached directly: `*` for all, a host for itself and its subdomains (`example.com`, `.example.com`,
 * `*.example.com`), `host:port` for that port only. This computer itself (localhost, 127.0.0.1, [::1]) is always
 * reached directly, as in Chromium: the Local workspace listens there, where no proxy can reach it. The node:http
 * upload path asks the same question per request, so an upload never goes around a proxy that every other call takes.
 */

/** The proxies the environment names; undefined where it names none. */
export interface EnvironmentProxy {
  httpProxy: string | undefined;
  httpsProxy: string | undefined;
  noProxy: string;
}

/** Added to every NO_PROXY list. */
const LOOPBACK = 'localhost,127.0.0.1,[::1]';
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

function named(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** A NO_PROXY list with this computer in it; `*` stays as it is, since undici reads it as "all" only when alone. */
function withLoopback(noProxy: string): string {
  const trimmed = noProxy.trim();
  if (trimmed === '*') return '*';
  return trimmed === '' ? LOOPBACK : `${trimmed},${LOOPBACK}`;
}

/** What `env` says about proxies. */
export function environmentProxyOf(env: NodeJS.ProcessEnv): EnvironmentProxy {
  const httpProxy = named(env['http_proxy'] ?? env['HTTP_PROXY']);
  return {
    httpProxy,
    httpsProxy: named(env['https_proxy'] ?? env['HTTPS_PROXY']) ?? httpProxy,
    noProxy: withLoopback(env['no_proxy'] ?? env['NO_PROXY'] ?? ''),
  };
}

/** Whether `hostname` (lower case, IPv6 in brackets) at `port` is listed in `noProxy`. */
function bypassed(hostname: string, port: number, noProxy: string): boolean {
  if (noProxy === '*') return true;
  const entries = noProxy.split(/[,\s]/).filter((entry) => entry !== '');
  return entries.some((entry) => {
    const withPort = /^(.+):(\d+)$/.exec(entry);
    const entryPort = withPort === null ? 0 : Number.parseInt(withPort[2] ?? '0', 10);
    if (entryPort !== 0 && entryPort !== port) return false;
    const entryHost = (withPort?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    return hostname === entryHost || hostname.endsWith(`.${entryHost}`);
  });
}

/** The proxy a request to `url` goes through, or undefined when it goes directly. */
export function proxyFor(url: URL, proxy: EnvironmentProxy): string | undefined {
  const chosen = url.protocol === 'https:' ? proxy.httpsProxy : url.protocol === 'http:' ? proxy.httpProxy : undefined;
  if (chosen === undefined) return undefined;
  // The host without its port, keeping the brackets of an IPv6 address.
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || (DEFAULT_PORTS[url.protocol] ?? 0);
  return bypassed(hostname, port, proxy.noProxy) ? undefined : chosen;
}
