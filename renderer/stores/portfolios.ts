/**
 * The portfolios and buildings of the active connection, read from its cache (a live query of the `portfolios` and
 * `buildings` tables), so they show offline and follow every pull and local edit. An empty cache waits for the first
 * pull and shows how far it got, or why it failed. The user's creates, renames and deletes of portfolios go into the
 * cache with their outbox entries, then the scheduler is told; what the API only does online (the databases a
 * portfolio may use, its passport) is asked here through the Bridge.
 */
import { liveQuery, type Subscription } from 'dexie';
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { PassportLanguage } from '../../shared/api/routes';
import type { AccountResponse } from '../../shared/api/schemas';
import { callApi, callApiList } from '../api/call-api';
import { mapOutcome, type ApiOutcome } from '../api/outcome';
import { bridgeApiPort } from '../api/port';
import { useBridge } from '../bridge';
import type { CacheDb } from '../db/cache-db';
import { createPortfolio, deletePortfolio, editPortfolio } from '../db/edits';
import type { BuildingRow, PortfolioRow, PullProgress, SyncIssue } from '../db/schema';
import { useSyncStore } from './sync';
import { whenOnline } from './when-online';

/** The collections whose refusal leaves nothing to show. */
const LIST_OPERATIONS: readonly string[] = ['listPortfolios', 'listBuildings'];
/** The same collections as the pull's progress names them. */
const LIST_COLLECTIONS: readonly string[] = ['portfolios', 'buildings'];

/**
 * What the lists show: nothing (no active connection), the first pull under way, why it failed, an empty account, or
 * the lists. A cache that holds rows shows them whatever the last sync did.
 */
export type PortfoliosState =
  | { kind: 'idle' }
  | { kind: 'loading'; progress: PullProgress | null }
  | { kind: 'failed'; issue: SyncIssue }
  | { kind: 'empty' }
  | { kind: 'loaded' };

/** A portfolio with its buildings, sorted by name. */
export interface PortfolioGroup {
  portfolio: PortfolioRow;
  buildings: BuildingRow[];
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Portfolios and buildings of the active connection, from its cache. */
export const usePortfoliosStore = defineStore('portfolios', () => {
  const sync = useSyncStore();
  const bridge = useBridge();
  const portfolios = shallowRef<PortfolioRow[]>([]);
  const buildings = shallowRef<BuildingRow[]>([]);
  // Whether the lists hold what the current cache holds (its first read answered).
  const read = ref(false);
  let subscription: Subscription | undefined;

  function follow(db: CacheDb | null): void {
    subscription?.unsubscribe();
    subscription = undefined;
    portfolios.value = [];
    buildings.value = [];
    read.value = false;
    if (db === null) return;
    subscription = liveQuery(async () => ({ portfolios: await db.portfolios.toArray(), buildings: await db.buildings.toArray() })).subscribe({
      next: (lists) => {
        if (sync.db !== db) return;
        portfolios.value = lists.portfolios;
        buildings.value = lists.buildings;
        read.value = true;
      },
      error: (error: unknown) => {
        console.error('The portfolios could not be read from the cache.', error);
      },
    });
  }

  watch(() => sync.db, follow, { immediate: true });

  const state = computed<PortfoliosState>(() => {
    if (sync.db === null) return { kind: 'idle' };
    if (!read.value) return { kind: 'loading', progress: null };
    if (portfolios.value.length > 0) return { kind: 'loaded' };
    const cycle = sync.lastCycle;
    const neverPulled = cycle === null && sync.pullState?.lastSuccessAt == null;
    // The first pull lists buildings before portfolios: until the portfolios are in too, the buildings would all
    // look like buildings outside any portfolio.
    const listing = sync.progress?.phase === 'lists' && LIST_COLLECTIONS.includes(sync.progress.collection);
    if (buildings.value.length > 0 && !(neverPulled && listing)) return { kind: 'loaded' };
    if (cycle !== null) {
      if (cycle.error !== null) return { kind: 'failed', issue: cycle.error };
      const refused = cycle.pull?.issues.find((issue) => LIST_OPERATIONS.includes(issue.where));
      return refused === undefined ? { kind: 'empty' } : { kind: 'failed', issue: refused };
    }
    // An earlier session pulled this cache completely: it is empty because the account is.
    if (!neverPulled) return { kind: 'empty' };
    return { kind: 'loading', progress: sync.progress };
  });

  const groups = computed<PortfolioGroup[]>(() =>
    [...portfolios.value]
      .sort((a, b) => byName.compare(a.name, b.name))
      .map((portfolio) => ({
        portfolio,
        buildings: buildings.value
          .filter((building) => building.portfolioId === portfolio.id)
          .sort((a, b) => byName.compare(a.name, b.name)),
      })),
  );

  // A key scoped to single buildings sees those buildings but not their portfolios.
  const otherBuildings = computed<BuildingRow[]>(() => {
    const listed = new Set(portfolios.value.map((portfolio) => portfolio.id));
    return buildings.value
      .filter((building) => !listed.has(building.portfolioId))
      .sort((a, b) => byName.compare(a.name, b.name));
  });

  /** Asks for a sync of the active connection now; the lists follow the cache. */
  function reload(): Promise<void> {
    return sync.syncNow();
  }

  function cache(): CacheDb {
    if (sync.db === null) throw new Error('No connection is open.');
    return sync.db;
  }

  /** Adds a portfolio (a valid name: see `portfolio-form.ts`); answers its temporary id. */
  async function create(name: string): Promise<string> {
    const id = await createPortfolio(cache(), { name });
    sync.notifyEdit();
    return id;
  }

  /** Renames a portfolio; nothing when the name is the one it has. */
  async function rename(id: string, name: string): Promise<void> {
    const row = await cache().portfolios.get(id);
    if (row === undefined) throw new Error(`No portfolio ${id} in the cache.`);
    if (row.name === name) return;
    await editPortfolio(cache(), id, { name });
    sync.notifyEdit();
  }

  /**
   * Deletes a portfolio. The server refuses while it holds buildings (409); the entry is then parked, and the
   * portfolio comes back when the user discards it in Activity.
   */
  async function remove(id: string): Promise<void> {
    await deletePortfolio(cache(), id);
    sync.notifyEdit();
  }

  /** The element databases that files in the portfolio may use. */
  function availableDatabases(id: string): Promise<ApiOutcome<AccountResponse[]>> {
    return whenOnline(sync, id, async (connectionId) =>
      callApiList(bridgeApiPort(bridge, connectionId), 'listPortfolioAvailableDatabases', { params: { id } }),
    );
  }

  /**
   * Asks the server for the portfolio's PDF passport of all its buildings, in a language. The server makes it as a
   * file of the portfolio; passport folders of the portfolio (the Passports screen) save it on this computer.
   */
  function requestPassport(id: string, language: PassportLanguage): Promise<ApiOutcome<void>> {
    return whenOnline(sync, id, async (connectionId) =>
      mapOutcome(
        await callApi(bridgeApiPort(bridge, connectionId), 'exportPortfolioPassport', { params: { id }, headers: { 'accept-language': language }, body: {} }),
        () => undefined,
      ),
    );
  }

  return { state, portfolios, buildings, groups, otherBuildings, reload, create, rename, remove, availableDatabases, requestPassport };
});
