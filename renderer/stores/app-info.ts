/**
 * Facts about the running app (version, host, platform, user data folder) for the About section.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { AppInfo, IpcError } from '../../shared/ipc';
import { useBridge } from '../bridge';

/** The app's facts, read once. */
export const useAppInfoStore = defineStore('appInfo', () => {
  const bridge = useBridge();
  const info = shallowRef<AppInfo | null>(null);
  const error = shallowRef<IpcError | null>(null);

  /** Reads the facts unless they are known. */
  async function load(): Promise<void> {
    if (info.value !== null) return;
    const result = await bridge.app.info();
    info.value = result.ok ? result.value : null;
    error.value = result.ok ? null : result.error;
  }

  return { info, error, load };
});
