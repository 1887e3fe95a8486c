/**
 * The connection profiles, the active one, what their last test found, how busy each one's HTTP queue is, and how the
 * vault protects keys. Every change goes through the host; the list is then read again, and the host's
 * `connections:changed` event keeps it current when something else changed it.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type {
  Connection,
  ConnectionDraft,
  ConnectionList,
  ConnectionTestResult,
  HttpActivity,
  IpcError,
  IpcResult,
  VaultStatus,
} from '../../shared/ipc';
import { useBridge } from '../bridge';

/** What "Test connection" of one connection is doing or found. */
export type ConnectionTestState =
  | { kind: 'running' }
  | { kind: 'done'; result: ConnectionTestResult }
  | { kind: 'failed'; error: IpcError };

/** Whether the list has been read. */
export type ConnectionsLoadState = 'idle' | 'loading' | 'loaded' | 'failed';

/** Connections, the active one, tests, HTTP activity and vault protection. */
export const useConnectionsStore = defineStore('connections', () => {
  const bridge = useBridge();
  const connections = shallowRef<Connection[]>([]);
  const activeId = ref<string | null>(null);
  const loadState = ref<ConnectionsLoadState>('idle');
  const loadError = shallowRef<IpcError | null>(null);
  const tests = ref<Record<string, ConnectionTestState>>({});
  const activity = ref<Record<string, HttpActivity>>({});
  const vaultStatus = shallowRef<VaultStatus | null>(null);
  const vaultError = shallowRef<IpcError | null>(null);

  const active = computed(() => connections.value.find((connection) => connection.id === activeId.value) ?? null);
  const activeActivity = computed(() => (activeId.value === null ? undefined : activity.value[activeId.value]));

  // Each list read and each event takes a number; an answer older than what is shown is dropped.
  let listGeneration = 0;
  let firstLoad: Promise<void> | undefined;

  function apply(list: ConnectionList): void {
    connections.value = list.connections;
    activeId.value = list.activeId;
    loadState.value = 'loaded';
    loadError.value = null;
    const ids = new Set(list.connections.map((connection) => connection.id));
    tests.value = Object.fromEntries(Object.entries(tests.value).filter(([id]) => ids.has(id)));
  }

  bridge.on('connections:changed', (list) => {
    listGeneration += 1;
    apply(list);
  });
  bridge.on('http:activity', (update) => {
    activity.value = { ...activity.value, [update.connectionId]: update };
  });

  /** Reads the list again. */
  async function refresh(): Promise<void> {
    const mine = ++listGeneration;
    if (loadState.value !== 'loaded') loadState.value = 'loading';
    const result = await bridge.connections.list();
    if (mine !== listGeneration) return;
    if (result.ok) {
      apply(result.value);
    } else if (loadState.value !== 'loaded') {
      loadState.value = 'failed';
      loadError.value = result.error;
    }
  }

  /** Reads the list unless it has been read; concurrent callers share one read. */
  function ensureLoaded(): Promise<void> {
    if (loadState.value === 'loaded') return Promise.resolve();
    firstLoad ??= refresh().finally(() => {
      firstLoad = undefined;
    });
    return firstLoad;
  }

  async function thenRefresh<T>(call: Promise<IpcResult<T>>): Promise<IpcResult<T>> {
    const result = await call;
    if (result.ok) await refresh();
    return result;
  }

  /** Adds a remote connection (without its key: `setKey` stores that). */
  function add(draft: ConnectionDraft): Promise<IpcResult<Connection>> {
    return thenRefresh(bridge.connections.add(draft));
  }

  /** Changes a connection's name, address or API version. */
  function update(connectionId: string, draft: ConnectionDraft): Promise<IpcResult<Connection>> {
    return thenRefresh(bridge.connections.update({ connectionId, ...draft }));
  }

  /** Deletes a connection and its key. */
  function remove(connectionId: string): Promise<IpcResult<null>> {
    return thenRefresh(bridge.connections.remove({ connectionId }));
  }

  /** Makes a connection the one the app works with. */
  function activate(connectionId: string): Promise<IpcResult<null>> {
    return thenRefresh(bridge.connections.activate({ connectionId }));
  }

  /** Stores a connection's key; `allowInsecureStorage` is the user's consent when the vault cannot encrypt. */
  function setKey(connectionId: string, key: string, allowInsecureStorage = false): Promise<IpcResult<null>> {
    return thenRefresh(
      bridge.vault.setKey(allowInsecureStorage ? { connectionId, key, allowInsecureStorage } : { connectionId, key }),
    );
  }

  /** Removes a connection's key. */
  function clearKey(connectionId: string): Promise<IpcResult<null>> {
    return thenRefresh(bridge.vault.clearKey({ connectionId }));
  }

  /** Asks the connection's server who the key belongs to; the outcome lands in `tests`. */
  async function test(connectionId: string): Promise<void> {
    tests.value = { ...tests.value, [connectionId]: { kind: 'running' } };
    const result = await bridge.connections.test({ connectionId });
    tests.value = {
      ...tests.value,
      [connectionId]: result.ok ? { kind: 'done', result: result.value } : { kind: 'failed', error: result.error },
    };
  }

  /** Tests a connection that is not saved yet, with the key typed for it; nothing of it is kept. */
  async function testDraft(draft: ConnectionDraft, key: string): Promise<Exclude<ConnectionTestState, { kind: 'running' }>> {
    const result = await bridge.connections.testDraft({ baseUrl: draft.baseUrl, apiVersion: draft.apiVersion, key });
    return result.ok ? { kind: 'done', result: result.value } : { kind: 'failed', error: result.error };
  }

  /** Reads how the vault protects keys. */
  async function loadVaultStatus(): Promise<void> {
    const result = await bridge.vault.status();
    vaultStatus.value = result.ok ? result.value : null;
    vaultError.value = result.ok ? null : result.error;
  }

  return {
    connections,
    activeId,
    active,
    loadState,
    loadError,
    tests,
    activity,
    activeActivity,
    vaultStatus,
    vaultError,
    refresh,
    ensureLoaded,
    add,
    update,
    remove,
    activate,
    setKey,
    clearKey,
    test,
    testDraft,
    loadVaultStatus,
  };
});
