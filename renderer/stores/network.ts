/**
 * The proxy of the desktop app (Settings → Network): the choice the host applies, saving a new one, and a test of
 * it against a connection. Browser mode has no such choice (the host answers `unavailable`): its proxy comes from the
 * environment it was started in.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { IpcError, ProxyTestResult } from '../../shared/ipc';
import type { ProxyChoice } from '../../shared/network';
import { useBridge } from '../bridge';

/** Where a proxy test is. */
export type ProxyTestState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; result: ProxyTestResult }
  | { kind: 'failed'; error: IpcError };

/** The proxy choice and its test. */
export const useNetworkStore = defineStore('network', () => {
  const bridge = useBridge();
  const choice = shallowRef<ProxyChoice | null>(null);
  const loadError = shallowRef<IpcError | null>(null);
  const test = shallowRef<ProxyTestState>({ kind: 'idle' });

  async function load(): Promise<void> {
    const result = await bridge.network.proxy();
    choice.value = result.ok ? result.value : null;
    loadError.value = result.ok ? null : result.error;
  }

  /** Saves and applies a choice; answers why the host refused it, or null. A new choice makes an earlier test stale. */
  async function save(next: ProxyChoice): Promise<IpcError | null> {
    const result = await bridge.network.setProxy(next);
    if (!result.ok) return result.error;
    choice.value = result.value;
    test.value = { kind: 'idle' };
    return null;
  }

  /** Tests the proxy in use against a connection's server. */
  async function runTest(connectionId: string): Promise<void> {
    test.value = { kind: 'running' };
    const result = await bridge.network.testProxy({ connectionId });
    test.value = result.ok ? { kind: 'done', result: result.value } : { kind: 'failed', error: result.error };
  }

  return { choice, loadError, test, load, save, runTest };
});
