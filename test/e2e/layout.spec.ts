/// <reference lib="dom" />
/**
 * The portfolios, the dashboard, the elements grid and the catalogue list hold their text in every language at 1,280 × 800: no text is
 * cut off by a box that clips it without an ellipsis, no placeholder is wider than its field, and no word is broken
 * over two lines ("Gebäudeschich t", a label one letter per line). Every offender is listed with its text.
 */
import type { Page } from '@playwright/test';
import { startBuildingWithFigures, type BuildingWithFigures } from './building-with-figures';
import { expect, test as base } from './fixtures';
import { openFile } from './pages/building';
import { catalogueRows } from './pages/catalogues';
import { expectDashboard } from './pages/dashboard';
import { expectElementsListed } from './pages/elements-grid';
import { openBuildingById } from './pages/portfolios';
import { expectSynced, navigateTo, reloadApp } from './pages/shell';

const LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it'] as const;

interface Offender {
  problem: 'clipped' | 'placeholder cut off' | 'word broken';
  text: string;
  where: string;
}

const test = base.extend<{ setup: BuildingWithFigures }>({
  setup: async ({}, use) => {
    const setup = await startBuildingWithFigures();
    await use(setup);
    await setup.stop();
  },
});

test.use({ viewport: { width: 1280, height: 800 } });

/** Runs in the page: every visible text that does not fit its box or breaks inside a word. */
function findOffenders(): Offender[] {
  const offenders: Offender[] = [];
  const where = (element: Element): string => {
    const named = element.closest('[data-testid]');
    const testId = named?.getAttribute('data-testid');
    const classes = typeof element.className === 'string' ? element.className.trim().split(/\s+/).slice(0, 2).join('.') : '';
    return `${element.tagName.toLowerCase()}${classes === '' ? '' : `.${classes}`}${testId === undefined || testId === null ? '' : ` in [data-testid=${testId}]`}`;
  };
  // Text for screen readers only sits in a box of 1 × 1 px on purpose.
  const shows = (element: Element): boolean => {
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1 && getComputedStyle(element).visibility !== 'hidden';
  };
  const canvas = document.createElement('canvas').getContext('2d');
  const range = document.createRange();
  const wordPattern = /[\p{L}\p{N}]{2,}/gu;

  for (const element of document.body.querySelectorAll('*')) {
    if (!shows(element)) continue;
    const style = getComputedStyle(element);

    // A box that clips (overflow hidden or clip) without an ellipsis must hold its text.
    const clips = style.overflowX === 'hidden' || style.overflowX === 'clip';
    const text = (element.textContent ?? '').trim();
    if (clips && style.textOverflow !== 'ellipsis' && text !== '' && element.scrollWidth > element.clientWidth + 1) {
      offenders.push({ problem: 'clipped', text: text.slice(0, 80), where: where(element) });
    }

    if ((element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && element.value === '' && element.placeholder !== '' && canvas !== null) {
      canvas.font = style.font;
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (canvas.measureText(element.placeholder).width > room + 1) {
        offenders.push({ problem: 'placeholder cut off', text: element.placeholder, where: where(element) });
      }
    }

    // A word whose letters sit on more than one line is broken inside.
    for (const node of element.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      const content = node.textContent ?? '';
      for (const word of content.matchAll(wordPattern)) {
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top)));
        if (lines.size > 1) offenders.push({ problem: 'word broken', text: `${word[0]} in “${content.trim().slice(0, 80)}”`, where: where(element) });
      }
    }
  }
  return offenders;
}

async function expectTextFits(page: Page, screen: string): Promise<void> {
  await expectSynced(page);
  const offenders = await page.evaluate(findOffenders);
  const lines = offenders.map((offender) => `${screen}: ${offender.problem}: ${offender.text} (${offender.where})`);
  // Soft: every screen of every language is checked, and the failure lists all offenders at once.
  expect.soft(lines, lines.join('\n')).toEqual([]);
}

/** Scrolled to its far right, the grid keeps its checkbox and id columns, header and rows, at its left edge. */
async function expectPinnedColumns(page: Page, language: string): Promise<void> {
  const offsets = await page.evaluate(() => {
    const grid = document.querySelector<HTMLElement>('.grid');
    if (grid === null) return null;
    grid.scrollLeft = grid.scrollWidth;
    const left = grid.getBoundingClientRect().left;
    const at = (selector: string): number | null => {
      const found = grid.querySelector(selector);
      return found === null ? null : Math.round(found.getBoundingClientRect().left - left);
    };
    return {
      scrolled: grid.scrollLeft > 0,
      headerCheckbox: at('.grid__header .grid__cell--select'),
      headerId: at('[data-testid="grid-header-id"]'),
      rowCheckbox: at('[data-testid="element-row"] .grid__cell--select'),
      rowId: at('[data-testid="element-row"] [data-testid="element-cell-id"]'),
    };
  });
  expect.soft(offsets, `${language} elements grid scrolled sideways`).toEqual({ scrolled: true, headerCheckbox: 1, headerId: 41, rowCheckbox: 1, rowId: 41 });
}

test('the dashboard, the elements grid and the catalogues hold their text in every language at 1,280 px', async ({ page, setup, openApp }) => {
  test.setTimeout(600_000);
  for (const language of LANGUAGES) {
    await test.step(language, async () => {
      if (language === LANGUAGES[0]) await openApp(setup.host);
      await page.evaluate((locale) => window.localStorage.setItem('circularity-desk:locale', locale), language);
      await reloadApp(page);
      await expect(page.locator('html')).toHaveAttribute('lang', language);

      await navigateTo(page, 'portfolios');
      await expect(page.getByTestId('building-search')).toBeVisible({ timeout: 30_000 });
      await expectTextFits(page, `${language} portfolios`);

      await openBuildingById(page, setup.buildingId);
      await expectDashboard(page);
      await expectTextFits(page, `${language} dashboard`);

      await openFile(page, setup.fileId);
      await expectElementsListed(page);
      await expectTextFits(page, `${language} elements grid`);
      await expectPinnedColumns(page, language);

      await navigateTo(page, 'catalogues');
      await expect(catalogueRows(page).first()).toBeVisible({ timeout: 30_000 });
      await expectTextFits(page, `${language} catalogues`);
    });
  }
});
