/**
 * A file's elements grid: its count of shown elements, the quick filter, the rows with their selection and their
 * edit form, the bulk edit of a selection, and the link to the file's import report.
 */
import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** The height of a row in the virtual grid, in pixels. */
const ROW_HEIGHT = 32;

/** Waits until the grid lists elements, which takes the file's first sync. */
export async function expectElementsListed(page: Page): Promise<void> {
  await expect(page.getByTestId('element-open').first()).toBeVisible({ timeout: 60_000 });
}

/** "n of m elements". */
export function viewCount(page: Page): Locator {
  return page.getByTestId('element-view-count');
}

export async function quickFilter(page: Page, text: string): Promise<void> {
  await page.getByTestId('element-quick-filter').fill(text);
}

export function elementsLoading(page: Page): Locator {
  return page.getByTestId('elements-loading');
}

export function elementRow(page: Page, elementId: string): Locator {
  return page.locator(`[data-testid="element-row"][data-element-id="${elementId}"]`);
}

/** The mark of a row changed here and not yet on the server. */
export function elementChanged(row: Locator): Locator {
  return row.getByTestId('element-changed');
}

/** Opens a row's edit form, sets the element's name and saves it. */
export async function renameElement(page: Page, row: Locator, name: string): Promise<void> {
  await row.getByTestId('element-open').click();
  await page.getByTestId('element-field-name').fill(name);
  await page.getByTestId('element-save').click();
}

/** Selects the rows from index `first` to `last` as a user does: a click, a scroll, a shift-click. */
export async function selectRows(page: Page, first: number, last: number): Promise<void> {
  const grid = page.getByTestId('elements-grid');
  await grid.locator(`[data-index="${first}"] [data-testid="element-select"]`).click();
  // Scrolled so that the last row shows, ten rows below the top of the view.
  await grid.evaluate((element, top) => {
    element.scrollTop = top;
  }, (last - 9) * ROW_HEIGHT);
  await grid.locator(`[data-index="${last}"] [data-testid="element-select"]`).click({ modifiers: ['Shift'] });
}

export function selectedCount(page: Page): Locator {
  return page.getByTestId('element-selected-count');
}

/** Sets one field of every selected element through the bulk edit form. */
export async function bulkEdit(page: Page, field: string, value: string): Promise<void> {
  await page.getByTestId('element-bulk-edit').click();
  await page.getByTestId(`bulk-field-${field}`).fill(value);
  await page.getByTestId('bulk-apply').click();
}

export function bulkEditForm(page: Page): Locator {
  return page.getByTestId('bulk-edit-form');
}

export async function openReport(page: Page): Promise<void> {
  await page.getByTestId('file-report-link').click();
}

/** Exports the grid's view as the browser downloads it. */
export async function exportView(page: Page, format: 'xlsx' | 'csv'): Promise<Download> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId('element-export').click();
  await page.getByTestId(`element-export-${format}`).click();
  return downloading;
}
