/**
 * The local reports (`local-report.ts`) of some files, kept current. A file's elements are read in short steps (a file
 * can hold 100,000 of them), so they are not a live query: a cheap live query of what changes them (the file's stamp,
 * its element count, its outbox entries) tells when to read them again.
 */
import { Dexie } from 'dexie';
import { onScopeDispose, readonly, shallowRef, watch, type Ref } from 'vue';
import type { CacheDb } from '../../db/cache-db';
import { elementCount, scanElements } from '../../db/reads';
import { useCacheQuery } from '../../components/use-cache-query';
import { useSyncStore } from '../../stores/sync';
import { reportTally, type LocalReport } from './local-report';

/** A pause after the last change before the files are read again: a sync writes its pages in quick succession. */
const RESCAN_DEBOUNCE_MS = 150;

/** What changes when a file's elements may have: its stamp, its element count, its outbox entries. */
async function signatureOf(db: CacheDb, fileId: string): Promise<string> {
  const aggregate = db.outbox.where('[aggregate+seq]').between([`file:${fileId}`, Dexie.minKey], [`file:${fileId}`, Dexie.maxKey], true, true);
  const [file, count, entries, last] = await Promise.all([db.files.get(fileId), elementCount(db, fileId), aggregate.clone().count(), aggregate.clone().last()]);
  return [fileId, file?.elementsStamp ?? '', count, entries, last?.seq ?? ''].join(':');
}

/** The local reports of the files `fileIds` names, by file id; `loaded` once every one of them was read. */
export function useLocalReports(fileIds: () => readonly string[]): { reports: Readonly<Ref<ReadonlyMap<string, LocalReport>>>; loaded: Readonly<Ref<boolean>> } {
  const sync = useSyncStore();
  const reports = shallowRef<ReadonlyMap<string, LocalReport>>(new Map());
  const loaded = shallowRef(false);
  const signature = useCacheQuery(
    () => fileIds().join('\n'),
    async (db, joined) => (await Promise.all((joined === '' ? [] : joined.split('\n')).map((id) => signatureOf(db, id)))).join('\n'),
    null as string | null,
  );
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let readIds = '';

  async function read(ids: readonly string[]): Promise<void> {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    const db = sync.db;
    if (db === null) return;
    const next = new Map<string, LocalReport>();
    for (const id of ids) {
      const tally = reportTally();
      await scanElements(db, id, (rows) => tally.add(rows), current.signal);
      if (current.signal.aborted) return;
      next.set(id, tally.finish());
    }
    reports.value = next;
    loaded.value = true;
  }

  watch(
    () => signature.value.value,
    (value) => {
      if (timer !== undefined) clearTimeout(timer);
      if (value === null) return;
      const ids = [...fileIds()];
      // Reports of other files are not these files' reports, not even for a moment.
      if (ids.join('\n') !== readIds) {
        readIds = ids.join('\n');
        reports.value = new Map();
        loaded.value = false;
      }
      timer = setTimeout(() => {
        timer = undefined;
        void read(ids);
      }, RESCAN_DEBOUNCE_MS);
    },
    { immediate: true },
  );
  onScopeDispose(() => {
    controller?.abort();
    if (timer !== undefined) clearTimeout(timer);
  });
  return { reports: readonly(reports) as Readonly<Ref<ReadonlyMap<string, LocalReport>>>, loaded: readonly(loaded) };
}
