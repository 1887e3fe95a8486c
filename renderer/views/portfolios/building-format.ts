/** How a building's address and state read in the lists. */
import type { BuildingResponse } from '../../../shared/api/schemas';

/** Where a building stands with its figures. */
export type BuildingState = 'up-to-date' | 'recalculating' | 'changed';

function joined(parts: readonly (string | null | undefined)[], separator: string): string {
  return parts
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(separator);
}

/** Street and number, then postcode and city: `Keizersgracht 12a, 1015 CS Amsterdam`; empty when none is known. */
export function addressLine(building: BuildingResponse): string {
  const street = joined([building.addressStreet, joined([building.addressHousenumber, building.addressHousenumberAddition], '')], ' ');
  const place = joined([building.addressZipcode, building.addressCity], ' ');
  return joined([street, place], ', ');
}

/** A building is recalculating, has changes not yet calculated, or is up to date. */
export function buildingState(building: BuildingResponse): BuildingState {
  if (building.isDirty) return 'recalculating';
  if (building.hasDirtyElements) return 'changed';
  return 'up-to-date';
}

/** An API date-time as a Date, or undefined when absent or unreadable. */
export function dateOf(value: string | null | undefined): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
