import { describe, expect, it } from 'vitest';
import { BuildingRequest } from '../../../../../shared/api/schemas';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import type { BuildingRow } from '../../../../../renderer/db/schema';
import {
  BUILDING_FORM_GROUPS,
  buildingChangesOf,
  buildingFormErrors,
  buildingFormOf,
  dateFieldOf,
  emptyBuildingForm,
  isoOfDateField,
  newBuildingOf,
} from '../../../../../renderer/views/buildings/building-form';

const PORTFOLIO = '11111111-1111-4111-8111-111111111111';
const OTHER_PORTFOLIO = '22222222-2222-4222-8222-222222222222';

function row(fields: Partial<BuildingRow> = {}): BuildingRow {
  return { ...emptyBuilding('33333333-3333-4333-8333-333333333333', PORTFOLIO), name: 'Tower A', ...fields };
}

describe('the building form', () => {
  it('has every field of the building request but the fixed classification, each once', () => {
    const shown = BUILDING_FORM_GROUPS.flatMap((group) => group.fields.map((spec) => spec.field));
    const requested = Object.keys(BuildingRequest.properties).filter((field) => field !== 'classificationType');
    expect([...shown].sort()).toEqual([...requested].sort());
    expect(new Set(shown).size).toBe(shown.length);
    expect(BUILDING_FORM_GROUPS.map((group) => group.group)).toEqual(['identity', 'address', 'usage', 'lifespans', 'labels']);
    expect(BUILDING_FORM_GROUPS.find((group) => group.group === 'lifespans')?.fields.every((spec) => spec.unit === 'years')).toBe(true);
  });

  it('shows absent text as empty and absent numbers and dates as none', () => {
    const form = buildingFormOf(row({ addressCity: 'Utrecht', grossSurfaceArea: 1200.5, completionDate: '2019-06-30T00:00:00.000Z' }));
    expect(form.name).toBe('Tower A');
    expect(form.addressCity).toBe('Utrecht');
    expect(form.addressStreet).toBe('');
    expect(form.grossSurfaceArea).toBe(1200.5);
    expect(form.expectedLifespan).toBeNull();
    expect(form.lastRenovationDate).toBeNull();
    expect(new Date(form.completionDate!).getDate()).toBe(30);
    expect(form.portfolioId).toBe(PORTFOLIO);
  });

  it('refuses a blank name, fractions in whole-number fields, values beyond int32, negative areas and lifespans', () => {
    const form = {
      ...emptyBuildingForm(PORTFOLIO),
      name: '   ',
      cadastralArea: -5,
      expectedLifespanSkin: 12.5,
      breeamLabel: 3_000_000_000,
      wellScoreInterior: -3,
      grossSurfaceArea: -1,
      energyIndex: Number.NaN,
      gprLabel: -2.5,
    };
    expect(buildingFormErrors(form)).toEqual({
      name: 'required',
      cadastralArea: 'negative',
      expectedLifespanSkin: 'not-whole',
      breeamLabel: 'out-of-range',
      grossSurfaceArea: 'negative',
      energyIndex: 'not-finite',
    });
  });

  it('refuses lifespans under a year, an energy label outside the list and a country that is no code', () => {
    const form = { ...emptyBuildingForm(PORTFOLIO), name: 'X', expectedLifespan: 0, expectedLifespanStuff: -4, energyLabel: 'Z', addressCountry: 'Netherlands' };
    expect(buildingFormErrors(form)).toEqual({ expectedLifespan: 'under-a-year', expectedLifespanStuff: 'under-a-year', energyLabel: 'not-an-energy-label', addressCountry: 'not-a-country' });
    expect(buildingFormErrors({ ...form, expectedLifespan: 1, expectedLifespanStuff: 5, energyLabel: 'A++', addressCountry: 'NL' })).toEqual({});
    expect(buildingFormOf(row({ addressCountry: 'nl' })).addressCountry).toBe('NL');
    expect(buildingFormOf(row({ energyLabel: 'a++' })).energyLabel).toBe('A++');
  });

  it('refuses a renovation before the completion', () => {
    const form = { ...emptyBuildingForm(PORTFOLIO), name: 'X', completionDate: dateFieldOf('2020-01-10T00:00:00Z'), lastRenovationDate: dateFieldOf('2019-12-31T00:00:00Z') };
    expect(buildingFormErrors(form)).toEqual({ lastRenovationDate: 'before-completion' });
    expect(buildingFormErrors({ ...form, lastRenovationDate: dateFieldOf('2020-01-10T00:00:00Z') })).toEqual({});
  });

  it('changes only the fields that differ: text trimmed, emptied fields as null, days as UTC midnight, a move of portfolio', () => {
    const before = buildingFormOf(row({ addressCity: 'Utrecht', energyLabel: 'B', expectedLifespan: 50 }));
    const after = {
      ...before,
      name: ' Tower B ',
      addressCity: 'Utrecht ',
      energyLabel: '',
      expectedLifespan: 60,
      grossSurfaceArea: 980,
      completionDate: new Date(2021, 2, 14).getTime(),
      portfolioId: OTHER_PORTFOLIO,
    };
    expect(buildingChangesOf(before, after)).toEqual({
      name: 'Tower B',
      energyLabel: null,
      expectedLifespan: 60,
      grossSurfaceArea: 980,
      completionDate: '2021-03-14T00:00:00.000Z',
      portfolioId: OTHER_PORTFOLIO,
    });
    expect(buildingChangesOf(before, { ...before })).toEqual({});
  });

  it('reads an API date as the day it names in UTC, whatever the time of day', () => {
    const picked = dateFieldOf('2022-11-05T23:30:00Z');
    expect(isoOfDateField(picked)).toBe('2022-11-05T00:00:00.000Z');
    expect(dateFieldOf(null)).toBeNull();
    expect(dateFieldOf('not a date')).toBeNull();
    expect(isoOfDateField(null)).toBeNull();
  });

  it('makes a new building of the fields filled in, in the chosen portfolio', () => {
    const form = { ...emptyBuildingForm(PORTFOLIO), name: ' School ', addressCity: 'Delft', cadastralArea: 800 };
    expect(newBuildingOf(form)).toEqual({ portfolioId: PORTFOLIO, building: { name: 'School', addressCity: 'Delft', cadastralArea: 800 } });
  });
});
