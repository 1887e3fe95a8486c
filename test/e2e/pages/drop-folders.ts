/** The Drop folders screen: a folder added for a building, its card with its watch state and the files seen in it. */
import type { Locator, Page } from '@playwright/test';
import { pickOption } from './select';

export function addDropFolderButton(page: Page): Locator {
  return page.getByTestId('dropfolder-add');
}

/** Adds a folder whose files go to the building named `building`, and answers its card. */
export async function addDropFolder(page: Page, folder: string, building: string): Promise<Locator> {
  await page.getByTestId('dropfolder-path').fill(folder);
  await pickOption(page, 'dropfolder-target', building);
  await addDropFolderButton(page).click();
  return dropFolderCard(page, folder);
}

export function dropFolderCard(page: Page, folder: string): Locator {
  return page.getByTestId('dropfolder-card').filter({ hasText: folder });
}

/** Whether the folder is watched, in words. */
export function watchState(card: Locator): Locator {
  return card.getByTestId('dropfolder-watch');
}

/** A file seen in the folder, by its path inside it. */
export function droppedFile(card: Locator, relativePath: string): Locator {
  return card.locator(`[data-testid="dropfolder-file"][data-path="${relativePath}"]`);
}
