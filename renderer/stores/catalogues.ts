/**
 * The catalogues of the active connection: the materials and products of the platform's database and of the
 * account's own, which the pull keeps together in the cache. The store says which database an item is in, fetches an
 * item's details (matches, children, financial values) when the user opens it, and writes the user's changes to the
 * cache and the outbox through the db layer, then tells the scheduler so a sync follows.
 *
 * The cached rows do not say which database they are in, so the store asks the server for the ids of the account's
 * own database when it can (after the page opens, and after a sync that pushed something) and keeps the answer per
 * connection in localStorage, so an item shows as the account's or the platform's offline too. An item created here
 * (a `local:` id) is the account's until the server gives it its id; the store then finds it under that id by its name
 * among the account's new items. Only the account's own items can be changed (decisions §5: the server refuses a
 * change to another database with 403), so every other item is read-only on screen.
 */
import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import { useBridge } from '../bridge';
import type { CacheDb } from '../db/cache-db';
import { bridgeApiPort, type ApiPort } from '../api/port';
import { useCatalogueDatabases, type CatalogueDatabase } from './catalogue-databases';
import { useCatalogueDetails } from './catalogue-details-loading';
import { useCatalogueEdits } from './catalogue-edits';
import { useSyncStore } from './sync';

export {
  OWN_DATABASE_STORAGE_PREFIX,
  type CatalogueDatabase,
  type CatalogueKind,
  type OwnDatabase,
} from './catalogue-databases';
export type { DetailsState } from './catalogue-details-loading';

/** The catalogues of the active connection: databases, details on demand, and the user's changes. */
export const useCataloguesStore = defineStore('catalogues', () => {
  const bridge = useBridge();
  const sync = useSyncStore();

  /** The database the lists show; null until the user chose (the screen then picks one). */
  const selectedDatabase = ref<CatalogueDatabase | null>(null);

  function cache(): CacheDb {
    if (sync.db === null) throw new Error('No connection is open.');
    return sync.db;
  }

  function port(): { connectionId: string; api: ApiPort } {
    const connectionId = sync.connectionId;
    if (connectionId === null) throw new Error('No connection is open.');
    return { connectionId, api: bridgeApiPort(bridge, connectionId) };
  }

  const connection = { current: sync, cache, port };
  const databases = useCatalogueDatabases(connection);
  const { own, checking, checkFailure, movedIds, databaseOf, isEditable, refreshDatabases } = databases;
  const loading = useCatalogueDetails(connection);
  const { filling, fillResult, detailsOf, loadDetails, downloadAllDetails, stopDownload } = loading;
  const edits = useCatalogueEdits({ cache, remember: databases.remember, notifyEdit: () => sync.notifyEdit() });

  watch(
    () => sync.connectionId,
    (connectionId) => {
      loading.reset();
      databases.reset(connectionId);
      selectedDatabase.value = null;
    },
    { immediate: true },
  );

  // A sync that reached the server may have given new items their ids; one that never looked yet can look now.
  watch(
    () => sync.lastCycle,
    (report) => {
      if (report?.outcome.kind !== 'ok') return;
      if (own.value === null || (report.push?.pushed ?? 0) > 0) void refreshDatabases();
    },
  );

  return {
    own,
    checking,
    checkFailure,
    selectedDatabase,
    filling,
    fillResult,
    movedIds,
    databaseOf,
    isEditable,
    refreshDatabases,
    detailsOf,
    loadDetails,
    downloadAllDetails,
    stopDownload,
    createMaterial: edits.createMaterial,
    editMaterial: edits.editMaterial,
    editMaterialMatches: edits.editMaterialMatches,
    editMaterialFinancialValues: edits.editMaterialFinancialValues,
    createProduct: edits.createProduct,
    editProduct: edits.editProduct,
    editProductMatches: edits.editProductMatches,
    editProductChildren: edits.editProductChildren,
    editProductFinancialValues: edits.editProductFinancialValues,
  };
});
