/**
 * A file's import report: the counted elements, the breakdown of the material sources, the groups of elements without
 * a mapped material and the mapping of a group from the catalogue picker, refined on the server.
 */
import type { Locator, Page } from '@playwright/test';

/** The elements of the material breakdown whose material comes from `source` (`none`: no material at all). */
export function materialSource(page: Page, source: string): Locator {
  return page.locator(`[data-testid="report-breakdown"][data-breakdown="material"] [data-testid="report-source"][data-source="${source}"]`);
}

export function counted(page: Page): Locator {
  return page.getByTestId('report-counted');
}

/** The groups of unmapped elements, the largest first. */
export function unmappedGroups(page: Page): Locator {
  return page.getByTestId('report-unmapped-group');
}

/** The groups of unmapped elements without a material name, by IFC class and type name, the largest first. */
export function unnamedGroups(page: Page): Locator {
  return page.locator('[data-testid="report-unmapped-group"][data-element-class]');
}

/** Maps a group to the catalogue item with this id, found in the picker by `search`. */
export async function mapGroup(page: Page, group: Locator, search: string, itemId: string): Promise<void> {
  await group.getByTestId('report-map').click();
  await page.getByTestId('catalogue-picker-search').fill(search);
  await page.locator(`[data-testid="catalogue-picker-option"][data-item-id="${itemId}"]`).click();
}

/** The mappings chosen and not yet refined. */
export function pendingMappings(page: Page): Locator {
  return page.getByTestId('report-pending');
}

export async function refine(page: Page): Promise<void> {
  await page.getByTestId('report-refine').click();
}

/** Back through the file to its building's dashboard. */
export async function backToBuilding(page: Page): Promise<void> {
  await page.getByTestId('back-to-file').click();
  await page.getByTestId('back-to-building').click();
}
