/**
 * The desktop host's services wired together, the same in Electron and in browser mode: connections, the vault, one
 * queued API client per connection, and the Local workspace. Its `handlers` implement every Bridge channel; the
 * Electron IPC and the browser host's WebSocket are transports over them.
 */
import path from 'node:path';
import { AccountResponse } from '../shared/api/schemas';
import { Value } from 'typebox/value';
import {
  BridgeError,
  type ApiAnswer,
  type ApiRequest,
  type Connection,
  type ConnectionList,
  type ConnectionTestResult,
  type IpcEvent,
  type IpcEventPayload,
} from '../shared/ipc';
import type { BridgeEventSink, BridgeHandlers } from './bridge-dispatch';
import { ConnectionStore, LOCAL_CONNECTION_ID, normaliseBaseUrl, type ConnectionProfile } from './connections';
import { runApiCall } from './http/api-request';
import { createQueuedClient, type QueuedClient } from './http/queued-client';
import { LocalWorkspace, type LocalServerLauncher } from './local-server';
import type { Vault } from './vault';

/** What the host is made of; each host (Electron, browser) supplies its own vault, launcher and shell. */
export interface DesktopHostOptions {
  userDataDir: string;
  host: 'electron' | 'browser';
  version: string;
  vault: Vault;
  startLocalServer: LocalServerLauncher;
  /** Opens an http(s) address in the system browser. */
  openExternal: (url: string) => Promise<void>;
  log: (message: string, error?: unknown) => void;
}

/** What the tray and the window title show. */
export interface DesktopStatus {
  local: ReturnType<LocalWorkspace['status']>;
  /** Calls waiting or running, over all connections. */
  queued: number;
  running: number;
}

/** The running host. */
export interface DesktopHost {
  handlers: BridgeHandlers;
  /** Sends every host event to `sink` until the returned function is called. */
  onEvent(sink: BridgeEventSink): () => void;
  status(): DesktopStatus;
  /** Adds or updates the remote connection to `baseUrl`, stores `key` for it and makes it active (managed installs, tests). */
  provision(baseUrl: string, key: string): Promise<Connection>;
  /** Waits for open calls, stops the Local workspace server. */
  close(): Promise<void>;
}

/** Starts the services; the Local workspace is started too, and a failure to start it leaves the rest usable. */
export async function startDesktopHost(options: DesktopHostOptions): Promise<DesktopHost> {
  const { vault, log } = options;
  const connections = await ConnectionStore.open(options.userDataDir);
  if (connections.setAside !== undefined) {
    log(`The connections file could not be read and was moved aside to ${connections.setAside}; the list starts empty.`);
  }
  const sinks = new Set<BridgeEventSink>();
  const emit = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void => {
    for (const sink of sinks) sink(event, payload);
  };

  const clients = new Map<string, { client: QueuedClient; profile: ConnectionProfile }>();
  const activity = new Map<string, { queued: number; running: number }>();

  /** The client of a connection, made anew when its address or version changed (the old one finishes its calls). */
  function clientOf(profile: ConnectionProfile): QueuedClient {
    const existing = clients.get(profile.id);
    if (existing !== undefined && existing.profile.baseUrl === profile.baseUrl && existing.profile.apiVersion === profile.apiVersion) {
      return existing.client;
    }
    if (existing !== undefined) void existing.client.close();
    const client = createQueuedClient({
      baseUrl: profile.baseUrl,
      apiVersion: profile.apiVersion,
      apiKey: () => vault.get(profile.id),
      onActivity: (now) => {
        activity.set(profile.id, now);
        emit('http:activity', { connectionId: profile.id, ...now });
      },
    });
    clients.set(profile.id, { client, profile });
    return client;
  }

  function requireProfile(connectionId: string): ConnectionProfile {
    const profile = connections.get(connectionId);
    if (profile === undefined) throw new BridgeError('not-found', 'This connection no longer exists.');
    return profile;
  }

  async function connectionList(): Promise<ConnectionList> {
    const { profiles, activeId } = connections.list();
    const listed: Connection[] = await Promise.all(
      profiles.map(async (profile) => ({ ...profile, hasKey: await vault.has(profile.id) })),
    );
    return { connections: listed, activeId };
  }

  const announceConnections = (): void => {
    connectionList().then(
      (list) => emit('connections:changed', list),
      (error: unknown) => log('Listing the connections failed.', error),
    );
  };
  connections.onChange(announceConnections);

  const local = new LocalWorkspace({
    dataDir: path.join(options.userDataDir, 'local-workspace'),
    vault,
    launch: options.startLocalServer,
    log,
  });
  local.onStatus((status) => emit('local:status-changed', status));
  // Every (re)start may listen at a new port; the profile follows it.
  let localSaved: Promise<unknown> = Promise.resolve();
  local.onListening((url) => {
    localSaved = connections.ensureLocal(url).catch((error: unknown) => log('Saving the Local workspace address failed.', error));
  });
  try {
    await local.start();
    await localSaved;
  } catch (error) {
    log('The Local workspace server could not start.', error);
  }

  async function request({ connectionId, ...call }: ApiRequest): Promise<ApiAnswer> {
    const profile = requireProfile(connectionId);
    return runApiCall(clientOf(profile), profile.apiVersion, call);
  }

  async function testConnection(connectionId: string): Promise<ConnectionTestResult> {
    const profile = requireProfile(connectionId);
    // The user waits for this answer: one attempt, no retries.
    const result = await clientOf(profile).callLoose('getCurrentAccount', {}, { retry: false });
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

  const handlers: BridgeHandlers = {
    'app:info': async () => ({
      version: options.version,
      host: options.host,
      platform: process.platform,
      userDataDir: options.userDataDir,
    }),
    'connections:list': () => connectionList(),
    'connections:add': async (draft) => {
      const profile = await connections.add(draft);
      return { ...profile, hasKey: await vault.has(profile.id) };
    },
    'connections:update': async ({ connectionId, ...draft }) => {
      const profile = await connections.update(connectionId, draft);
      return { ...profile, hasKey: await vault.has(profile.id) };
    },
    'connections:remove': async ({ connectionId }) => {
      await connections.remove(connectionId);
      await vault.clear(connectionId);
      const removed = clients.get(connectionId);
      clients.delete(connectionId);
      await removed?.client.close();
      return null;
    },
    'connections:activate': async ({ connectionId }) => {
      await connections.activate(connectionId);
      return null;
    },
    'connections:test': ({ connectionId }) => testConnection(connectionId),
    'vault:status': () => vault.status(),
    'vault:has-key': ({ connectionId }) => vault.has(connectionId),
    'vault:set-key': async ({ connectionId, key, allowInsecureStorage }) => {
      requireProfile(connectionId);
      if (connectionId === LOCAL_CONNECTION_ID) {
        throw new BridgeError('conflict', 'The Local workspace keeps its own key; it cannot be replaced.');
      }
      await vault.set(connectionId, key, { allowInsecureStorage: allowInsecureStorage === true });
      announceConnections();
      return null;
    },
    'vault:clear-key': async ({ connectionId }) => {
      if (connectionId === LOCAL_CONNECTION_ID) {
        throw new BridgeError('conflict', 'The Local workspace keeps its own key; it cannot be removed.');
      }
      await vault.clear(connectionId);
      announceConnections();
      return null;
    },
    'api:request': request,
    'local:status': async () => local.status(),
    'local:restart': async () => {
      try {
        await local.restart();
      } catch (error) {
        log('Restarting the Local workspace server failed.', error);
      }
      return local.status();
    },
    'shell:open-external': async ({ url }) => {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new BridgeError('invalid-request', 'Only http and https addresses are opened.');
      }
      await options.openExternal(parsed.toString()); // eng-disable OPEN_EXTERNAL_JS_CHECK (only http(s), checked above)
      return null;
    },
  };

  return {
    handlers,
    onEvent(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    status() {
      let queued = 0;
      let running = 0;
      for (const each of activity.values()) {
        queued += each.queued;
        running += each.running;
      }
      return { local: local.status(), queued, running };
    },
    async provision(baseUrl, key) {
      const address = normaliseBaseUrl(baseUrl);
      const existing = connections.list().profiles.find((profile) => profile.kind === 'remote' && profile.baseUrl === address);
      const draft = { name: existing?.name ?? new URL(address).host, baseUrl: address, apiVersion: existing?.apiVersion ?? ('v2.3' as const) };
      const profile = existing === undefined ? await connections.add(draft) : await connections.update(existing.id, draft);
      await vault.set(profile.id, key);
      await connections.activate(profile.id);
      announceConnections();
      return { ...profile, hasKey: true };
    },
    async close() {
      await Promise.all([...clients.values()].map(({ client }) => client.close()));
      await local.stop();
    },
  };
}
