/**
 * A catalogue item's details (matches, children, financial values): fetched into the cache when the user opens the
 * item, once per item and session, and for every cached item that lacks them when the user asks, for use offline.
 */
import { reactive, ref, shallowRef } from 'vue';
import { isLocalId } from '../db/schema';
import { classifyFailure, type ApiFailure, type FailureClass } from '../api/failure';
import { fillCatalogueDetails, pullMaterialDetails, pullProductDetails, type FillResult } from '../sync/pull';
import type { CatalogueConnection, CatalogueKind } from './catalogue-databases';

/** How fetching an item's details went (this session). */
export type DetailsState =
  | { state: 'loading' }
  | { state: 'done'; at: string }
  | { state: 'failed'; failure: ApiFailure; class: FailureClass };

export function useCatalogueDetails(connection: CatalogueConnection) {
  const details = reactive(new Map<string, DetailsState>());
  const filling = ref(false);
  const fillResult = shallowRef<FillResult | null>(null);
  let fillController: AbortController | undefined;

  /** The state of an item's details this session; undefined before they were asked for. */
  function detailsOf(kind: CatalogueKind, id: string): DetailsState | undefined {
    return details.get(`${kind}:${id}`);
  }

  /**
   * Fetches an item's matches, financial values (and a product's children) now and writes them to the cache; the
   * screen shows them from there, also when this fails (offline: what the cache holds). Once per item and session
   * unless `force`; items the server does not know yet have nothing to fetch.
   */
  async function loadDetails(kind: CatalogueKind, id: string, force = false): Promise<void> {
    if (isLocalId(id) || connection.current.db === null) return;
    const key = `${kind}:${id}`;
    const state = details.get(key);
    if (state?.state === 'loading' || (state?.state === 'done' && !force)) return;
    const db = connection.cache();
    const { connectionId, api } = connection.port();
    details.set(key, { state: 'loading' });
    try {
      const outcome = kind === 'materials' ? await pullMaterialDetails({ db, api }, id) : await pullProductDetails({ db, api }, id);
      if (connection.current.connectionId !== connectionId) return;
      details.set(key, outcome.ok ? { state: 'done', at: new Date().toISOString() } : { state: 'failed', failure: outcome.failure, class: outcome.class });
    } catch (error) {
      const failure: ApiFailure = { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
      if (connection.current.connectionId === connectionId) details.set(key, { state: 'failed', failure, class: classifyFailure(failure) });
    }
  }

  /** Fetches the details of every cached item that lacks them, for use offline; stops at the first lost answer. */
  async function downloadAllDetails(): Promise<void> {
    if (filling.value || connection.current.db === null) return;
    const db = connection.cache();
    const { api } = connection.port();
    fillController = new AbortController();
    filling.value = true;
    fillResult.value = null;
    try {
      fillResult.value = await fillCatalogueDetails({ db, api, concurrency: 2, signal: fillController.signal });
    } finally {
      filling.value = false;
      fillController = undefined;
    }
  }

  /** Stops downloading details after the items under way. */
  function stopDownload(): void {
    fillController?.abort();
  }

  /** Forgets this session's details and stops a download (the connection was switched). */
  function reset(): void {
    stopDownload();
    details.clear();
    fillResult.value = null;
  }

  return { filling, fillResult, detailsOf, loadDetails, downloadAllDetails, stopDownload, reset };
}
