/**
 * The state of the Local workspace's embedded server, as the host reports it at start and on every change.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { IpcError, IpcResult, LocalWorkspaceStatus } from '../../shared/ipc';
import { useBridge } from '../bridge';

/** The embedded server's state. */
export const useLocalWorkspaceStore = defineStore('localWorkspace', () => {
  const bridge = useBridge();
  const status = shallowRef<LocalWorkspaceStatus | null>(null);
  const error = shallowRef<IpcError | null>(null);
  const restarting = ref(false);

  bridge.on('local:status-changed', (next) => {
    status.value = next;
    error.value = null;
  });

  /** Reads the current state. */
  async function load(): Promise<void> {
    const result = await bridge.local.status();
    if (result.ok) {
      status.value = result.value;
      error.value = null;
    } else {
      error.value = result.error;
    }
  }

  /** Restarts the embedded server. */
  async function restart(): Promise<IpcResult<LocalWorkspaceStatus>> {
    restarting.value = true;
    try {
      const result = await bridge.local.restart();
      if (result.ok) status.value = result.value;
      return result;
    } finally {
      restarting.value = false;
    }
  }

  return { status, error, restarting, load, restart };
});
