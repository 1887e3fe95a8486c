/**
 * A list the server answers each time it is read (not cached): the list, null until its first answer; whether a read is
 * on its way; and why the last one failed, kept until the next answer so *Retry* shows its progress. A new `key`
 * (another building or portfolio) starts the list over, and the answer to a read that a later one overtook is dropped.
 */
import { ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue';
import type { ApiFailure } from '../api/failure';
import type { ApiOutcome } from '../api/outcome';

export interface OnlineList<Item> {
  items: ShallowRef<readonly Item[] | null>;
  loading: Ref<boolean>;
  /** Why the last read failed; an action on the list's items may put its own refusal here. */
  refusal: ShallowRef<ApiFailure | null>;
  load: () => Promise<void>;
}

export function useOnlineList<Item>(key: () => unknown, read: () => Promise<ApiOutcome<readonly Item[]>>): OnlineList<Item> {
  const items = shallowRef<readonly Item[] | null>(null);
  const loading = ref(false);
  const refusal = shallowRef<ApiFailure | null>(null);

  // Only the latest read's answer counts: an earlier one may be of the list's previous key, or older than the latest.
  let latestRead = 0;
  async function load(): Promise<void> {
    const thisRead = ++latestRead;
    loading.value = true;
    try {
      const outcome = await read();
      if (thisRead !== latestRead) return;
      refusal.value = outcome.ok ? null : outcome.failure;
      if (outcome.ok) items.value = outcome.value;
    } finally {
      if (thisRead === latestRead) loading.value = false;
    }
  }

  watch(
    key,
    () => {
      items.value = null;
      void load();
    },
    { immediate: true },
  );
  return { items, loading, refusal, load };
}
