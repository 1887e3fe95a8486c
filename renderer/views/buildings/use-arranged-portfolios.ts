/**
 * The portfolios list as the building search and order arrange it: each portfolio's buildings filtered and sorted;
 * while a search is typed, portfolios without a matching building are left out.
 */
import { computed, type ComputedRef } from 'vue';
import type { BuildingRow } from '../../db/schema';
import { useBuildingsStore } from '../../stores/buildings';
import { usePortfoliosStore, type PortfolioGroup } from '../../stores/portfolios';
import { arrangeBuildings, searchWords } from './building-list';
import { useBuildingShownTexts } from './use-building-shown-texts';

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** The arranged groups, the arranged buildings outside them, and whether a search found nothing. */
export function useArrangedPortfolios(): {
  groups: ComputedRef<PortfolioGroup[]>;
  otherBuildings: ComputedRef<BuildingRow[]>;
  nothingFound: ComputedRef<boolean>;
} {
  const portfolios = usePortfoliosStore();
  const buildings = useBuildingsStore();
  const shown = useBuildingShownTexts();
  const searching = computed(() => searchWords(buildings.listQuery.search).length > 0);
  const groups = computed(() =>
    portfolios.groups
      .map((group) => ({ ...group, buildings: arrangeBuildings(group.buildings, buildings.listQuery, byName, shown) }))
      .filter((group) => !searching.value || group.buildings.length > 0),
  );
  const otherBuildings = computed(() => arrangeBuildings(portfolios.otherBuildings, buildings.listQuery, byName, shown));
  const nothingFound = computed(() => searching.value && groups.value.length === 0 && otherBuildings.value.length === 0);
  return { groups, otherBuildings, nothingFound };
}
