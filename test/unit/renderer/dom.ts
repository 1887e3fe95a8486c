/**
 * What the component tests do with the page: find elements by test id (naive-ui teleports dialogs and menus to the
 * body, so they are looked up in the document, not the wrapper), read their text, click, type and pick options.
 */
import { flushPromises } from '@vue/test-utils';
import { expect, vi } from 'vitest';

/** Retries `check` until it passes (10 s at most): the page follows the cache and the server in its own time. */
export function eventually<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 10_000, interval: 20 });
}

/** The element with this test id, anywhere in the document. */
export function byTestId(testId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
}

/** Every element with this test id. */
export function all(testId: string): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(`[data-testid="${testId}"]`)];
}

/** The text of the element with this test id, its white space folded. */
export function text(testId: string): string {
  return byTestId(testId)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

/** Clicks the element with this test id; throws when there is none. */
export function click(testId: string): void {
  const found = byTestId(testId);
  if (found === null) throw new Error(`No ${testId}.`);
  found.click();
}

/** Types into the input with this test id as a user does: the value, an input event, then leaving the field. */
export async function type(testId: string, value: string): Promise<void> {
  const field = byTestId(testId) as HTMLInputElement | null;
  if (field === null) throw new Error(`No ${testId}.`);
  field.value = value;
  field.dispatchEvent(new Event('input'));
  field.dispatchEvent(new Event('blur'));
  await flushPromises();
}

/** Opens a select and picks the option with this text. */
export async function choose(select: HTMLElement | null | undefined, option: string): Promise<void> {
  select?.querySelector<HTMLElement>('.n-base-selection')?.click();
  const item = await eventually(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.n-base-select-option')].find((each) => each.textContent?.trim() === option);
    expect(found).toBeDefined();
    return found!;
  });
  item.click();
  await flushPromises();
}
