/**
 * The desktop app's *Start at login* setting, kept by the host (login items on Windows and macOS, an autostart entry
 * on Linux). Browser mode has no such setting: the host answers `unavailable` and Settings says why.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { IpcError } from '../../shared/ipc';
import { useBridge } from '../bridge';

/** What Settings shows: the setting (with why the last change failed, if it did), no such setting here, or why it could not be read. */
export type StartAtLoginState =
  | { kind: 'loading' }
  | { kind: 'ready'; enabled: boolean; changeFailed: IpcError | null }
  | { kind: 'unavailable' }
  | { kind: 'failed'; error: IpcError };

/** Reads and changes whether the app starts at login. */
export const useStartAtLoginStore = defineStore('startAtLogin', () => {
  const bridge = useBridge();
  const state = shallowRef<StartAtLoginState>({ kind: 'loading' });
  const saving = shallowRef(false);

  async function load(): Promise<void> {
    const result = await bridge.app.startAtLogin();
    if (result.ok) state.value = { kind: 'ready', enabled: result.value.enabled, changeFailed: null };
    else state.value = result.error.code === 'unavailable' ? { kind: 'unavailable' } : { kind: 'failed', error: result.error };
  }

  /** Changes the setting; a refused change keeps what was set, with the reason. */
  async function set(enabled: boolean): Promise<void> {
    const before = state.value;
    if (before.kind !== 'ready') return;
    saving.value = true;
    try {
      const result = await bridge.app.setStartAtLogin({ enabled });
      state.value = result.ok
        ? { kind: 'ready', enabled: result.value.enabled, changeFailed: null }
        : { kind: 'ready', enabled: before.enabled, changeFailed: result.error };
    } finally {
      saving.value = false;
    }
  }

  return { state, saving, load, set };
});
