/** A building's dashboard: its circularity gauge. */
import { expect, type Locator, type Page } from '@playwright/test';

export function ciGauge(page: Page): Locator {
  return page.getByTestId('ci-gauge');
}

/** Waits until the dashboard shows, which takes the building's first sync. */
export async function expectDashboard(page: Page): Promise<void> {
  await expect(ciGauge(page)).toBeVisible({ timeout: 60_000 });
}
