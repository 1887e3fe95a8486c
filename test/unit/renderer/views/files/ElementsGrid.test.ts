// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { all, byTestId, eventually } from '../../dom';
import { BUILDING, element, FILE, mountAt, releasePage, seedCache } from './file-fixtures';

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
    await eventually(async () => expect((await sync.db!.elements.bulkGet(ELEMENTS.map((each) => [FILE, each.id]))).map((row) => row?.volume)).toEqual([2, 3, 4, 1]));
  });
});
