/**
 * The portfolios and buildings of the active connection, read from the API each time they are shown (the offline
 * cache replaces this later). Only the newest load counts: a slow answer for a connection the user already left is
 * dropped.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { BuildingResponse, PortfolioResponse } from '../../shared/api/schemas';
import { callApiList, type ApiFailure } from '../api-call';
import { useBridge } from '../bridge';

/** Where the list stands. */
export type PortfoliosState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'loaded' }
  | { kind: 'failed'; failure: ApiFailure };

/** A portfolio with its buildings, sorted by name. */
export interface PortfolioGroup {
  portfolio: PortfolioResponse;
  buildings: BuildingResponse[];
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Portfolios and buildings of one connection. */
export const usePortfoliosStore = defineStore('portfolios', () => {
  const bridge = useBridge();
  const connectionId = ref<string | null>(null);
  const state = shallowRef<PortfoliosState>({ kind: 'idle' });
  const portfolios = shallowRef<PortfolioResponse[]>([]);
  const buildings = shallowRef<BuildingResponse[]>([]);
  // Whether the lists belong to `connectionId`: a reload keeps showing them, a new connection starts empty.
  const loadedOnce = ref(false);
  let generation = 0;

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
  const otherBuildings = computed<BuildingResponse[]>(() => {
    const listed = new Set(portfolios.value.map((portfolio) => portfolio.id));
    return buildings.value
      .filter((building) => !listed.has(building.portfolioId))
      .sort((a, b) => byName.compare(a.name, b.name));
  });

  /** Loads both lists of a connection; the outcome lands in `state`, never as an exception. */
  async function load(id: string): Promise<void> {
    const mine = ++generation;
    if (connectionId.value !== id) {
      portfolios.value = [];
      buildings.value = [];
      loadedOnce.value = false;
    }
    connectionId.value = id;
    state.value = { kind: 'loading' };
    const [portfolioAnswer, buildingAnswer] = await Promise.all([
      callApiList<PortfolioResponse>(bridge, { connectionId: id, operationId: 'listPortfolios' }),
      callApiList<BuildingResponse>(bridge, { connectionId: id, operationId: 'listBuildings' }),
    ]);
    if (mine !== generation) return;
    if (!portfolioAnswer.ok) {
      state.value = { kind: 'failed', failure: portfolioAnswer.failure };
      return;
    }
    if (!buildingAnswer.ok) {
      state.value = { kind: 'failed', failure: buildingAnswer.failure };
      return;
    }
    portfolios.value = portfolioAnswer.value;
    buildings.value = buildingAnswer.value;
    loadedOnce.value = true;
    state.value = { kind: 'loaded' };
  }

  /** Forgets the lists (no active connection). */
  function clear(): void {
    generation += 1;
    connectionId.value = null;
    portfolios.value = [];
    buildings.value = [];
    loadedOnce.value = false;
    state.value = { kind: 'idle' };
  }

  return { connectionId, state, portfolios, buildings, loadedOnce, groups, otherBuildings, load, clear };
});
