/**
 * Points Node's fetch at the proxy of the environment (browser mode, `npm run watch`): Node 20's fetch ignores
 * HTTPS_PROXY and NO_PROXY. undici's global dispatcher is the one Node's own fetch reads, so every fetch of the
 * process goes through `EnvHttpProxyAgent`. Certificates: Node itself adds those of `NODE_EXTRA_CA_CERTS` at start,
 * for fetch and node:https alike.
 */
import { EnvHttpProxyAgent, setGlobalDispatcher } from 'undici';
import { environmentProxyOf } from './environment-proxy';

/** Routes the process's fetch through the environment's proxy when it names one; answers what it says for the log. */
export function useEnvironmentProxy(env: NodeJS.ProcessEnv): string | undefined {
  const proxy = environmentProxyOf(env);
  if (proxy.httpProxy === undefined && proxy.httpsProxy === undefined) return undefined;
  setGlobalDispatcher(new EnvHttpProxyAgent({ httpProxy: proxy.httpProxy, httpsProxy: proxy.httpsProxy, noProxy: proxy.noProxy }));
  const direct = proxy.noProxy === '' ? '' : `, directly to ${proxy.noProxy}`;
  return `Servers are reached through the proxy ${withoutCredentials(proxy.httpsProxy ?? proxy.httpProxy ?? '')}${direct}.`;
}

/** A proxy address as the log may show it: a user and password in it stay out. */
function withoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'named in the environment';
  }
}
