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
import { computed, reactive, ref, shallowRef, watch } from 'vue';
import type { LocalizedText, MaterialFinancialValue, MaterialMatch, ProductChild, ProductFinancialValue, ProductMatch } from '../../shared/api/schemas';
import { isRecord } from '../../shared/is-record';
import { useBridge } from '../bridge';
import type { CATALOGUE_DETAILS } from '../db/apply-pull';
import type { CacheDb } from '../db/cache-db';
import type { MaterialChanges, ProductChanges } from '../db/edit-shapes';
import {
  createMaterial as createMaterialRow,
  createProduct as createProductRow,
  editMaterial as editMaterialRow,
  editMaterialFinancialValues as editMaterialValuesRow,
  editMaterialMatches as editMaterialMatchesRow,
  editProduct as editProductRow,
  editProductChildren as editProductChildrenRow,
  editProductFinancialValues as editProductValuesRow,
  editProductMatches as editProductMatchesRow,
  type NewProduct,
} from '../db/edits';
import { sameValue } from '../db/field-paths';
import { isLocalId } from '../db/schema';
import { callApi } from '../api/call-api';
import { classifyFailure, type ApiFailure, type FailureClass } from '../api/failure';
import { bridgeApiPort, type ApiPort } from '../api/port';
import { fillCatalogueDetails, pullMaterialDetails, pullProductDetails, type FillResult } from '../sync/pull';
import { useSyncStore } from './sync';

/** A catalogue: materials or products. */
export type CatalogueKind = keyof typeof CATALOGUE_DETAILS;

/** The databases the cache holds items of. */
export type CatalogueDatabase = 'own' | 'platform';

/** The account's own database as the server last listed it. */
export interface OwnDatabase {
  /** The account's id, which is its database's id. */
  id: string;
  name: string;
  materials: string[];
  products: string[];
  checkedAt: string;
}

/** How fetching an item's details went (this session). */
export type DetailsState =
  | { state: 'loading' }
  | { state: 'done'; at: string }
  | { state: 'failed'; failure: ApiFailure; class: FailureClass };

/** Where each connection's own database is kept. */
export const OWN_DATABASE_STORAGE_PREFIX = 'circularity-desk:catalogue-databases:';

function isOwnDatabase(value: unknown): value is OwnDatabase {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    typeof value['name'] === 'string' &&
    typeof value['checkedAt'] === 'string' &&
    Array.isArray(value['materials']) &&
    Array.isArray(value['products'])
  );
}

function readOwnDatabase(connectionId: string): OwnDatabase | null {
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(OWN_DATABASE_STORAGE_PREFIX + connectionId) ?? 'null');
    return isOwnDatabase(stored) ? stored : null;
  } catch {
    return null;
  }
}

function writeOwnDatabase(connectionId: string, own: OwnDatabase): void {
  try {
    window.localStorage.setItem(OWN_DATABASE_STORAGE_PREFIX + connectionId, JSON.stringify(own));
  } catch {
    // Storage can be disabled or full: the list then lasts for this session.
  }
}

function idsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const ids = value.map((item: unknown) => (isRecord(item) ? item['id'] : undefined));
  return ids.every((id): id is string => typeof id === 'string') ? ids : undefined;
}

/** The catalogues of the active connection: databases, details on demand, and the user's changes. */
export const useCataloguesStore = defineStore('catalogues', () => {
  const bridge = useBridge();
  const sync = useSyncStore();

  const own = shallowRef<OwnDatabase | null>(null);
  const checking = ref(false);
  /** Why the last look at the account's database failed; null when it did not. */
  const checkFailure = shallowRef<ApiFailure | null>(null);
  /** The database the lists show; null until the user chose (the screen then picks one). */
  const selectedDatabase = ref<CatalogueDatabase | null>(null);
  const details = reactive(new Map<string, DetailsState>());
  const filling = ref(false);
  const fillResult = shallowRef<FillResult | null>(null);
  /** Items created here, by temporary id, until the server's id for them is known. */
  const created = new Map<string, { kind: CatalogueKind; name: LocalizedText }>();
  /** The server's id of items created here, by their temporary id. */
  const movedIds = reactive(new Map<string, string>());
  let fillController: AbortController | undefined;

  const ownSets = computed(() => ({
    materials: new Set(own.value?.materials ?? []),
    products: new Set(own.value?.products ?? []),
  }));

  function cache(): CacheDb {
    if (sync.db === null) throw new Error('No connection is open.');
    return sync.db;
  }

  function port(): { connectionId: string; api: ApiPort } {
    const connectionId = sync.connectionId;
    if (connectionId === null) throw new Error('No connection is open.');
    return { connectionId, api: bridgeApiPort(bridge, connectionId) };
  }

  /** The database an item is in: the account's for its own and newly created items, else the platform's. */
  function databaseOf(kind: CatalogueKind, id: string): CatalogueDatabase {
    return isLocalId(id) || ownSets.value[kind].has(id) ? 'own' : 'platform';
  }

  /** Whether the user may change an item: only the account's own ones (the server refuses the others). */
  function isEditable(kind: CatalogueKind, id: string): boolean {
    return databaseOf(kind, id) === 'own';
  }

  /** For items created here that the server now has: their id there, by name among the account's new items. */
  async function findMoved(before: OwnDatabase | null, after: OwnDatabase): Promise<void> {
    const db = cache();
    for (const [localId, item] of created) {
      if ((await db.table(item.kind).get(localId)) !== undefined) continue;
      const known = new Set(before?.[item.kind] ?? []);
      const fresh = after[item.kind].filter((id) => !known.has(id) && ![...movedIds.values()].includes(id));
      const rows = await db.table<{ id: string; name: LocalizedText }>(item.kind).bulkGet(fresh);
      const match = rows.find((row) => row !== undefined && sameValue(row.name, item.name));
      if (match !== undefined) {
        movedIds.set(localId, match.id);
        created.delete(localId);
      }
    }
  }

  /** Asks the server which items are the account's own (online only); keeps the answer for offline use. */
  async function refreshDatabases(): Promise<void> {
    if (checking.value || sync.connectionId === null) return;
    const { connectionId, api } = port();
    checking.value = true;
    try {
      const account = await callApi(api, 'getCurrentAccount');
      if (!account.ok) {
        if (sync.connectionId === connectionId) checkFailure.value = account.failure;
        return;
      }
      const id = isRecord(account.value) ? account.value['id'] : undefined;
      const name = isRecord(account.value) ? account.value['name'] : undefined;
      if (typeof id !== 'string') {
        checkFailure.value = { kind: 'invalid-answer', message: 'getCurrentAccount: no account id' };
        return;
      }
      const lists: Partial<Record<CatalogueKind, string[]>> = {};
      for (const [kind, operationId] of [['materials', 'listMaterials'], ['products', 'listProducts']] as const) {
        const answer = await callApi(api, operationId, { query: { databaseId: id } });
        if (!answer.ok) {
          if (sync.connectionId === connectionId) checkFailure.value = answer.failure;
          return;
        }
        const ids = idsOf(answer.value);
        if (ids === undefined) {
          checkFailure.value = { kind: 'invalid-answer', message: `${operationId}: not a list of items` };
          return;
        }
        lists[kind] = ids;
      }
      // The connection may have been switched while the answers came.
      if (sync.connectionId !== connectionId) return;
      const before = own.value;
      const next: OwnDatabase = {
        id,
        name: typeof name === 'string' ? name : '',
        materials: lists.materials ?? [],
        products: lists.products ?? [],
        checkedAt: new Date().toISOString(),
      };
      own.value = next;
      checkFailure.value = null;
      writeOwnDatabase(connectionId, next);
      await findMoved(before, next);
    } finally {
      checking.value = false;
    }
  }

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
    if (isLocalId(id) || sync.db === null) return;
    const key = `${kind}:${id}`;
    const state = details.get(key);
    if (state?.state === 'loading' || (state?.state === 'done' && !force)) return;
    const db = cache();
    const { connectionId, api } = port();
    details.set(key, { state: 'loading' });
    try {
      const outcome = kind === 'materials' ? await pullMaterialDetails({ db, api }, id) : await pullProductDetails({ db, api }, id);
      if (sync.connectionId !== connectionId) return;
      details.set(key, outcome.ok ? { state: 'done', at: new Date().toISOString() } : { state: 'failed', failure: outcome.failure, class: outcome.class });
    } catch (error) {
      const failure: ApiFailure = { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
      if (sync.connectionId === connectionId) details.set(key, { state: 'failed', failure, class: classifyFailure(failure) });
    }
  }

  /** Fetches the details of every cached item that lacks them, for use offline; stops at the first lost answer. */
  async function downloadAllDetails(): Promise<void> {
    if (filling.value || sync.db === null) return;
    const db = cache();
    const { api } = port();
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

  // --- changes --------------------------------------------------------------------------------------------------------

  function remember(kind: CatalogueKind, id: string, name: LocalizedText | null | undefined): void {
    created.set(id, { kind, name: name ?? {} });
  }

  /** Creates a material in the account's database with its first lists; answers its temporary id. */
  async function createMaterial(
    request: MaterialChanges,
    lists: { matches?: readonly MaterialMatch[]; financialValues?: readonly MaterialFinancialValue[] } = {},
  ): Promise<string> {
    const db = cache();
    const id = await createMaterialRow(db, request);
    remember('materials', id, request.name as LocalizedText | undefined);
    if (lists.matches !== undefined && lists.matches.length > 0) await editMaterialMatchesRow(db, id, lists.matches);
    if (lists.financialValues !== undefined && lists.financialValues.length > 0) await editMaterialValuesRow(db, id, lists.financialValues);
    sync.notifyEdit();
    return id;
  }

  /** Changes fields of a material. */
  async function editMaterial(id: string, changes: MaterialChanges): Promise<void> {
    await editMaterialRow(cache(), id, changes);
    sync.notifyEdit();
  }

  /** Replaces a material's matches. */
  async function editMaterialMatches(id: string, matches: readonly MaterialMatch[]): Promise<void> {
    await editMaterialMatchesRow(cache(), id, matches);
    sync.notifyEdit();
  }

  /** Replaces a material's financial values. */
  async function editMaterialFinancialValues(id: string, values: readonly MaterialFinancialValue[]): Promise<void> {
    await editMaterialValuesRow(cache(), id, values);
    sync.notifyEdit();
  }

  /** Creates a product in the account's database with its first lists; answers its temporary id. */
  async function createProduct(
    request: NewProduct,
    lists: { matches?: readonly ProductMatch[]; children?: readonly ProductChild[]; financialValues?: readonly ProductFinancialValue[] } = {},
  ): Promise<string> {
    const db = cache();
    const id = await createProductRow(db, request);
    remember('products', id, request.name as LocalizedText | undefined);
    if (lists.matches !== undefined && lists.matches.length > 0) await editProductMatchesRow(db, id, lists.matches);
    if (lists.children !== undefined && lists.children.length > 0) await editProductChildrenRow(db, id, lists.children);
    if (lists.financialValues !== undefined && lists.financialValues.length > 0) await editProductValuesRow(db, id, lists.financialValues);
    sync.notifyEdit();
    return id;
  }

  /** Changes fields of a product. */
  async function editProduct(id: string, changes: ProductChanges): Promise<void> {
    await editProductRow(cache(), id, changes);
    sync.notifyEdit();
  }

  /** Replaces a product's matches. */
  async function editProductMatches(id: string, matches: readonly ProductMatch[]): Promise<void> {
    await editProductMatchesRow(cache(), id, matches);
    sync.notifyEdit();
  }

  /** Replaces a product's children. */
  async function editProductChildren(id: string, children: readonly ProductChild[]): Promise<void> {
    await editProductChildrenRow(cache(), id, children);
    sync.notifyEdit();
  }

  /** Replaces a product's financial values. */
  async function editProductFinancialValues(id: string, values: readonly ProductFinancialValue[]): Promise<void> {
    await editProductValuesRow(cache(), id, values);
    sync.notifyEdit();
  }

  // --- the connection -------------------------------------------------------------------------------------------------

  watch(
    () => sync.connectionId,
    (connectionId) => {
      stopDownload();
      own.value = connectionId === null ? null : readOwnDatabase(connectionId);
      checkFailure.value = null;
      selectedDatabase.value = null;
      details.clear();
      created.clear();
      movedIds.clear();
      fillResult.value = null;
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
    createMaterial,
    editMaterial,
    editMaterialMatches,
    editMaterialFinancialValues,
    createProduct,
    editProduct,
    editProductMatches,
    editProductChildren,
    editProductFinancialValues,
  };
});
