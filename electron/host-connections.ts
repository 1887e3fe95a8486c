/**
 * The host's connections as its handlers and services use them: each one's profile and queued API client, the list
 * the window shows (with whether each has a key), announced on every change, and the keys they hold.
 */
import { BridgeError, type Connection, type ConnectionList } from '../shared/ipc';
import { keyOriginOf, LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN, normaliseBaseUrl, type ConnectionProfile, type ConnectionStore } from './connections';
import { createQueuedClient, type QueuedClient, type QueuedClientOptions } from './http/queued-client';
import type { Vault } from './vault';

/** Calls waiting for a slot of a client and calls running. */
export interface ClientActivity {
  queued: number;
  running: number;
}

export interface HostConnectionsOptions {
  store: ConnectionStore;
  vault: Vault;
  /** What every call goes through; default Node's fetch. */
  fetch: typeof globalThis.fetch | undefined;
  retry: QueuedClientOptions['retry'] | undefined;
  /** The clients' timeout; default the queued client's. */
  timeoutMs: number | undefined;
  log: (message: string, error?: unknown) => void;
  /** Hears the list after every change of a connection or of its key. */
  onList(list: ConnectionList): void;
  onActivity(connectionId: string, activity: ClientActivity): void;
  /**
   * The connection's server may answer now: a call to it succeeded, or its address changed (edited, or the Local
   * workspace restarted at another port).
   */
  onReachable(connectionId: string): void;
}

export class HostConnections {
  readonly #options: HostConnectionsOptions;
  readonly #clients = new Map<string, { client: QueuedClient; profile: ConnectionProfile }>();
  readonly #activity = new Map<string, ClientActivity>();
  readonly #addresses: Map<string, string>;

  constructor(options: HostConnectionsOptions) {
    this.#options = options;
    const { store } = options;
    this.#addresses = new Map(store.list().profiles.map((profile) => [profile.id, profile.baseUrl]));
    store.onChange(() => this.announce());
    store.onChange(() => {
      for (const profile of store.list().profiles) {
        if (this.#addresses.get(profile.id) === profile.baseUrl) continue;
        this.#addresses.set(profile.id, profile.baseUrl);
        options.onReachable(profile.id);
      }
    });
  }

  get store(): ConnectionStore {
    return this.#options.store;
  }

  /** A connection's profile; throws `not-found` for one that does not exist. */
  requireProfile(connectionId: string): ConnectionProfile {
    const profile = this.store.get(connectionId);
    if (profile === undefined) throw new BridgeError('not-found', 'This connection no longer exists.');
    return profile;
  }

  /** The client of a connection, made anew when its address or version changed (the old one finishes its calls). */
  clientOf(profile: ConnectionProfile): QueuedClient {
    const existing = this.#clients.get(profile.id);
    if (existing !== undefined && existing.profile.baseUrl === profile.baseUrl && existing.profile.apiVersion === profile.apiVersion) {
      return existing.client;
    }
    if (existing !== undefined) void existing.client.close();
    const { vault, retry, timeoutMs, fetch } = this.#options;
    const client = createQueuedClient({
      baseUrl: profile.baseUrl,
      apiVersion: profile.apiVersion,
      apiKey: () => vault.get(profile.id, keyOriginOf(profile)),
      ...(retry === undefined ? {} : { retry }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(fetch === undefined ? {} : { fetch }),
      onActivity: (now) => {
        this.#activity.set(profile.id, now);
        this.#options.onActivity(profile.id, now);
      },
      // The server answers again: work waiting for it goes now rather than after its backoff.
      onSuccess: () => this.#options.onReachable(profile.id),
    });
    this.#clients.set(profile.id, { client, profile });
    return client;
  }

  /** The client of a connection, or undefined while the connection is not there. */
  clientFor(connectionId: string): QueuedClient | undefined {
    const profile = this.store.get(connectionId);
    return profile === undefined ? undefined : this.clientOf(profile);
  }

  /** Calls waiting and running over all connections. */
  activity(): ClientActivity {
    let queued = 0;
    let running = 0;
    for (const each of this.#activity.values()) {
      queued += each.queued;
      running += each.running;
    }
    return { queued, running };
  }

  async list(): Promise<ConnectionList> {
    const { profiles, activeId } = this.store.list();
    const listed: Connection[] = await Promise.all(
      profiles.map(async (profile) => ({ ...profile, hasKey: await this.#options.vault.has(profile.id) })),
    );
    return { connections: listed, activeId };
  }

  /** Sends the list to `onList`; a key stored or cleared changes it without a change of the store. */
  announce(): void {
    this.list().then(
      (list) => this.#options.onList(list),
      (error: unknown) => this.#options.log('Listing the connections failed.', error),
    );
  }

  /** The profile with whether its key is stored. */
  async withKey(profile: ConnectionProfile): Promise<Connection> {
    return { ...profile, hasKey: await this.#options.vault.has(profile.id) };
  }

  /** The remote connection to this address: the one there is (its name kept), else a new one named after the host. */
  async remoteTo(baseUrl: string): Promise<ConnectionProfile> {
    const address = normaliseBaseUrl(baseUrl);
    const existing = this.store.list().profiles.find((profile) => profile.kind === 'remote' && profile.baseUrl === address);
    // The user named this address themselves (on the command line, or confirmed in the host's own step of a move).
    const draft = {
      name: existing?.name ?? new URL(address).host,
      baseUrl: address,
      apiVersion: existing?.apiVersion ?? ('v2.3' as const),
      plainHttpConfirmed: true,
    };
    return existing === undefined ? this.store.add(draft) : this.store.update(existing.id, draft);
  }

  /** Removes a connection, its key and its client (which finishes its calls first). */
  async remove(connectionId: string): Promise<void> {
    await this.store.remove(connectionId);
    await this.#options.vault.clear(connectionId);
    const removed = this.#clients.get(connectionId);
    this.#clients.delete(connectionId);
    await removed?.client.close();
  }

  /** Every key the vault holds, so that diagnostics can cut out one a log line caught; an unreadable key is not there to leak. */
  async storedKeys(): Promise<string[]> {
    const { vault } = this.#options;
    const stored = await Promise.all([
      vault.get(LOCAL_CONNECTION_ID, LOCAL_KEY_ORIGIN).catch(() => undefined),
      ...this.store.list().profiles.map((profile) => vault.get(profile.id, keyOriginOf(profile)).catch(() => undefined)),
    ]);
    return stored.filter((key): key is string => key !== undefined && key !== '');
  }

  /** Waits for the clients' open calls. */
  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map(({ client }) => client.close()));
  }
}
