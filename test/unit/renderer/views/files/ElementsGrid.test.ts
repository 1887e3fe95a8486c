// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { all, byTestId, click, eventually, text } from '../../dom';
import { BUILDING, element, FILE, mountAt, releasePage, seedCache } from './file-fixtures';
import { elementsByIds } from '../../../../../renderer/db/reads';

afterEach(releasePage);

const ELEMENTS = ['E1', 'E2', 'E3', 'E4'].map((id) => element(id, { volume: 1 }));

async function openFile() {
  const connection = await seedCache(ELEMENTS);
  const mounted = await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
  await eventually(() => expect(all('element-row').length === 4 && all('element-row').every((row) => row.querySelector('[data-testid="element-open"]') !== null)).toBe(true));
  return mounted;
}

function cell(rowIndex: number, column: string): HTMLElement {
  const found = all('element-row')[rowIndex]?.querySelector<HTMLElement>(`[data-testid="element-cell-${column}"]`);
  if (found === undefined || found === null) throw new Error(`No ${column} cell in row ${rowIndex}.`);
  return found;
}

function press(target: EventTarget | null | undefined, key: string, options: KeyboardEventInit = {}): void {
  target?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...options }));
}

/** The inline editor, once it is open in this row. */
async function editorIn(rowIndex: number): Promise<HTMLInputElement> {
  return eventually(() => {
    const editor = all('element-row')[rowIndex]?.querySelector<HTMLInputElement>('[data-testid="element-inline-input"]');
    expect(editor).toBeTruthy();
    expect(all('element-inline-input')).toHaveLength(1);
    return editor!;
  });
}

describe('the elements grid', { timeout: 30_000 }, () => {
  it('types a column of values with Enter, each into its own row', async () => {
    const { sync } = await openFile();
    cell(0, 'volume').click();
    press(byTestId('elements-grid'), 'Enter');
    for (const [index, value] of ['2', '3', '4'].entries()) {
      const editor = await editorIn(index);
      expect(editor.value).toBe('1');
      editor.value = value;
      editor.dispatchEvent(new Event('input'));
      press(editor, 'Enter');
      await flushPromises();
    }
    expect((await editorIn(3)).value).toBe('1');
    await eventually(async () => expect((await elementsByIds(sync.db!, FILE, ELEMENTS.map((each) => each.id))).map((row) => row?.volume)).toEqual([2, 3, 4, 1]));
  });

  it('opens the element’s form with Enter on its id', async () => {
    await openFile();
    cell(1, 'volume').click();
    press(byTestId('elements-grid'), 'Home');
    press(byTestId('elements-grid'), 'Enter');
    await eventually(() => expect(byTestId('element-form')).not.toBeNull());
    expect((byTestId('element-field-name') as HTMLInputElement).value).toBe('Element E2');
    expect(byTestId('element-inline-input')).toBeNull();
  });

  it('extends the selection with Shift+arrows, and shrinks it going back', async () => {
    await openFile();
    const grid = byTestId('elements-grid');
    cell(1, 'name').click();
    press(grid, 'ArrowDown', { shiftKey: true });
    press(grid, 'ArrowDown', { shiftKey: true });
    await eventually(() => expect(text('element-selected-count')).toBe('3 selected'));
    press(grid, 'ArrowUp', { shiftKey: true });
    await eventually(() => expect(text('element-selected-count')).toBe('2 selected'));
    expect(all('element-row').map((row) => row.getAttribute('aria-selected'))).toEqual(['false', 'true', 'true', 'false']);
    press(grid, 'ArrowUp');
    press(grid, 'ArrowUp', { shiftKey: true });
    await eventually(() => expect(all('element-row').map((row) => row.getAttribute('aria-selected'))).toEqual(['true', 'true', 'true', 'false']));
  });

  it('selects a range with Shift+click, also when Shift was pressed on the grid before the click', async () => {
    await openFile();
    const grid = byTestId('elements-grid');
    const checkbox = (index: number): HTMLElement => all('element-row')[index]!.querySelector<HTMLElement>('[data-testid="element-select"]')!;
    checkbox(0).click();
    press(grid, 'Shift', { shiftKey: true });
    checkbox(3).dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true }));
    await eventually(() => expect(text('element-selected-count')).toBe('4 selected'));
  });

  it('lists its keys in a popover, which Escape closes together with clearing the selection', async () => {
    await openFile();
    const grid = byTestId('elements-grid');
    cell(0, 'name').click();
    press(grid, 'ArrowDown', { shiftKey: true });
    await eventually(() => expect(text('element-selected-count')).toBe('2 selected'));
    click('grid-keys');
    await eventually(() => expect(text('grid-keys-list')).toContain('Extend the selection from the active row'));
    expect(byTestId('grid-keys')?.getAttribute('aria-expanded')).toBe('true');
    press(grid, 'Escape');
    // happy-dom never ends a popover's leave transition, so its content stays in the document: its button tells.
    await eventually(() => expect(byTestId('grid-keys')?.getAttribute('aria-expanded')).toBe('false'));
    expect(byTestId('element-selected-count')).toBeNull();
  });

  it('closes the filters with Escape pressed in them', async () => {
    await openFile();
    click('element-filters');
    const filter = await eventually(() => {
      expect(byTestId('element-filter-name')).not.toBeNull();
      return byTestId('element-filter-name');
    });
    expect(byTestId('element-filters')?.getAttribute('aria-expanded')).toBe('true');
    press(filter, 'Escape');
    await eventually(() => expect(byTestId('element-filters')?.getAttribute('aria-expanded')).toBe('false'));
  });

  it('edits a stored number at a sensible precision and keeps it when left as it was', async () => {
    const volume = 0.1 + 0.317;
    const connection = await seedCache([element('E1', { volume })]);
    const { sync } = await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
    await eventually(() => expect(all('element-row')[0]?.querySelector('[data-testid="element-open"]')).toBeTruthy());
    cell(0, 'volume').dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    const editor = await editorIn(0);
    expect(editor.value).toBe('0.417');
    press(editor, 'Tab');
    await flushPromises();
    expect(await sync.db!.outbox.count()).toBe(0);
    expect((await elementsByIds(sync.db!, FILE, ['E1']))[0]?.volume).toBe(volume);
  });
});
