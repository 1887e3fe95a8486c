/**
 * The upload cards of a building's or portfolio's page. A card shows while its upload runs, and after it ended while
 * the page stays open; it goes when its file is deleted, and an ended one that needs nothing more (done, cancelled)
 * when the page is left, so cards never pile up. A failed one stays until the user retries or dismisses it.
 */
import { computed, onScopeDispose, watch, type ComputedRef } from 'vue';
import type { UploadEntry, UploadTarget } from '../../shared/uploads';
import { isRunning, uploadedFileId } from '../stores/upload-ledger';
import { useUploadsStore } from '../stores/uploads';

/** The cards of `kind`'s target `id`; `listedFileIds`: the ids of the files the page lists, null until it has read them. */
export function useUploadCards(kind: UploadTarget['kind'], id: () => string, listedFileIds: () => ReadonlySet<string> | null): ComputedRef<UploadEntry[]> {
  const uploads = useUploadsStore();
  const shown = computed(() => uploads.shownFor(kind, id()));

  watch([shown, listedFileIds], ([entries, listed], [, listedBefore]) => {
    if (listed === null) return;
    const ofDeletedFiles = entries.filter((entry) => {
      const fileId = uploadedFileId(entry);
      return !isRunning(entry) && fileId !== null && listedBefore?.has(fileId) === true && !listed.has(fileId);
    });
    if (ofDeletedFiles.length > 0) uploads.retire(ofDeletedFiles.map((entry) => entry.id));
  });

  // A failed upload needs the user, on this page or the next visit; any other ended one was seen here.
  onScopeDispose(() => uploads.retire(shown.value.filter((entry) => !isRunning(entry) && entry.state !== 'failed').map((entry) => entry.id)));
  return shown;
}
