// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ElementType } from '../../../../../shared/api/enums';
import type { CacheDb } from '../../../../../renderer/db/cache-db';
import { elementKey } from '../../../../../renderer/db/schema';
import { all, byTestId, click, eventually, text } from '../../dom';
import { BUILDING, CONCRETE, element, FILE, mountAt, releasePage, seedCache, STEEL, WINDOW } from './file-fixtures';

afterEach(releasePage);

const UNCACHED = '60000000-0000-4000-8000-000000000009';
const ELEMENTS = [
  element('E1', { materialName: 'Beton' }),
  element('E2', { materialName: 'Beton', mapping: { type: ElementType.Material, id: CONCRETE } }),
  element('E3', { materialName: 'Raam', mapping: { type: ElementType.QuantityProduct, id: WINDOW } }),
  element('E4', { materialName: 'Iets', mapping: { type: ElementType.Material, id: UNCACHED } }),
];

async function openFile(locale: 'en' | 'de' = 'en') {
  const connection = await seedCache(ELEMENTS);
  const mounted = await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`, { locale });
  await eventually(() => expect(all('element-row').every((row) => row.querySelector('[data-testid="element-open"]') !== null) && all('element-row').length === 4).toBe(true));
  return mounted;
}

function cell(rowIndex: number, column: string): HTMLElement {
  const found = all('element-row')[rowIndex]?.querySelector<HTMLElement>(`[data-testid="element-cell-${column}"]`);
  if (found === undefined || found === null) throw new Error(`No ${column} cell in row ${rowIndex}.`);
  return found;
}

async function search(prefix: string, query: string): Promise<void> {
  const input = byTestId(`${prefix}-search`) as HTMLInputElement;
  input.value = query;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
}

function press(prefix: string, key: string): void {
  byTestId(`${prefix}-search`)?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
}

/** Selects the first two rows (the count then says `selected`), opens the bulk edit and chooses the material Steel in it. */
async function bulkEditFirstTwoToSteel(selected: string): Promise<void> {
  for (const row of all('element-row').slice(0, 2)) row.querySelector<HTMLElement>('[data-testid="element-select"]')?.click();
  await eventually(() => expect(text('element-selected-count')).toBe(selected));
  click('element-bulk-edit');
  await eventually(() => expect(byTestId('bulk-edit-form')).not.toBeNull());
  click('bulk-field-materialId');
  await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
  await search('catalogue-picker', 'steel');
  await eventually(() => expect(all('catalogue-picker-option')).toHaveLength(1));
  press('catalogue-picker', 'Enter');
  await eventually(() => expect(text('bulk-field-materialId-text')).toBe('Steel'));
}

async function entries(db: CacheDb): Promise<Array<[string, unknown]>> {
  return (await db.outbox.toArray()).map((entry) => [entry.key, entry.fields]);
}

describe('mapping by hand', { timeout: 30_000 }, () => {
  it('names in the grid the item each element is mapped to, or its kind when the cache lacks it', async () => {
    await openFile();
    await eventually(() => expect([0, 1, 2, 3].map((row) => cell(row, 'mapping').textContent?.trim())).toEqual(['Not mapped', 'Concrete', 'Window frame', 'Material']));
  });

  it('maps an element and classifies one from the grid’s cells, through pickers', async () => {
    const { sync } = await openFile();
    cell(0, 'mapping').dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    await search('catalogue-picker', 'staal');
    await eventually(() => expect(all('catalogue-picker-option').map((option) => option.dataset['itemId'])).toEqual([STEEL]));
    press('catalogue-picker', 'Enter');
    await eventually(async () => expect(await entries(sync.db!)).toEqual([[elementKey(FILE, 'E1'), { materialId: STEEL }]]));
    await eventually(() => expect(cell(0, 'mapping').textContent?.trim()).toBe('Steel'));

    cell(1, 'classification').dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    await eventually(() => expect(byTestId('classification-picker-search')).not.toBeNull());
    press('classification-picker', 'Escape');
    await eventually(() => expect(byTestId('classification-picker')).toBeNull());
    cell(1, 'classification').dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    await eventually(() => expect(byTestId('classification-picker-search')).not.toBeNull());
    await search('classification-picker', '21.22');
    await eventually(() => expect(all('classification-picker-option')[0]?.dataset['code']).toBe('21.22'));
    press('classification-picker', 'Enter');
    await eventually(async () => expect((await entries(sync.db!))[1]).toEqual([elementKey(FILE, 'E2'), { classificationLookup: '21.22' }]));
    await eventually(() => expect(cell(1, 'classification').textContent?.trim()).toBe('21.22'));
    expect(await sync.db!.outbox.count()).toBe(2);
  });

  it('names the mapped item in the element form and maps to another one there', async () => {
    const { sync } = await openFile();
    all('element-row')[1]?.querySelector<HTMLElement>('[data-testid="element-open"]')?.click();
    await eventually(() => expect(text('element-field-materialId-text')).toBe('Concrete (Material)'));
    click('element-field-materialId');
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    await search('catalogue-picker', 'kozijn');
    await eventually(() => expect(all('catalogue-picker-option')).toHaveLength(1));
    all('catalogue-picker-option')[0]?.click();
    await eventually(() => expect(text('element-field-materialId-text')).toBe('Window frame (Product)'));
    click('element-field-classificationLookup');
    await eventually(() => expect(byTestId('classification-picker-search')).not.toBeNull());
    await search('classification-picker', 'binnenwanden niet constructief massieve');
    await eventually(() => expect(all('classification-picker-option').map((option) => option.dataset['code'])).toEqual(['22.11']));
    press('classification-picker', 'Enter');
    await eventually(() => expect(text('element-field-classificationLookup-text')).toBe('22.11'));
    click('element-save');
    await eventually(async () => expect(await entries(sync.db!)).toEqual([[elementKey(FILE, 'E2'), { classificationLookup: '22.11', materialId: WINDOW }]]));
    expect((await sync.db!.elements.get([FILE, 'E2']))?.mapping).toEqual({ type: ElementType.QuantityProduct, id: WINDOW });
  });

  it('marks in the bulk edit a chosen name shown in another language for want of one in the user’s', async () => {
    await openFile('de');
    await bulkEditFirstTwoToSteel('2 ausgewählt');
    const mark = () => byTestId('bulk-edit-form')?.querySelector('[data-testid="language-mark"]');
    expect(mark()?.getAttribute('data-language')).toBe('en');
    click('bulk-field-materialId');
    await eventually(() => expect(byTestId('catalogue-picker-search')).not.toBeNull());
    await search('catalogue-picker', 'beton');
    await eventually(() => expect(all('catalogue-picker-option').map((option) => option.dataset['itemId'])).toEqual([CONCRETE]));
    press('catalogue-picker', 'Enter');
    await eventually(() => expect(text('bulk-field-materialId-text')).toBe('Beton'));
    expect(mark()).toBeNull();
  });

  it('maps and classifies a selection in one bulk edit', async () => {
    const { sync } = await openFile();
    await bulkEditFirstTwoToSteel('2 selected');
    click('bulk-field-classificationLookup');
    await eventually(() => expect(byTestId('classification-picker-search')).not.toBeNull());
    await search('classification-picker', '21.2');
    await eventually(() => expect(all('classification-picker-option')[0]?.dataset['code']).toBe('21.2'));
    press('classification-picker', 'Enter');
    click('bulk-apply');
    await eventually(async () =>
      expect(await entries(sync.db!)).toEqual(['E1', 'E2'].map((id) => [elementKey(FILE, id), { classificationLookup: '21.2', materialId: STEEL }])),
    );
  });
});
