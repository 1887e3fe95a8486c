/** The Catalogues screen: the list of materials and the form that makes one of the account's own. */
import type { Locator, Page } from '@playwright/test';

export function catalogueRows(page: Page): Locator {
  return page.getByTestId('catalogue-row');
}

/** Makes a material with an English name and one match, and saves it. */
export async function createMaterial(page: Page, name: string, match: string): Promise<void> {
  await page.getByTestId('catalogue-new').click();
  await page.getByTestId('catalogue-name-en').fill(name);
  await page.getByTestId('catalogue-tab-matches').click();
  await page.getByTestId('catalogue-match-add').click();
  await page.getByTestId('catalogue-match-value').last().fill(match);
  await page.getByTestId('catalogue-save').click();
}
