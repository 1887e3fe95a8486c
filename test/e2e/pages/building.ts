/**
 * A building's page below its dashboard: its files, each a row with its status, its timeline and its actions, the
 * uploads chosen through the page's file input, and the passport request.
 */
import type { Download, Locator, Page } from '@playwright/test';

/** The stages of a file's timeline, as its steps name them. */
export type TimelineStep = 'uploaded' | 'mapped';

export function buildingFiles(page: Page): Locator {
  return page.getByTestId('building-files');
}

export function noFiles(page: Page): Locator {
  return page.getByTestId('building-no-files');
}

/** Chooses a file on disk through the page's file input, which uploads it. */
export async function chooseUpload(page: Page, file: string): Promise<void> {
  await page.getByTestId('upload-source-file').setInputFiles(file);
}

export function uploadRow(page: Page, fileName: string): Locator {
  return page.getByTestId('upload-row').filter({ hasText: fileName });
}

export function uploadProgress(upload: Locator): Locator {
  return upload.getByTestId('upload-progress');
}

/** What a waiting upload says about when it starts. */
export function uploadPending(upload: Locator): Locator {
  return upload.getByTestId('upload-pending');
}

export function fileRow(page: Page, fileId: string): Locator {
  return page.locator(`[data-testid="file-row"][data-file-id="${fileId}"]`);
}

export function fileRowNamed(page: Page, fileName: string): Locator {
  return page.getByTestId('file-row').filter({ hasText: fileName });
}

/** Opens a file's elements grid from its row. */
export async function openFile(page: Page, fileId: string): Promise<void> {
  await fileRow(page, fileId).click();
}

export async function openFileNamed(page: Page, fileName: string): Promise<void> {
  await fileRowNamed(page, fileName).click();
}

export function timelineStep(row: Locator, step: TimelineStep): Locator {
  return row.locator(`[data-testid="file-timeline-step"][data-step="${step}"]`);
}

export async function activateFile(row: Locator): Promise<void> {
  await row.getByTestId('activate-file').click();
}

/** Downloads a file through the browser and answers the download. */
export async function downloadFile(page: Page, row: Locator): Promise<Download> {
  const downloading = page.waitForEvent('download');
  await row.getByTestId('download-file').click();
  return downloading;
}

/** Deletes a file, confirming when asked. */
export async function deleteFile(page: Page, row: Locator): Promise<void> {
  await row.getByTestId('delete-file').click();
  await page.getByTestId('delete-file-confirm').click();
}

export async function requestPassportPdf(page: Page): Promise<void> {
  await page.getByTestId('building-passport').click();
  await page.getByTestId('passport-pdf').click();
}
