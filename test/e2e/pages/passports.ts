/** The Passports screen: the folders passports land in, by subject, and the passports requested for them. */
import type { Locator, Page } from '@playwright/test';
import { pickOption } from './select';

export function addTargetButton(page: Page): Locator {
  return page.getByTestId('passport-target-add');
}

/** Adds a folder for the passports of the subject named `subject`. */
export async function addPassportTarget(page: Page, subject: string, folder: string): Promise<void> {
  await pickOption(page, 'passport-subject', subject);
  await page.getByTestId('passport-folder').fill(folder);
  await addTargetButton(page).click();
}

export async function requestPassport(page: Page, subject: string): Promise<void> {
  await page.getByTestId('passport-target').filter({ hasText: subject }).getByTestId('passport-request').click();
}

/** The passports requested, in one format. */
export function passportEntries(page: Page, format: 'pdf'): Locator {
  return page.locator(`[data-testid="passport-entry"][data-format="${format}"]`);
}
