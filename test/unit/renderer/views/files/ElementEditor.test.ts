// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { config } from '@vue/test-utils';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { all, byTestId, click, eventually } from '../../dom';
import { BUILDING, element, FILE, mountAt, releasePage, seedCache } from './file-fixtures';

// Transitions render as in the app (not as test-utils' stubs), so the drawer's focus trap finds the form in it.
beforeAll(() => {
  config.global.stubs = { ...config.global.stubs, transition: false };
});
afterEach(releasePage);

/** A volume as a sum in floating point leaves it. */
const VOLUME = 0.1 + 0.317;

async function openFile() {
  const connection = await seedCache([element('E1', { volume: VOLUME, area: 2 }), element('E2')]);
  const mounted = await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
  await eventually(() => expect(all('element-row').length === 2 && all('element-row').every((row) => row.querySelector('[data-testid="element-open"]') !== null)).toBe(true));
  return mounted;
}

function field(testId: string): HTMLInputElement {
  return byTestId(testId) as HTMLInputElement;
}

describe('the element form', { timeout: 30_000 }, () => {
  it('opens with the focus on its first field and its numbers to a sensible precision, nothing in red', async () => {
    expect(String(VOLUME)).toBe('0.41700000000000004');
    await openFile();
    all('element-row')[0]?.querySelector<HTMLElement>('[data-testid="element-open"]')?.click();
    await eventually(() => expect(document.activeElement).toBe(byTestId('element-field-name')));
    expect(field('element-field-volume').value).toBe('0.417');
    expect(byTestId('element-form')?.querySelector('.n-form-item-feedback--error')).toBeNull();
    expect((byTestId('element-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('of a new element opens with the focus on the id', async () => {
    await openFile();
    click('element-add');
    await eventually(() => expect(document.activeElement).toBe(byTestId('element-field-id')));
    expect(byTestId('element-form')?.querySelector('.n-form-item-feedback--error')).toBeNull();
  });
});
