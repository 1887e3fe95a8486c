/**
 * For pages that read the cache: opened directly (a reload on the page), such a page is the first screen, so it marks
 * the app ready (`app-ready.ts`) once its query answered, or at once when there is no connection whose cache to read.
 */
import { nextTick, watch, type Ref } from 'vue';
import { markAppReady } from '../app-ready';
import { useConnectionsStore } from '../stores/connections';

/** Marks the app ready once `loaded` holds, or when no connection is active. */
export function useReadyWhenLoaded(loaded: Readonly<Ref<boolean>>): void {
  const connections = useConnectionsStore();
  void connections.ensureLoaded().then(() => {
    if (connections.active === null) markAppReady();
  });
  watch(
    loaded,
    async (done) => {
      if (!done) return;
      await nextTick();
      markAppReady();
    },
    { immediate: true },
  );
}
