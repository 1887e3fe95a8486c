/**
 * The file page's view of its elements: the ids that pass the quick filter, the column filters and "unmapped only", in
 * the chosen sort, a split element's parts together (element-groups.ts), rebuilt from the cache (debounced while the
 * user types, at once for a sort) whenever the query, the file's elements or the shown columns change. A large file's
 * first rows show before its ids are all listed. Filters and sorts go by the words shown (a phase in the user's
 * language, a mapped item by its name), so a change of language rebuilds a filtered or sorted view.
 */
import { onBeforeUnmount, reactive, ref, shallowRef, watch, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';
import { useMappingWords } from '../../components/use-mapping-names';
import { usePhaseWords } from '../../components/use-phase-words';
import type { CacheDb } from '../../db/cache-db';
import { PackedIds } from '../../db/packed-ids';
import { elementIdsOf } from '../../db/reads';
import type { ElementColumnKey } from './element-columns';
import { groupedView, sameView, type ElementView } from './element-groups';
import { buildElementView, isPlainQuery, type ElementQuery, type ElementWords } from './element-view';

/** Rows shown while a large file's ids are being listed. */
const FIRST_ROWS = 100;
/** Quiet time after a change of the query or the elements before the view is rebuilt. */
const VIEW_DEBOUNCE_MS = 200;

/** What the view is built from. */
export interface ElementViewSource {
  db: () => CacheDb | null;
  fileId: () => string;
  /** Changes whenever the file's elements may have: their count and the file's elements stamp. */
  elementsVersion: () => string;
  shownColumnKeys: ComputedRef<ElementColumnKey[]>;
  /** Called when another file (or cache) is shown, before its view is built. */
  onFileChange: () => void;
}

export function useElementView(source: ElementViewSource) {
  const { locale } = useI18n();
  const words: ElementWords = { phase: usePhaseWords(), mapping: useMappingWords().mappingText };
  const query = reactive<ElementQuery>({ quick: '', filters: {}, sort: null, unmappedOnly: false });
  const view = shallowRef<ElementView>({ ids: PackedIds.EMPTY, groups: null, open: false });
  const viewReady = ref(false);
  const scanned = ref<number | null>(null);
  /** A view is due or being computed: from a change of what it is built from until it is shown. */
  const building = ref(false);
  let viewController: AbortController | undefined;
  let viewTimer: ReturnType<typeof setTimeout> | undefined;

  async function rebuildView(): Promise<void> {
    viewController?.abort();
    const controller = new AbortController();
    viewController = controller;
    const db = source.db();
    if (db === null) {
      building.value = false;
      return;
    }
    scanned.value = null;
    const plain = isPlainQuery(query);
    // A large file's ids take a moment to list: its first rows show before that.
    if (view.value.ids.length === 0 && plain) {
      const head = await groupedView(await elementIdsOf(db, source.fileId(), FIRST_ROWS), false, controller.signal);
      if (controller.signal.aborted) return;
      if (view.value.ids.length === 0) view.value = head;
    }
    const built = await buildElementView(db, source.fileId(), query, source.shownColumnKeys.value, words, {
      signal: controller.signal,
      onProgress: (progress) => {
        if (!controller.signal.aborted) scanned.value = progress.scanned;
      },
    });
    if (controller.signal.aborted) return;
    // The same view again (a pull that changed nothing this view shows) keeps the grid as it is: an edit stays open.
    if (!sameView(built, view.value)) view.value = built;
    viewReady.value = true;
    scanned.value = null;
    building.value = false;
  }

  function scheduleView(delay: number): void {
    building.value = true;
    if (viewTimer !== undefined) clearTimeout(viewTimer);
    viewTimer = setTimeout(() => {
      viewTimer = undefined;
      void rebuildView();
    }, delay);
  }

  watch([source.fileId, source.db], () => {
    source.onFileChange();
    viewReady.value = false;
    scheduleView(0);
  });
  watch(source.elementsVersion, () => scheduleView(VIEW_DEBOUNCE_MS));
  watch([() => query.quick, () => ({ ...query.filters }), () => query.unmappedOnly, () => query.focus, source.shownColumnKeys], () => scheduleView(VIEW_DEBOUNCE_MS), { deep: true });
  watch(locale, () => {
    if (!isPlainQuery(query)) scheduleView(0);
  });
  watch(
    () => query.sort,
    () => scheduleView(0),
    { deep: true },
  );
  scheduleView(0);
  onBeforeUnmount(() => {
    viewController?.abort();
    if (viewTimer !== undefined) clearTimeout(viewTimer);
  });

  function toggleSort(column: ElementColumnKey): void {
    if (query.sort?.column !== column) query.sort = { column, direction: 'asc' };
    else if (query.sort.direction === 'asc') query.sort = { column, direction: 'desc' };
    else query.sort = null;
  }

  return { query, view, viewReady, scanned, building, toggleSort };
}
