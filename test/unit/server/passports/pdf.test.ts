import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBuildingPassportPdf, writePortfolioPassportPdf } from '../../../../server/passports/pdf';
import { portfolioAverageCi } from '../../../../server/passports/pdf-portfolio';
import { sampleBuildingData, samplePortfolioData } from './sample-data';

const folder = mkdtempSync(join(tmpdir(), 'passport-pdf-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Page count from pdfinfo (poppler-utils). */
function pageCount(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/** The text of each page from pdftotext, pages split at form feeds, runs of white space made single spaces. */
function pageTexts(file: string): string[] {
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  return text
    .split('\f')
    .slice(0, -1)
    .map((page) => page.replace(/[\s\u00a0\u202f]+/g, ' '));
}

/** Renders every page to PNG at 50 dpi with pdftoppm and returns the PNG files. */
function renderPages(file: string, prefix: string): string[] {
  execFileSync('pdftoppm', ['-png', '-r', '50', file, join(folder, prefix)]);
  return readdirSync(folder)
    .filter((name) => name.startsWith(`${prefix}-`) && name.endsWith('.png'))
    .map((name) => join(folder, name));
}

function expectPngPages(files: string[], count: number) {
  expect(files).toHaveLength(count);
  for (const file of files) {
    const png = readFileSync(file);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // A4 at 50 dpi: 595.28 × 841.89 pt → 413.4 × 584.6 px, rounded either way by poppler.
    expect(Math.abs(png.readUInt32BE(16) - 413.4)).toBeLessThan(1);
    expect(Math.abs(png.readUInt32BE(20) - 584.6)).toBeLessThan(1);
  }
}

describe('building passport PDF', () => {
  it.each([
    {
      language: 'en' as const,
      expected: ['Material passport', 'Building identity', 'Construction phase', 'Building layers', 'Material families', 'Validation', 'Financial summary'],
      scores: ['49%', '47%', '62%'],
      page: (n: number, total: number) => `Page ${n} of ${total}`,
      foreign: ['Bouwfase', 'Materiaalfamilies'],
      figures: ['6,241 m²', '3,566.9 t', '12 May 2025', 'Gross floor area', 'Structure', '100%', '0.1%', 'Elements in the circularity index', 'Count in the index: 1,037', 'No mass (no specific weight): 4'],
    },
    {
      language: 'nl' as const,
      expected: ['Materialenpaspoort', 'Gebouwgegevens', 'Bouwfase', 'Bouwlagen', 'Materiaalfamilies', 'Validatie', 'Financieel overzicht'],
      scores: ['49%', '47%', '62%'],
      page: (n: number, total: number) => `Pagina ${n} van ${total}`,
      foreign: ['Construction phase', 'Material families'],
      figures: ['6.241 m²', '3.566,9 t', '12 mei 2025', 'Bruto vloeroppervlak', 'Constructie', '100%', '0,1%', 'Tellen mee: 1.037', 'Geen materiaal: 20'],
    },
  ])('$language: pages, text and labels in the language, rendered by pdftoppm', async ({ language, expected, scores, page, foreign, figures }) => {
    const file = join(folder, `building-${language}.pdf`);
    const started = performance.now();
    await writeBuildingPassportPdf(sampleBuildingData(language), createWriteStream(file));
    const elapsed = performance.now() - started;
    console.log(`building passport PDF (${language}): ${elapsed.toFixed(0)} ms, ${readFileSync(file).length} bytes`);

    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = pageCount(file);
    expect(pages).toBe(6);
    expectPngPages(renderPages(file, `building-${language}`), pages);

    const texts = pageTexts(file);
    expect(texts).toHaveLength(pages);
    const all = texts.join(' ');
    // The cover: identity, date, generated-by line.
    expect(texts[0]).toContain('CIRCULARITY DESK');
    expect(texts[0]).toContain('Paviljoen De Groene Rivier');
    expect(texts[0]).toContain('Circularity Desk');
    expect(texts[0]).toContain(expected[0]);
    for (const label of [...expected, ...scores, ...figures]) expect(all).toContain(label);
    for (const label of foreign) expect(all).not.toContain(label);
    texts.forEach((text, index) => expect(text).toContain(page(index + 1, pages)));
    // Missing values print as a dash (no last renovation, no energy index).
    expect(all).toContain('—');
    // Rendering every page with pdftoppm takes seconds on a loaded machine; the first language also loads the fonts.
  }, 30_000);

  it('shows "n/a" and the empty-state sentences for a building without figures, and skips an unreadable photo', async () => {
    const data = sampleBuildingData('en', { elements: 0 });
    data.image = { bytes: Buffer.from('not an image'), contentType: 'image/jpeg' };
    data.circular = {
      circularityConstructionPhase: null,
      circularityUsagePhase: null,
      circularityEndOfLifePhase: null,
      ciScoreBuilding: null,
      correctionUnknownMaterials: null,
      correctionUnknownBrandLayer: null,
      madasterCiScore: null,
    };
    data.layers = [];
    data.families = [];
    const file = join(folder, 'empty-en.pdf');
    await writeBuildingPassportPdf(data, createWriteStream(file));
    const all = pageTexts(file).join(' ');
    expect(all).toContain('n/a');
    expect(all).toContain('Not available: no element has a known material');
    expect(all).toContain('No elements have been counted yet.');
    expect(all).toContain('No material family is known yet.');
    expect(pageCount(file)).toBeGreaterThanOrEqual(3);
  });

  it('rejects and destroys the output when the output fails', async () => {
    const failing = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('disk full'));
      },
    });
    await expect(writeBuildingPassportPdf(sampleBuildingData('en', { image: false }), failing)).rejects.toThrow('disk full');
  });
});

describe('portfolio passport PDF', () => {
  it('lists three buildings with their CI scores, in the language', async () => {
    const file = join(folder, 'portfolio-en.pdf');
    const started = performance.now();
    await writePortfolioPassportPdf(samplePortfolioData('en'), createWriteStream(file));
    console.log(`portfolio passport PDF (en): ${(performance.now() - started).toFixed(0)} ms`);
    const pages = pageCount(file);
    expect(pages).toBe(2);
    expectPngPages(renderPages(file, 'portfolio-en'), pages);
    const texts = pageTexts(file);
    const all = texts.join(' ');
    expect(texts[0]).toContain('Portfolio passport');
    expect(texts[0]).toContain('Woningcorporatie Rivierenland');
    for (const name of ['Paviljoen De Groene Rivier', 'Schoolgebouw ’t Kompas', 'Bedrijfshal Noord']) expect(all).toContain(name);
    for (const label of ['Portfolio overview', 'CI score per building', 'Data completeness per building', '47%', '28%', 'n/a', 'Page 2 of 2']) {
      expect(all).toContain(label);
    }
    // Mass-weighted mean of 46.68 % (3 566.94 t) and 28.13 % (1 950 t); the third building has neither.
    expect(portfolioAverageCi(samplePortfolioData('en').buildings)).toBeCloseTo((0.4668 * 3_566_940 + 0.2813 * 1_950_000) / 5_516_940, 10);
    expect(texts[0]).toContain('40%');
  });

  it('writes German labels for a German request', async () => {
    const file = join(folder, 'portfolio-de.pdf');
    await writePortfolioPassportPdf(samplePortfolioData('de'), createWriteStream(file));
    const all = pageTexts(file).join(' ');
    for (const label of ['Portfoliopass', 'Portfolioübersicht', 'Gebäude', 'k. A.', '47 %', 'Seite 1 von 2']) expect(all).toContain(label);
  });
});
