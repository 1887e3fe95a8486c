// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { BRIDGE_KEY } from '../../../../../renderer/bridge';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import type { BuildingRow } from '../../../../../renderer/db/schema';
import { createAppI18n, type AppLocale } from '../../../../../renderer/i18n';
import BuildingDetails from '../../../../../renderer/views/buildings/BuildingDetails.vue';
import { useSyncStore } from '../../../../../renderer/stores/sync';
import { testBridge } from '../../harness';
import { NO_ANSWER } from '../../api-server';

/** The details of a building with `stored` values, in `locale`; answers what the details show for `field`. */
function factShown(field: 'addressCountry' | 'buildingUsage', stored: string | null, locale: AppLocale): string {
  const building = { ...emptyBuilding('20000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001'), name: 'Tower A', [field]: stored } as BuildingRow;
  const bridge = testBridge({ 'connections:list': async () => ({ connections: [], activeId: null }), 'api:request': async () => NO_ANSWER });
  const pinia = createPinia();
  const wrapper = mount(BuildingDetails, {
    props: { building },
    global: { plugins: [pinia, createAppI18n(locale)], provide: { [BRIDGE_KEY]: bridge.handle } },
  });
  const shown = wrapper.find(`[data-testid="building-fact"][data-field="${field}"] dd`).text();
  wrapper.unmount();
  useSyncStore(pinia).$dispose();
  return shown;
}

function countryShown(addressCountry: string | null, locale: AppLocale): string {
  return factShown('addressCountry', addressCountry, locale);
}

describe('a building’s details', () => {
  it('name the country whose code is stored, in the user’s language', () => {
    expect(countryShown('NL', 'en')).toBe('Netherlands');
    expect(countryShown('NL', 'de')).toBe('Niederlande');
    expect(countryShown('DE', 'nl')).toBe('Duitsland');
    expect(countryShown('be', 'fr')).toBe('Belgique');
  });

  it('show a stored country that is no code of the list as it is, and none as none', () => {
    expect(countryShown('Netherlands', 'de')).toBe('Netherlands');
    expect(countryShown('XK', 'en')).toBe('XK');
    expect(countryShown(null, 'en')).toBe('—');
  });

  it('name a usage of the platform in the user’s language, and show any other stored usage as it is', () => {
    expect(factShown('buildingUsage', 'Offices Small', 'en')).toBe('Offices, small');
    expect(factShown('buildingUsage', 'Offices Small', 'nl')).toBe('Kantoor, klein');
    expect(factShown('buildingUsage', 'Offices Small', 'de')).toBe('Büro, klein');
    expect(factShown('buildingUsage', 'Warehouse of our own', 'nl')).toBe('Warehouse of our own');
  });
});
