/**
 * The app's update as the desktop host reports it: downloading, ready to install, and the restart that installs it.
 * Browser mode has no updates: its state stays null.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { IpcResult, UpdateState } from '../../shared/ipc';
import { useBridge } from '../bridge';

/** The update's state, read once and then followed. */
export const useAppUpdateStore = defineStore('appUpdate', () => {
  const bridge = useBridge();
  const state = shallowRef<UpdateState | null>(null);

  bridge.on('app:update-changed', (next) => {
    state.value = next;
  });

  /** Reads the state; a host without updates leaves it null. */
  async function load(): Promise<void> {
    const result = await bridge.app.updateState();
    if (result.ok) state.value = result.value;
  }

  /** Quits and installs the downloaded update. */
  function restartToUpdate(): Promise<IpcResult<null>> {
    return bridge.app.restartToUpdate();
  }

  return { state, load, restartToUpdate };
});
