/** The Activity screen: the sync's state, its last error, the changes waiting and what needs attention. */
import type { Locator, Page } from '@playwright/test';

export function activityState(page: Page): Locator {
  return page.getByTestId('activity-state');
}

export function lastError(page: Page): Locator {
  return page.getByTestId('activity-last-error');
}

/** The notice that nothing needs attention. */
export function allWell(page: Page): Locator {
  return page.getByTestId('attention-all-well');
}

export function pendingCount(page: Page): Locator {
  return page.getByTestId('activity-pending-count');
}
