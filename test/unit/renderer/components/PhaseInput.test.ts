// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { config, flushPromises } from '@vue/test-utils';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppLocale } from '../../../../renderer/i18n';
import { all, byTestId, eventually } from '../dom';
import { BUILDING, element, FILE, mountAt, releasePage, seedCache } from '../views/files/file-fixtures';

// Transitions render as in the app (not as test-utils' stubs), so the drawer's focus trap finds the form in it.
beforeAll(() => {
  config.global.stubs = { ...config.global.stubs, transition: false };
});
afterEach(releasePage);

/** The element form of a file's element, in `locale`. */
async function openElementForm(locale: AppLocale) {
  const connection = await seedCache([element('E1')]);
  const { sync } = await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`, { locale });
  await eventually(() => expect(all('element-row')[0]?.querySelector('[data-testid="element-open"]')).toBeTruthy());
  all('element-row')[0]?.querySelector<HTMLElement>('[data-testid="element-open"]')?.click();
  await eventually(() => expect(byTestId('element-field-phaseLookup')).not.toBeNull());
  return sync;
}

const phaseInput = (): HTMLInputElement => byTestId('element-field-phaseLookup') as HTMLInputElement;

/** Types into the phase field and answers what it offers: each phase's name, then its words. */
async function typePhase(text: string): Promise<string[]> {
  phaseInput().dispatchEvent(new Event('focus'));
  phaseInput().value = text;
  phaseInput().dispatchEvent(new Event('input'));
  await flushPromises();
  await eventually(() => expect(document.querySelector('.n-base-select-menu')).not.toBeNull());
  return [...document.querySelectorAll<HTMLElement>('.n-base-select-group-header, .n-base-select-option')].map((item) => item.textContent?.trim() ?? '');
}

describe('the phase of an element', { timeout: 30_000 }, () => {
  it('offers the words the server reads as a phase, under each phase’s name in the user’s language', async () => {
    await openElementForm('nl');
    expect(await typePhase('')).toEqual([
      'Sloop', 'demolition', 'to be demolished', 'sloop', 'rückbau',
      'Nieuw', 'new', 'nieuw', 'neu', 'einbau',
      'Bestaand', 'existing', 'bestaand', 'casco', 'rohbau',
    ]);
    expect(await typePhase('nie')).toEqual(['Nieuw', 'nieuw']);
  });

  it('keeps a text of the user’s own, and saves a word chosen from the offer', async () => {
    const sync = await openElementForm('en');
    phaseInput().dispatchEvent(new Event('focus'));
    phaseInput().value = 'Fase 2';
    phaseInput().dispatchEvent(new Event('input'));
    await flushPromises();
    expect(phaseInput().value).toBe('Fase 2');
    expect(document.querySelectorAll('.n-base-select-option')).toHaveLength(0);

    await typePhase('sl');
    const offered = await eventually(() => {
      const option = [...document.querySelectorAll<HTMLElement>('.n-base-select-option')].find((item) => item.textContent?.trim() === 'sloop');
      expect(option).toBeDefined();
      return option!;
    });
    offered.click();
    await eventually(() => expect(phaseInput().value).toBe('sloop'));
    (byTestId('element-save') as HTMLButtonElement).click();
    await eventually(async () => expect((await sync.db!.outbox.toArray()).map((entry) => entry.fields)).toEqual([{ phaseLookup: 'sloop' }]));
  });
});
