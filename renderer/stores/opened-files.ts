/**
 * Files opened with the desktop app (a double-click on a model, "Open with", a second launch with files, macOS's
 * open-file): the host registers each as a chosen file and says so (`app:files-opened`); this store takes them
 * (`app:take-opened-files`) until the user has said which building they go to, or that they go nowhere.
 */
import { defineStore } from 'pinia';
import { shallowRef, watch } from 'vue';
import { useBridge, useBridgeLink } from '../bridge';
import type { ChosenFile } from './uploads';

/** The files waiting for a building. */
export const useOpenedFilesStore = defineStore('openedFiles', () => {
  const bridge = useBridge();
  const link = useBridgeLink();
  const files = shallowRef<readonly ChosenFile[]>([]);

  /** Takes what the host holds: files opened before the window listened, or since the last take. */
  async function take(): Promise<void> {
    const result = await bridge.app.takeOpenedFiles();
    if (result.ok && result.value.length > 0) files.value = [...files.value, ...result.value];
  }

  /** The files went to a building, or the user let them go. */
  function clear(): void {
    files.value = [];
  }

  bridge.on('app:files-opened', () => void take());
  // An event sent while the link to the host was down is lost: the files wait in the host, taken once it is back.
  watch(link, (state, before) => {
    if (state === 'open' && before === 'disconnected') void take();
  });
  void take();

  return { files, take, clear };
});
