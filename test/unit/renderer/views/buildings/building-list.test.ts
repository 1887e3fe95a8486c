import { describe, expect, it } from 'vitest';
import type { BuildingResponse } from '../../../../../shared/api/schemas';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import { arrangeBuildings, buildingMatches, defaultBuildingListQuery, searchWords } from '../../../../../renderer/views/buildings/building-list';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

function building(id: string, fields: Partial<BuildingResponse>): BuildingResponse {
  return { ...emptyBuilding(id, 'p'), ...fields };
}

const buildings = [
  building('1', { name: 'Tower A', addressCity: 'Zürich', grossSurfaceArea: 5000, energyLabel: 'A', completionDate: '2010-01-01T00:00:00Z' }),
  building('2', { name: 'School', addressCity: 'Amsterdam', addressStreet: 'Keizersgracht', grossSurfaceArea: 1200, buildingUsage: 'Education', isDirty: true }),
  building('3', { name: 'tower 10', addressCity: null, grossSurfaceArea: null, energyLabel: 'C', hasDirtyElements: true }),
  building('4', { name: 'Tower 9', addressCity: 'Delft', grossSurfaceArea: 800, completionDate: '1999-05-05T00:00:00Z' }),
];

const names = (list: BuildingResponse[]): string[] => list.map((item) => item.name);

describe('building search', () => {
  it('splits the search into folded words', () => {
    expect(searchWords('  Zürich   TOWER ')).toEqual(['zurich', 'tower']);
    expect(searchWords('   ')).toEqual([]);
  });

  it('finds a building by every word in its name, address, usage or label, without accents', () => {
    expect(buildingMatches(buildings[0]!, ['zurich', 'tower'])).toBe(true);
    expect(buildingMatches(buildings[1]!, ['keizers', 'education'])).toBe(true);
    expect(buildingMatches(buildings[1]!, ['keizers', 'delft'])).toBe(false);
    expect(names(arrangeBuildings(buildings, { ...defaultBuildingListQuery(), search: 'tower' }, collator))).toEqual(['Tower 9', 'tower 10', 'Tower A']);
  });
});

describe('building order', () => {
  it('sorts by name with numbers in order, by default', () => {
    expect(names(arrangeBuildings(buildings, defaultBuildingListQuery(), collator))).toEqual(['School', 'Tower 9', 'tower 10', 'Tower A']);
  });

  it('sorts by a number either way, buildings without one last', () => {
    const query = { ...defaultBuildingListQuery(), sort: 'area' as const };
    expect(names(arrangeBuildings(buildings, query, collator))).toEqual(['Tower 9', 'School', 'Tower A', 'tower 10']);
    expect(names(arrangeBuildings(buildings, { ...query, descending: true }, collator))).toEqual(['Tower A', 'School', 'Tower 9', 'tower 10']);
  });

  it('sorts by city, energy label, completion and calculation state', () => {
    const by = (sort: 'city' | 'energyLabel' | 'completion' | 'state') => names(arrangeBuildings(buildings, { ...defaultBuildingListQuery(), sort }, collator));
    expect(by('city')).toEqual(['School', 'Tower 9', 'Tower A', 'tower 10']);
    expect(by('energyLabel')).toEqual(['Tower A', 'tower 10', 'School', 'Tower 9']);
    expect(by('completion')).toEqual(['Tower 9', 'Tower A', 'School', 'tower 10']);
    expect(by('state')).toEqual(['School', 'tower 10', 'Tower 9', 'Tower A']);
  });
});
