/**
 * Which database each cached catalogue item is in: the cached rows do not say, so the server is asked for the ids of
 * the account's own database when it can, and the answer is kept per connection in localStorage, so an item shows as
 * the account's or the platform's offline too. An item created here (a `local:` id) is the account's until the server
 * gives it its id; it is then found under that id by its name among the account's new items.
 */
import { computed, reactive, ref, shallowRef } from 'vue';
import type { LocalizedText } from '../../shared/api/schemas';
import { isRecord } from '../../shared/is-record';
import type { CATALOGUE_DETAILS } from '../db/entities';
import type { CacheDb } from '../db/cache-db';
import { sameValue } from '../db/field-paths';
import { isLocalId } from '../db/schema';
import { callApi } from '../api/call-api';
import type { ApiFailure } from '../api/failure';
import type { ApiPort } from '../api/port';

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


/** The connection the catalogues store works on now. */
export interface CatalogueConnection {
  /** The active connection's id and cache (the sync store); null when none is open. */
  readonly current: { readonly connectionId: string | null; readonly db: CacheDb | null };
  /** Its cache; throws when no connection is open. */
  cache: () => CacheDb;
  /** Its id and API port; throws when no connection is open. */
  port: () => { connectionId: string; api: ApiPort };
}

export function useCatalogueDatabases(connection: CatalogueConnection) {
  const own = shallowRef<OwnDatabase | null>(null);
  const checking = ref(false);
  /** Why the last look at the account's database failed; null when it did not. */
  const checkFailure = shallowRef<ApiFailure | null>(null);
  /** Items created here, by temporary id, until the server's id for them is known. */
  const created = new Map<string, { kind: CatalogueKind; name: LocalizedText }>();
  /** The server's id of items created here, by their temporary id. */
  const movedIds = reactive(new Map<string, string>());

  const ownSets = computed(() => ({
    materials: new Set(own.value?.materials ?? []),
    products: new Set(own.value?.products ?? []),
  }));

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
    const db = connection.cache();
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
    if (checking.value || connection.current.connectionId === null) return;
    const { connectionId, api } = connection.port();
    checking.value = true;
    try {
      const account = await callApi(api, 'getCurrentAccount');
      if (!account.ok) {
        if (connection.current.connectionId === connectionId) checkFailure.value = account.failure;
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
          if (connection.current.connectionId === connectionId) checkFailure.value = answer.failure;
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
      if (connection.current.connectionId !== connectionId) return;
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

  /** Notes an item created here, to find it under the server's id once it has one. */
  function remember(kind: CatalogueKind, id: string, name: LocalizedText | null | undefined): void {
    created.set(id, { kind, name: name ?? {} });
  }

  /** Takes the kept list of the connection switched to, and forgets what was noted for the one before. */
  function reset(connectionId: string | null): void {
    own.value = connectionId === null ? null : readOwnDatabase(connectionId);
    checkFailure.value = null;
    created.clear();
    movedIds.clear();
  }

  return { own, checking, checkFailure, movedIds, databaseOf, isEditable, refreshDatabases, remember, reset };
}
