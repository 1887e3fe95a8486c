/** The Portfolios screen and a portfolio's page: the portfolio cards, and the links and rows of their buildings. */
import type { Locator, Page } from '@playwright/test';

/** The cards of the portfolios, or of those whose text holds `name`. */
export function portfolioCard(page: Page, name?: string): Locator {
  const cards = page.getByTestId('portfolio-card');
  return name === undefined ? cards : cards.filter({ hasText: name });
}

export async function openPortfolio(page: Page, name: string): Promise<void> {
  await page.getByTestId('portfolio-link').filter({ hasText: name }).click();
}

export function portfolioPage(page: Page): Locator {
  return page.getByTestId('portfolio-page');
}

/** The links to the buildings, or to those whose text holds `name`. */
export function buildingLink(page: Page, name?: string): Locator {
  const links = page.getByTestId('building-link');
  return name === undefined ? links : links.filter({ hasText: name });
}

export function buildingRows(page: Page): Locator {
  return page.getByTestId('building-row');
}

export async function openBuilding(page: Page, name: string): Promise<void> {
  await buildingLink(page, name).click();
}

/** Opens a building by its address in the app, from wherever the page is. */
export async function openBuildingById(page: Page, buildingId: string): Promise<void> {
  await page.evaluate((id) => {
    window.location.hash = `#/buildings/${id}`;
  }, buildingId);
}
