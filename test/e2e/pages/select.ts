/** naive-ui's select, whose options open in a popup outside the field. */
import type { Page } from '@playwright/test';

/** Opens the select with this test id and picks the first option holding `option`. */
export async function pickOption(page: Page, selectTestId: string, option: string): Promise<void> {
  await page.getByTestId(selectTestId).click();
  await page.locator('.n-base-select-option').filter({ hasText: option }).first().click();
}
