// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { h } from 'vue';
import { emptyBuilding } from '../../../../../renderer/db/edit-shapes';
import type { BuildingRow } from '../../../../../renderer/db/schema';
import type { AppLocale } from '../../../../../renderer/i18n';
import BuildingForm from '../../../../../renderer/views/buildings/BuildingForm.vue';
import { byTestId, choose, eventually, type } from '../../dom';
import { BUILDING, mountAt, PORTFOLIO, releasePage, seedCache } from '../files/file-fixtures';

afterEach(releasePage);

/** The form of a stored building with `fields`, in `locale`. */
async function mountForm(fields: Partial<BuildingRow> = {}, locale: AppLocale = 'en') {
  const building: BuildingRow = { ...emptyBuilding(BUILDING, PORTFOLIO), name: 'School', ...fields };
  const connection = await seedCache([]);
  // In an element of its own, as in the drawer that holds it on the building page.
  await mountAt(connection, '/portfolios', { locale, render: () => h('div', [h(BuildingForm, { building })]) });
  await eventually(() => expect(byTestId('building-form')).not.toBeNull());
}

const formText = (): string => byTestId('building-form')?.textContent ?? '';
const save = (): HTMLButtonElement => byTestId('building-save') as HTMLButtonElement;

/** The shown value of a select field. */
function selected(field: string): string {
  return byTestId(`building-field-${field}`)?.querySelector('.n-base-selection-label')?.textContent?.trim() ?? '';
}

/** Opens a select field, types into its search and answers the options' texts once its menu shows. */
async function search(field: string, query: string): Promise<string[]> {
  byTestId(`building-field-${field}`)?.querySelector<HTMLElement>('.n-base-selection')?.click();
  const input = await eventually(() => {
    const found = byTestId(`building-field-${field}-search`) as HTMLInputElement | null;
    expect(found).not.toBeNull();
    return found!;
  });
  input.value = query;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
  await eventually(() => expect(document.querySelector('.n-base-select-menu')).not.toBeNull());
  return [...document.querySelectorAll<HTMLElement>('.n-base-select-option')].map((option) => option.textContent?.trim() ?? '');
}

describe('the building form refuses nonsense', { timeout: 30_000 }, () => {
  it('names a stored energy label outside the list, a lifespan of 0 years and a country that is no code, and saves nothing until they are fixed', async () => {
    await mountForm({ energyLabel: 'Z', expectedLifespanStructure: 0, addressCountry: 'Netherlands' });
    await eventually(() => expect(formText()).toContain('Not an energy label: choose one from the list.'));
    expect(formText()).toContain('At least 1 year.');
    expect(formText()).toContain('Not a country code: choose the country from the list.');
    expect(selected('energyLabel')).toBe('Z');
    expect(selected('addressCountry')).toBe('Netherlands');
    await type('building-field-name', 'School B');
    expect(save().disabled).toBe(true);

    await choose(byTestId('building-field-energyLabel'), 'A++');
    await type('building-field-expectedLifespanStructure', '75');
    expect(await search('addressCountry', 'nether')).toEqual(expect.arrayContaining(['Netherlands (NL)']));
    await choose(byTestId('building-field-addressCountry'), 'Netherlands (NL)');
    await eventually(() => expect(save().disabled).toBe(false));
    expect(formText()).not.toContain('Not an energy label');
    expect(formText()).not.toContain('At least 1 year.');
    expect(selected('addressCountry')).toBe('Netherlands (NL)');
  });

  it('offers energy labels only from their list', async () => {
    await mountForm();
    const offered = await search('energyLabel', '');
    expect(offered).toEqual(expect.arrayContaining(['A++++', 'A+', 'A', 'B', 'G']));
    expect(offered).not.toContain('Z');
    expect(await search('energyLabel', 'Z')).toEqual([]);
  });

  it('finds a country by its name in the user’s language, its English name or its code, and shows it in that language', async () => {
    await mountForm({ addressCountry: 'de' }, 'nl');
    await eventually(() => expect(selected('addressCountry')).toBe('Duitsland (DE)'));
    expect(await search('addressCountry', 'nederl')).toEqual(['Caribisch Nederland (BQ)', 'Nederland (NL)']);
    expect(await search('addressCountry', 'netherlands')).toEqual(['Caribisch Nederland (BQ)', 'Nederland (NL)']);
    expect(await search('addressCountry', 'belgium')).toEqual(['België (BE)']);
    expect(await search('addressCountry', 'at')).toEqual(expect.arrayContaining(['Oostenrijk (AT)']));
  });

  it('offers the platform’s building usages in the user’s language and keeps a usage of the user’s own', async () => {
    await mountForm({ buildingUsage: 'Offices Large' }, 'de');
    await eventually(() => expect(selected('buildingUsage')).toBe('Büro, groß'));
    expect(await search('buildingUsage', 'schul')).toEqual(expect.arrayContaining(['Grundschule', 'Weiterführende Schule']));
    const own = await search('buildingUsage', 'Labor');
    expect(own).toContain('Labor');
  });
});

describe('the building form’s dates', { timeout: 30_000 }, () => {
  it('take a typed ISO date in English and show both forms they take', async () => {
    await mountForm({}, 'en');
    const input = (): HTMLInputElement => byTestId('building-field-completionDate')!.querySelector('input')!;
    expect(input().placeholder).toBe('MM/DD/YYYY or YYYY-MM-DD');
    input().value = '2019-05-01';
    input().dispatchEvent(new Event('input'));
    input().dispatchEvent(new Event('blur'));
    await flushPromises();
    await eventually(() => expect(input().value).toBe('05/01/2019'));
    expect(save().disabled).toBe(false);
  });

  it('say what they take in the user’s language, and keep the value and save nothing while a text is no date', async () => {
    await mountForm({ completionDate: '2014-06-30T00:00:00.000Z' }, 'nl');
    const input = (): HTMLInputElement => byTestId('building-field-completionDate')!.querySelector('input')!;
    await eventually(() => expect(input().value).toBe('30-06-2014'));
    input().value = '2019-13-45';
    input().dispatchEvent(new Event('input'));
    input().dispatchEvent(new Event('blur'));
    await flushPromises();
    await eventually(() => expect(formText()).toContain('„2019-13-45” is geen datum: typ DD-MM-JJJJ of JJJJ-MM-DD.'));
    expect(input().value).toBe('30-06-2014');
    await type('building-field-name', 'School B');
    expect(save().disabled).toBe(true);
    input().value = '2019-05-01';
    input().dispatchEvent(new Event('input'));
    input().dispatchEvent(new Event('blur'));
    await flushPromises();
    await eventually(() => expect(input().value).toBe('01-05-2019'));
    expect(formText()).not.toContain('geen datum');
    expect(save().disabled).toBe(false);
  });
});
