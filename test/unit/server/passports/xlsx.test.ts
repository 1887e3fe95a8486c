import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { BuildingLevel, Phase } from '../../../../shared/api';
import { writeBuildingPassportExcel } from '../../../../server/passports/xlsx';
import { sampleBuildingData, sampleElement, sampleElements } from './sample-data';

const folder = mkdtempSync(join(tmpdir(), 'passport-xlsx-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The value column of the summary row whose label is `label`. */
function summaryValue(sheet: ExcelJS.Worksheet, label: string): ExcelJS.CellValue {
  let value: ExcelJS.CellValue = undefined;
  sheet.eachRow((row) => {
    if (row.getCell(1).value === label) value = row.getCell(2).value;
  });
  return value;
}

async function readBack(file: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return workbook;
}

/** Writing a 10,000-row workbook takes seconds on a busy 2-core machine (CI runs the PostgreSQL suite alongside). */
const WORKBOOK_TIMEOUT_MS = 30_000;

describe('building passport Excel', () => {
  it('writes the translated sheets with summary, layers, families and one styled row per element (nl)', async () => {
    const file = join(folder, 'building-nl.xlsx');
    await writeBuildingPassportExcel(sampleBuildingData('nl', { elements: 25 }), createWriteStream(file));
    const workbook = await readBack(file);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Samenvatting', 'Bouwlagen', 'Materiaalfamilies', 'Elementen']);
    expect(workbook.creator).toBe('Circularity Desk');

    const summary = workbook.getWorksheet('Samenvatting')!;
    expect(summary.getRow(1).values).toEqual([undefined, 'Veld', 'Waarde']);
    expect(summaryValue(summary, 'Naam')).toBe('Paviljoen De Groene Rivier');
    expect(summaryValue(summary, 'Adres')).toBe('Gustav Mahlerlaan 10 A, 1082 PP Amsterdam, Nederland');
    expect(summaryValue(summary, 'Bruto vloeroppervlak (m²)')).toBe(6240.5);
    expect(summaryValue(summary, 'Opleverdatum')).toEqual(new Date('2019-06-28T00:00:00Z'));
    expect(summaryValue(summary, 'Laatste renovatie')).toBe('—');
    expect(summaryValue(summary, 'CI-score gebouw')).toBe(0.4863);
    expect(summaryValue(summary, 'Circulariteitsindicator (gecorrigeerd)')).toBe(0.4668);
    expect(summaryValue(summary, 'Elementen met bekend materiaal')).toBe(0.96);
    expect(summaryValue(summary, 'Classificatie toegekend – naar volume')).toBe(0.9412);
    expect(summaryValue(summary, 'Huidige waarde (€)')).toBe(3179.35);
    expect(summaryValue(summary, 'Netto contante waarde (€)')).toBe(-2528.13);
    expect(summaryValue(summary, 'Netto contante waarde – Constructie (€)')).toBe(-2443.92);
    summary.eachRow((row) => {
      if (row.getCell(1).value === 'CI-score gebouw') expect(row.getCell(2).numFmt).toBe('0.0%');
    });
    expect(summary.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    const layers = workbook.getWorksheet('Bouwlagen')!;
    expect(layers.getRow(1).values).toEqual([undefined, 'Bouwlaag', 'Elementen', 'Massa (kg)', 'Aandeel', 'Levensduur (jaar)']);
    // BuildingLevel order, whatever the input order.
    expect(layers.getColumn(1).values.slice(2)).toEqual(['Constructie', 'Gevel', 'Installaties', 'Inbouw', 'Inventaris']);
    expect(layers.getRow(2).values).toEqual([undefined, 'Constructie', 320, 1_040_000, 1_040_000 / 3_566_940, 50]);
    expect(layers.getRow(6).getCell(5).value).toBe(5); // Stuff: no own lifespan → industry average
    expect(layers.autoFilter).toBe('A1:E6');

    const families = workbook.getWorksheet('Materiaalfamilies')!;
    expect(families.getRow(2).values).toEqual([undefined, 'Steen', 2_450_000, 2_450_000 / 3_566_940, -3138.53]);
    expect(families.getColumn(1).values.slice(2)).toEqual(['Steen', 'Hout', 'Onbekend', 'Metaal', 'Kunststof', 'Glas', 'Organisch']);

    const elements = workbook.getWorksheet('Elementen')!;
    expect(elements.rowCount).toBe(26);
    const header = elements.getRow(1);
    expect(header.getCell(1).value).toBe('ID');
    expect(header.getCell(8).value).toBe('Bouwlaag');
    expect(header.getCell(1).font?.bold).toBe(true);
    expect(header.getCell(1).fill).toMatchObject({ type: 'pattern', pattern: 'solid' });
    expect(elements.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(elements.autoFilter).toBe('A1:R26');
    expect(elements.getColumn(2).width).toBe(30);
    const second = elements.getRow(3);
    expect(second.getCell(1).value).toBe(sampleElement(1).id);
    expect(second.getCell(8).value).toBe('Gevel');
    expect(second.getCell(9).value).toBe('Bestaand');
    expect(second.getCell(11).value).toBe(1.25);
    expect(second.getCell(11).numFmt).toBe('#,##0.000');
    expect(second.getCell(17).value).toBe(3000);
    // Whether each element counts in the circularity index, and if not, why (the same words as the summary's counts).
    expect(header.getCell(18).value).toBe('In de index');
    expect(second.getCell(18).value).toBe('Ja');
    expect(elements.getRow(2).getCell(18).value).toBe('Geen materiaal');
    expect(summaryValue(summary, 'Tellen mee')).toBe(1037);
    expect(summaryValue(summary, 'Geen massa (geen soortelijk gewicht)')).toBe(4);
    // Unknown values are empty cells, not dashes, so the numeric columns sum and filter.
    expect(elements.getRow(2).getCell(5).value).toBeNull();
  });

  it('streams 10,000 element rows from an async generator: bytes reach the output while rows are still being read', async () => {
    const file = join(folder, 'large-en.xlsx');
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        callback(null, chunk);
      },
    });
    counter.pipe(createWriteStream(file));
    const writtenAt = new Map<number, number>();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const data = sampleBuildingData('en', { image: false });
    data.elements = sampleElements(10_000, (index) => {
      if (index % 1000 === 0) {
        writtenAt.set(index, written);
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      }
    });
    const started = performance.now();
    await writeBuildingPassportExcel(data, counter);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the file stream behind the counter
    console.log(
      `10,000 element rows: ${(performance.now() - started).toFixed(0)} ms, ${written} bytes, ` +
        `heap +${((heapPeak - heapBefore) / 1e6).toFixed(1)} MB at most while writing`,
    );

    // Bytes leave at the pace rows are read (every 1,000 rows ≈ a tenth of the file), so nothing piles up in between:
    // without backpressure only 30 % of the file was out when the 9,000th row was read.
    for (let rows = 1000; rows < 10_000; rows += 1000) {
      expect(writtenAt.get(rows) ?? 0, `bytes out when row ${rows} was read`).toBeGreaterThan(written * (rows / 10_000 - 0.15));
    }
    expect(statSync(file).size).toBe(written);

    const workbook = await readBack(file);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'Building layers', 'Material families', 'Elements']);
    const elements = workbook.getWorksheet('Elements')!;
    expect(elements.rowCount).toBe(10_001);
    expect(elements.getRow(10_001).getCell(1).value).toBe(sampleElement(9999).id);
    expect(elements.autoFilter).toBe('A1:R10001');
  }, WORKBOOK_TIMEOUT_MS);

  it('accepts a plain iterable and writes every language’s sheet names', async () => {
    for (const language of ['de', 'fr', 'it', 'es'] as const) {
      const file = join(folder, `small-${language}.xlsx`);
      const data = sampleBuildingData(language, { image: false });
      data.elements = [
        {
          ...sampleElement(0),
          brandLayer: { id: BuildingLevel.Services.id, name: 'Services' },
          phase: { id: Phase.Demolition.id, name: 'Demolition' },
        },
      ];
      await writeBuildingPassportExcel(data, createWriteStream(file));
      const workbook = await readBack(file);
      const names = workbook.worksheets.map((sheet) => sheet.name);
      expect(names).toHaveLength(4);
      expect(names[0]).not.toBe('Summary');
      const row = workbook.worksheets[3]!.getRow(2);
      expect(row.getCell(8).value).toBe({ de: 'Technische Anlagen', fr: 'Équipements techniques', it: 'Impianti', es: 'Instalaciones' }[language]);
      expect(row.getCell(9).value).toBe({ de: 'Rückbau', fr: 'Démolition', it: 'Demolizione', es: 'Demolición' }[language]);
    }
  }, WORKBOOK_TIMEOUT_MS);
});
