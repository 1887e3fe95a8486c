// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import type { BuildingResponse } from '../../../../../shared/api/schemas';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import { createAppI18n, type AppLocale } from '../../../../../renderer/i18n';
import { arrangeBuildings, defaultBuildingListQuery, type ShownTexts } from '../../../../../renderer/views/buildings/building-list';
import { useBuildingShownTexts } from '../../../../../renderer/views/buildings/use-building-shown-texts';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The shown texts as a component in `locale` has them. */
function shownTextsIn(locale: AppLocale): ShownTexts {
  let shown: ShownTexts = () => [];
  mount(
    defineComponent({
      setup() {
        shown = useBuildingShownTexts();
        return () => h('div');
      },
    }),
    { global: { plugins: [createAppI18n(locale)] } },
  ).unmount();
  return shown;
}

const buildings: BuildingResponse[] = [
  { ...emptyBuilding('1', 'p'), name: 'Tower A', addressCountry: 'NL', buildingUsage: 'Offices Small' },
  { ...emptyBuilding('2', 'p'), name: 'School', addressCountry: 'BE', buildingUsage: 'Basic Education' },
];

function found(search: string, locale: AppLocale): string[] {
  return arrangeBuildings(buildings, { ...defaultBuildingListQuery(), search }, collator, shownTextsIn(locale)).map((building) => building.name);
}

describe('the building search in the user’s words', () => {
  it('finds a building by its country’s name and its usage in the user’s language', () => {
    expect(found('Niederlande', 'de')).toEqual(['Tower A']);
    expect(found('büro', 'de')).toEqual(['Tower A']);
    expect(found('kantoor', 'nl')).toEqual(['Tower A']);
    expect(found('België', 'nl')).toEqual(['School']);
  });

  it('still finds what is stored', () => {
    expect(found('NL', 'de')).toEqual(['Tower A']);
    expect(found('Offices Small', 'nl')).toEqual(['Tower A']);
  });
});
