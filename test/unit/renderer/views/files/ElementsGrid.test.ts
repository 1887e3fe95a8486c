// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { all, byTestId, click, eventually, text, type } from '../../dom';
import { BUILDING, CONCRETE, element, FILE, mountAt, releasePage, seedCache, STEEL } from './file-fixtures';
import { ElementType, Phase } from '../../../../../shared/api/enums';
import { elementsByIds } from '../../../../../renderer/db/reads';
import { elementKey } from '../../../../../renderer/db/schema';

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

describe('a split element in the elements grid', { timeout: 30_000 }, () => {
  const WALL = '2O2Fr$t4X7Zf8NOew3FLOH';
  const LAYERS = [`${WALL}-L1`, `${WALL}-L2`, `${WALL}-L3`];
  const wall = (id: string, materialName: string, volume: number) =>
    element(id, { name: 'Outer wall', typeName: 'Basic Wall:Exterior', materialName, volume, area: 20, width: volume / 20, floor: '00' });
  // In id order, as the server lists them.
  const SPLIT = [wall(LAYERS[0]!, 'Brick', 2.5), wall(LAYERS[1]!, 'Mineral wool', 2), wall(LAYERS[2]!, 'Plasterboard', 0.5), element('E1', { name: 'Column' }), element('W-L1', { name: 'Sheet wall' })];

  async function openSplitFile() {
    const connection = await seedCache(SPLIT);
    const mounted = await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
    await eventually(() => expect(byTestId('element-parent-row')?.getAttribute('data-loading')).toBeNull());
    return mounted;
  }

  const parentRow = (): HTMLElement => byTestId('element-parent-row')!;
  const toggle = (): HTMLElement => parentRow().querySelector<HTMLElement>('[data-testid="element-parent-toggle"]')!;
  const parentCell = (column: string): string => parentRow().querySelector(`[data-testid="element-cell-${column}"]`)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  const partRows = (): string[] => all('element-row').flatMap((row) => (row.dataset['partOf'] === WALL ? [row.dataset['elementId'] ?? ''] : []));

  it('shows its parts under one closed parent row, with what they share and their summed volume', async () => {
    await openSplitFile();
    expect(parentRow().dataset['parentId']).toBe(WALL);
    expect(parentRow().dataset['parts']).toBe('3');
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect([parentCell('name'), parentCell('materialName'), parentCell('elementClass'), parentCell('floor'), parentCell('volume'), parentCell('area')]).toEqual([
      'Outer wall',
      '3 layers',
      'IfcWall',
      '00',
      '5',
      '20',
    ]);
    // A spreadsheet's id that looks like a part's is an element of its own.
    expect(all('element-row').map((row) => row.dataset['elementId'])).toEqual(['E1', 'W-L1']);
    expect(text('element-view-count')).toBe('5 of 5 elements');
    toggle().click();
    await eventually(() => expect(partRows()).toEqual(LAYERS));
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    expect(all('element-row').map((row) => row.dataset['elementId'])).toEqual([...LAYERS, 'E1', 'W-L1']);
    toggle().click();
    await eventually(() => expect(partRows()).toEqual([]));
  });

  it('opens with → or Enter and closes with ← or Enter on the parent row; ← on a part’s id goes to its parent', async () => {
    await openSplitFile();
    const grid = byTestId('elements-grid');
    parentRow().querySelector<HTMLElement>('[data-testid="element-cell-name"]')!.click();
    press(grid, 'Home');
    press(grid, 'ArrowRight');
    await eventually(() => expect(partRows()).toEqual(LAYERS));
    // Open: → moves on, ← closes.
    press(grid, 'ArrowRight');
    press(grid, 'ArrowLeft');
    expect(partRows()).toEqual(LAYERS);
    press(grid, 'ArrowLeft');
    await eventually(() => expect(partRows()).toEqual([]));
    press(grid, 'Enter');
    await eventually(() => expect(partRows()).toEqual(LAYERS));
    press(grid, 'ArrowDown');
    press(grid, 'ArrowDown');
    press(grid, 'ArrowLeft');
    press(grid, 'Enter');
    await eventually(() => expect(partRows()).toEqual([]));
    expect(byTestId('element-form')).toBeNull();
  });

  it('selects its parts with the parent row, and a bulk edit changes them', async () => {
    const { sync } = await openSplitFile();
    parentRow().querySelector<HTMLElement>('[data-testid="element-select"]')!.click();
    await eventually(() => expect(text('element-selected-count')).toBe('3 selected'));
    expect(parentRow().getAttribute('aria-selected')).toBe('true');
    click('element-bulk-edit');
    await eventually(() => expect(byTestId('bulk-edit-form')).not.toBeNull());
    await type('bulk-field-floor', '01');
    click('bulk-apply');
    await eventually(async () => expect((await sync.db!.outbox.toArray()).map((entry) => entry.key)).toEqual(LAYERS.map((id) => elementKey(FILE, id))));
    expect((await elementsByIds(sync.db!, FILE, [...LAYERS, 'E1'])).map((row) => row?.floor)).toEqual(['01', '01', '01', null]);
  });

  it('selects one part of it alone, and marks the parent row as partly selected', async () => {
    await openSplitFile();
    toggle().click();
    await eventually(() => expect(partRows()).toEqual(LAYERS));
    all('element-row')[1]!.querySelector<HTMLElement>('[data-testid="element-select"]')!.click();
    await eventually(() => expect(text('element-selected-count')).toBe('1 selected'));
    const box = parentRow().querySelector<HTMLInputElement>('[data-testid="element-select"]')!;
    expect([box.checked, box.indeterminate]).toEqual([false, true]);
  });

  it('edits no cell of the parent row, which says so, and a part’s cell as any other', async () => {
    const { sync } = await openSplitFile();
    const volume = parentRow().querySelector<HTMLElement>('[data-testid="element-cell-volume"]')!;
    expect(volume.getAttribute('aria-readonly')).toBe('true');
    expect(parentRow().getAttribute('title')).toContain('Edit them on its parts');
    volume.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    await flushPromises();
    expect(byTestId('element-inline-input')).toBeNull();
    toggle().click();
    await eventually(() => expect(partRows()).toEqual(LAYERS));
    cell(2, 'volume').dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    const editor = await editorIn(2);
    editor.value = '1.5';
    editor.dispatchEvent(new Event('input'));
    press(editor, 'Tab');
    await eventually(async () => expect((await elementsByIds(sync.db!, FILE, [LAYERS[2]!]))[0]?.volume).toBe(1.5));
    await eventually(() => expect(parentCell('volume')).toBe('6'));
  });

  it('shows only its unmapped parts with "unmapped only", open, and says how many of them are mapped', async () => {
    const connection = await seedCache([{ ...SPLIT[0]!, mapping: { type: ElementType.Material, id: CONCRETE } }, ...SPLIT.slice(1)]);
    await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
    await eventually(() => expect(parentCell('mapping')).toBe('1 of 3 mapped'));
    expect(parentRow().classList.contains('grid__row--unmapped')).toBe(true);
    click('element-unmapped-only');
    await eventually(() => expect(parentRow().dataset['parts']).toBe('2'));
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    await eventually(() => expect(partRows()).toEqual(LAYERS.slice(1)));
    expect(text('element-view-count')).toBe('4 of 5 elements');
  });

  it('shows the columns chosen on its parent row, and filters its parts on those alone', async () => {
    localStorage.setItem('circularity-desk:grid-columns', JSON.stringify(['typeName', 'weight']));
    try {
      const connection = await seedCache(SPLIT.map((part, index) => ({ ...part, weight: index < 3 ? 100 * (index + 1) : null })));
      await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`);
      await eventually(() => expect(parentCell('weight')).toBe('600'));
      expect([...parentRow().querySelectorAll<HTMLElement>('[data-column]')].map((cell) => cell.dataset['testid'])).toEqual(['element-cell-id', 'element-cell-typeName', 'element-cell-weight']);
      expect(parentCell('typeName')).toBe('Basic Wall:Exterior');
      await type('element-quick-filter', 'wool');
      await eventually(() => expect(text('element-view-count')).toBe('0 of 5 elements'));
      await type('element-quick-filter', 'exterior');
      await eventually(() => expect(parentRow().dataset['parts']).toBe('3'));
    } finally {
      localStorage.removeItem('circularity-desk:grid-columns');
    }
  });

  it('shows the parts a filter keeps under their parent row, open', async () => {
    await openSplitFile();
    await type('element-quick-filter', 'wool');
    await eventually(() => expect(parentRow().dataset['parts']).toBe('1'));
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    await eventually(() => expect(partRows()).toEqual([LAYERS[1]]));
    expect(text('element-view-count')).toBe('1 of 5 elements');
  });
});

describe('the grid’s data in the user’s language', { timeout: 30_000 }, () => {
  it('says the phases the app knows in German, and marks a material name it can only show in English', async () => {
    const existing = { id: Phase.Existing.id, name: Phase.Existing.name };
    const connection = await seedCache([
      element('E1', { phaseMatch: existing, phaseLookup: ['Bestand'], mapping: { type: ElementType.Material, id: STEEL } }),
      element('E2', { phaseMatch: { id: Phase.New.id, name: Phase.New.name }, phaseLookup: ['Neubau'], mapping: { type: ElementType.Material, id: CONCRETE } }),
    ]);
    await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`, { locale: 'de' });
    await eventually(() => expect(cell(1, 'phase').textContent?.trim()).toBe('Neu'));
    expect(cell(0, 'phase').textContent?.trim()).toBe('Bestand');

    // Steel has no German name: its English one shows, marked as English.
    await eventually(() => expect(cell(0, 'mapping').querySelector('.grid__text')?.textContent?.trim()).toBe('Steel'));
    const mark = cell(0, 'mapping').querySelector<HTMLElement>('[data-testid="language-mark"]');
    expect(mark?.dataset['language']).toBe('en');
    expect(mark?.getAttribute('title')).toBe('Name auf Englisch: Auf Deutsch gibt es keinen.');
    expect(mark?.textContent).toContain('EN');
    expect(cell(1, 'mapping').textContent?.trim()).toBe('Beton');
    expect(cell(1, 'mapping').querySelector('[data-testid="language-mark"]')).toBeNull();
  });

  it('marks the item a split element’s parts share on its parent row when its name is only in English', async () => {
    const WALL = '2O2Fr$t4X7Zf8NOew3FLOH';
    const part = (n: number, id: string) => element(`${WALL}-L${n}`, { name: 'Outer wall', mapping: { type: ElementType.Material, id } });
    const connection = await seedCache([part(1, STEEL), part(2, STEEL), element('W-L1', { name: 'Sheet wall' }), element('X-L1', { name: 'Other' })]);
    await mountAt(connection, `/buildings/${BUILDING}/files/${FILE}`, { locale: 'de' });
    const parent = (): HTMLElement | null => byTestId('element-parent-row');
    await eventually(() => expect(parent()?.getAttribute('data-loading')).toBeNull());
    const mapping = parent()!.querySelector<HTMLElement>('[data-testid="element-cell-mapping"]')!;
    await eventually(() => expect(mapping.querySelector('.grid__text')?.textContent?.trim()).toBe('Steel'));
    expect(mapping.querySelector<HTMLElement>('[data-testid="language-mark"]')?.dataset['language']).toBe('en');
  });
});
