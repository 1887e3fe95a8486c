/**
 * The one list of the active connection's passports that every screen shows (`passport-history.ts`): its passport
 * folders' entries, the building passports of its cache and its portfolios' passports.
 */
import { computed, type ComputedRef } from 'vue';
import { useCacheQuery } from '../../components/use-cache-query';
import { useConnectionsStore } from '../../stores/connections';
import { usePassportsStore } from '../../stores/passports';
import { cachedBuildingPassports, passportHistory, type BuildingPassport, type PassportHistoryRow } from './passport-history';
import { usePortfolioPassports } from './portfolio-passports';

/** The passports, newest first; call from a component's setup. */
export function usePassportRows(): ComputedRef<PassportHistoryRow[]> {
  const store = usePassportsStore();
  const connections = useConnectionsStore();
  const buildingPassports = useCacheQuery(() => null, (db) => cachedBuildingPassports(db), [] as BuildingPassport[]);
  const portfolioPassports = usePortfolioPassports();
  const activeEntries = computed(() => {
    const targets = new Set(store.targets.filter((target) => target.connectionId === connections.activeId).map((target) => target.id));
    return store.history.filter((entry) => targets.has(entry.targetId));
  });
  return computed(() => passportHistory(activeEntries.value, buildingPassports.value.value, portfolioPassports.value));
}
