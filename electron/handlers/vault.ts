/**
 * The Bridge handlers of the `vault:*` channels: whether keys can be stored encrypted, and a connection's key stored,
 * looked for or removed. A key never comes back out over the Bridge.
 */
import { BridgeError, type IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import { keyOriginOf, LOCAL_CONNECTION_ID } from '../connections';
import type { HostConnections } from '../host-connections';
import type { Vault } from '../vault';

/** The channels these handlers answer. */
export type VaultChannel = Extract<IpcChannel, `vault:${string}`>;

/** What the handlers need of the host. */
export interface VaultHandlerContext {
  vault: Vault;
  connections: HostConnections;
}

/** The handlers of the vault channels. */
export function vaultHandlers({ vault, connections }: VaultHandlerContext): Pick<BridgeHandlers, VaultChannel> {
  return {
    'vault:status': () => vault.status(),
    'vault:has-key': ({ connectionId }) => vault.has(connectionId),
    'vault:set-key': async ({ connectionId, key, allowInsecureStorage }) => {
      const profile = connections.requireProfile(connectionId);
      if (connectionId === LOCAL_CONNECTION_ID) {
        throw new BridgeError('conflict', 'The Local workspace keeps its own key; it cannot be replaced.');
      }
      await vault.set(connectionId, keyOriginOf(profile), key, { allowInsecureStorage: allowInsecureStorage === true });
      connections.announce();
      return null;
    },
    'vault:clear-key': async ({ connectionId }) => {
      if (connectionId === LOCAL_CONNECTION_ID) {
        throw new BridgeError('conflict', 'The Local workspace keeps its own key; it cannot be removed.');
      }
      await vault.clear(connectionId);
      connections.announce();
      return null;
    },
  } satisfies Pick<BridgeHandlers, VaultChannel>;
}
