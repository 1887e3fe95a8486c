/**
 * The portfolios and buildings of the active connection, read from its cache (a live query of the `portfolios` and
 * `buildings` tables), so they show offline and follow every pull and local edit. An empty cache waits for the first
 * pull and shows how far it got, or why it failed.
 */
import { liveQuery, type Subscription } from 'dexie';
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { CacheDb } from '../db/cache-db';
import type { BuildingRow, PortfolioRow, PullProgress, SyncIssue } from '../db/schema';
import { useSyncStore } from './sync';

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

  return { state, portfolios, buildings, groups, otherBuildings, reload };
});
