/**
 * The Bridge handlers of the `network:*` channels: the proxy chosen in Settings (Electron), and a test of which proxy
 * a connection's address takes and whether its server answers that way.
 */
import { BridgeError, type IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import type { HostConnections } from '../host-connections';
import type { ProxyControl } from '../network/proxy-control';
import { testConnectionWith } from './connections';

/** The channels these handlers answer. */
export type NetworkChannel = Extract<IpcChannel, `network:${string}`>;

/** What the handlers need of the host. */
export interface NetworkHandlerContext {
  /** Absent in browser mode, whose proxy comes from the environment: its channels answer `unavailable`. */
  proxy: ProxyControl | undefined;
  connections: HostConnections;
}

/** The handlers of the network channels. */
export function networkHandlers(context: NetworkHandlerContext): Pick<BridgeHandlers, NetworkChannel> {
  const { connections } = context;

  function requireProxy(): ProxyControl {
    if (context.proxy === undefined) {
      throw new BridgeError('unavailable', 'In browser mode the proxy comes from HTTPS_PROXY, HTTP_PROXY and NO_PROXY of the terminal that started it.');
    }
    return context.proxy;
  }

  return {
    'network:proxy': async () => requireProxy().choice(),
    'network:set-proxy': (choice) => requireProxy().choose(choice),
    // One attempt at the server, beside the proxy Chromium picks for its address.
    'network:test-proxy': async ({ connectionId }) => {
      const proxy = requireProxy();
      const profile = connections.requireProfile(connectionId);
      const [resolved, server] = await Promise.all([proxy.resolve(profile.baseUrl), testConnectionWith(connections.clientOf(profile))]);
      return { proxy: resolved, server };
    },
  } satisfies Pick<BridgeHandlers, NetworkChannel>;
}
