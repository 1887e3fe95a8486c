/**
 * Search and sort of building lists: the words typed are looked for in what a user knows a building by (name,
 * address, usage, cadastral designation, energy label), and the list is ordered by a column the user picks. Buildings
 * without a value for the sort column come last in either direction.
 */
import { assertNever } from '../../../shared/api/enums';
import type { BuildingResponse } from '../../../shared/api/schemas';
import { addressLine, buildingState, dateOf } from '../portfolios/building-format';

/** What a building list can be sorted by. */
export const BUILDING_SORT_KEYS = ['name', 'city', 'area', 'energyLabel', 'completion', 'state'] as const;
/** A sort column. */
export type BuildingSortKey = (typeof BUILDING_SORT_KEYS)[number];

/** The search words and the order of a building list. */
export interface BuildingListQuery {
  search: string;
  sort: BuildingSortKey;
  descending: boolean;
}

/** The list as it comes: everything, by name. */
export function defaultBuildingListQuery(): BuildingListQuery {
  return { search: '', sort: 'name', descending: false };
}

/** Lower case without accents, so `Zürich` is found by `zurich`. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a search, folded; none for a blank one. */
export function searchWords(search: string): string[] {
  return folded(search)
    .split(/\s+/)
    .filter((word) => word !== '');
}

/** What the app shows of a building in the user's words besides what it stores (its country's name, its usage). */
export type ShownTexts = (building: BuildingResponse) => readonly string[];

/** Whether every word occurs in what a user knows the building by: what it stores and what `shown` words of it. */
export function buildingMatches(building: BuildingResponse, words: readonly string[], shown: ShownTexts = () => []): boolean {
  if (words.length === 0) return true;
  const text = folded(
    [
      ...shown(building),
      building.name,
      addressLine(building),
      building.addressCountry,
      building.buildingUsage,
      building.cadastralDesignation,
      building.parcelnumber,
      building.energyLabel,
    ]
      .filter((part): part is string => typeof part === 'string')
      .join(' '),
  );
  return words.every((word) => text.includes(word));
}

const STATE_ORDER = { recalculating: 0, changed: 1, 'up-to-date': 2 } as const;

/** A building's value for a sort column; undefined when it has none. */
function sortValue(building: BuildingResponse, key: BuildingSortKey): string | number | undefined {
  switch (key) {
    case 'name':
      return building.name;
    case 'city':
      return building.addressCity?.trim() || undefined;
    case 'area':
      return typeof building.grossSurfaceArea === 'number' ? building.grossSurfaceArea : undefined;
    case 'energyLabel':
      return building.energyLabel?.trim() || undefined;
    case 'completion':
      return dateOf(building.completionDate)?.getTime();
    case 'state':
      return STATE_ORDER[buildingState(building)];
    default:
      return assertNever(key, 'building sort key');
  }
}

/** The buildings that match the search, in the query's order; ties keep the name order. */
export function arrangeBuildings<T extends BuildingResponse>(buildings: readonly T[], query: BuildingListQuery, collator: Intl.Collator, shown?: ShownTexts): T[] {
  const words = searchWords(query.search);
  const direction = query.descending ? -1 : 1;
  return buildings
    .filter((building) => buildingMatches(building, words, shown))
    .sort((a, b) => {
      const left = sortValue(a, query.sort);
      const right = sortValue(b, query.sort);
      if (left === undefined || right === undefined) {
        if (left !== right) return left === undefined ? 1 : -1;
      } else {
        const order = typeof left === 'number' && typeof right === 'number' ? left - right : collator.compare(String(left), String(right));
        if (order !== 0) return order * direction;
      }
      return collator.compare(a.name, b.name) || a.id.localeCompare(b.id);
    });
}
