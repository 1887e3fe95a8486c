/**
 * The Bridge handlers of the `connections:*` channels: the list, adding, changing, removing and choosing a connection,
 * and testing one, saved or not yet.
 */
import { Value } from 'typebox/value';
import { AccountResponse } from '../../shared/api/schemas';
import type { ConnectionTestResult, IpcChannel } from '../../shared/ipc';
import type { BridgeHandlers } from '../bridge-dispatch';
import { checkedDraftAddress, keyOriginOf } from '../connections';
import type { HostConnections } from '../host-connections';
import { createQueuedClient, type QueuedClient } from '../http/queued-client';
import type { Vault } from '../vault';

/** The channels these handlers answer. */
export type ConnectionChannel = Extract<IpcChannel, `connections:${string}`>;

/** What the handlers need of the host. */
export interface ConnectionHandlerContext {
  connections: HostConnections;
  vault: Vault;
  /** What a test of a connection not yet saved goes through; default Node's fetch. */
  fetch: typeof globalThis.fetch | undefined;
  /** A connection was removed: what used it (drop folders, passport folders) stays, showing why it no longer works. */
  onRemoved(connectionId: string): void;
}

/** Asks the server who the key belongs to, once: the user waits for this answer, so there are no retries. */
export async function testConnectionWith(client: QueuedClient): Promise<ConnectionTestResult> {
  const result = await client.callLoose('getCurrentAccount', {}, { retry: false });
  switch (result.kind) {
    case 'ok': {
      // Any address can be typed in: a 200 from something that is not this API must not pass as a working connection.
      if (!Value.Check(AccountResponse, result.value)) {
        return { kind: 'network', message: 'The server answered, but not as the Building Circularity Data API does. Check the address.' };
      }
      const account = result.value;
      return { kind: 'ok', accountName: account.name, accountType: account.accountType };
    }
    case 'problem':
      return { kind: 'problem', status: result.status, title: result.problem.title, detail: result.problem.detail };
    case 'network':
      return { kind: 'network', message: result.error.message };
  }
}

/** The handlers of the connection channels. */
export function connectionHandlers(context: ConnectionHandlerContext): Pick<BridgeHandlers, ConnectionChannel> {
  const { connections, vault } = context;
  return {
    'connections:list': () => connections.list(),
    'connections:add': async (draft) => connections.withKey(await connections.store.add(draft)),
    'connections:update': async ({ connectionId, ...draft }) => {
      const before = connections.requireProfile(connectionId);
      const profile = await connections.store.update(connectionId, draft);
      // A key belongs to the server it was entered for: a new origin is another server, which must not get it.
      if (keyOriginOf(profile) !== keyOriginOf(before)) {
        await vault.clear(connectionId);
        connections.announce();
      }
      return connections.withKey(profile);
    },
    'connections:remove': async ({ connectionId }) => {
      await connections.remove(connectionId);
      context.onRemoved(connectionId);
      return null;
    },
    'connections:activate': async ({ connectionId }) => {
      await connections.store.activate(connectionId);
      return null;
    },
    'connections:test': ({ connectionId }) => testConnectionWith(connections.clientOf(connections.requireProfile(connectionId))),
    // A client of its own with the typed key, closed after the one call.
    'connections:test-draft': async ({ apiVersion, key, ...address }) => {
      const client = createQueuedClient({
        baseUrl: await checkedDraftAddress(address),
        apiVersion,
        apiKey: async () => key,
        ...(context.fetch === undefined ? {} : { fetch: context.fetch }),
      });
      try {
        return await testConnectionWith(client);
      } finally {
        await client.close();
      }
    },
  } satisfies Pick<BridgeHandlers, ConnectionChannel>;
}
