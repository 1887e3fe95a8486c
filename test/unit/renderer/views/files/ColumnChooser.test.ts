// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { byTestId, click, eventually } from '../../dom';
import { BUILDING, element, FILE, mountAt, releasePage, seedCache } from './file-fixtures';

afterEach(() => {
  releasePage();
  localStorage.clear();
});

/** The column chooser's checkbox named `label`, once its popover shows it. */
function columnBox(label: string): Promise<HTMLElement> {
  return eventually(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.n-checkbox')].find((box) => box.textContent?.trim() === label);
    expect(found).toBeTruthy();
    return found!;
  });
}

describe('the column chooser', { timeout: 30_000 }, () => {
  it('shows and hides the grid’s columns, remembered on this device, and closes with Escape', async () => {
    const connection = await seedCache([element('E1', { volume: 1, weight: 2400 })]);
    await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
    await eventually(() => expect(byTestId('grid-header-area')).not.toBeNull());
    expect(byTestId('grid-header-weight')).toBeNull();

    click('element-columns');
    (await columnBox('Weight (kg)')).click();
    await eventually(() => expect(byTestId('grid-header-weight')).not.toBeNull());
    (await columnBox('Area (m²)')).click();
    await eventually(() => expect(byTestId('grid-header-area')).toBeNull());
    expect(JSON.parse(localStorage.getItem('circularity-desk:grid-columns') ?? '[]')).toContain('weight');
    expect(byTestId('element-columns')?.getAttribute('aria-expanded')).toBe('true');

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await eventually(() => expect(byTestId('element-columns')?.getAttribute('aria-expanded')).toBe('false'));
  });
});
