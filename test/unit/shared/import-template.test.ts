/**
 * The import template: its header row in each language, its explanation of every column in all six, what the importer
 * reads of it (nothing while empty, the rows once filled), and the committed docs/import-template.xlsx.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillImportTemplate, importTemplateSheets, sheetsOf } from '../../../shared/import-template';
import { SHEET_COLUMNS, SHEET_LANGUAGES, sheetHeader, type SheetLanguage } from '../../../shared/sheet-columns';
import type { ImportedElement } from '../../../server/imports/imported-element';
import { importSheet } from '../../../server/imports/sheet';

const COMMITTED = fileURLToPath(new URL('../../../docs/import-template.xlsx', import.meta.url));

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'import-template-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The template in a language, with `rows` filled in below the header of its first sheet, saved to a file. */
async function savedTemplate(language: SheetLanguage, rows: (string | number | null)[][] = []): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  fillImportTemplate(workbook, language);
  workbook.worksheets[0]?.addRows(rows);
  const file = path.join(dir, `template-${language}-${rows.length}.xlsx`);
  await workbook.xlsx.writeFile(file);
  return file;
}

async function imported(file: string): Promise<{ elements: ImportedElement[]; rejected: string[] }> {
  const elements: ImportedElement[] = [];
  const outcome = await importSheet(file, path.basename(file), { elements: async (batch) => void elements.push(...batch), progress: () => {} });
  return { elements, rejected: outcome.rejected };
}

describe('the import template', () => {
  it('heads its first sheet in the language and explains every column with its names in all six', () => {
    const [elements, columns] = importTemplateSheets('de');
    expect(elements?.name).toBe('Elemente');
    expect(elements?.rows).toEqual([SHEET_COLUMNS.map((column) => sheetHeader(column.field, 'de'))]);
    expect(elements?.rows[0]?.slice(0, 5)).toEqual(['Id', 'Name', 'Beschreibung', 'Material/Produkt', 'Material/Produkt-ID']);
    expect(columns?.name).toBe('Spalten');
    expect(columns?.rows[2]).toEqual(['Spalte', 'Erläuterung', 'Einheit', 'Nederlands', 'English', 'Deutsch', 'Français', 'Italiano', 'Español']);
    const volume = columns?.rows.find((row) => row[1] === SHEET_COLUMNS.find((column) => column.field === 'volume')?.explanation.de);
    expect(volume).toEqual(['H', expect.stringContaining('Volumen'), 'm³', 'Volume', 'Volume', 'Volumen', 'Volume', 'Volume', 'Volumen']);
    expect(columns?.rows.slice(3).map((row) => row[0])).toEqual(SHEET_COLUMNS.map((_, index) => String.fromCharCode(0x41 + index)));
  });

  it.each(SHEET_LANGUAGES)('%s: imports nothing while empty, and its rows once filled in', async (language) => {
    expect(await imported(await savedTemplate(language))).toEqual({ elements: [], rejected: [] });

    const material = '0b6c2f9e-4a43-4c1e-9a55-3f0d2b1c7e01';
    const filled = await savedTemplate(language, [
      ['W-1', 'Wall', 'Exterior 300', 'Beton', material, '21.22', '00', 3.6, 12, 4, 0.3, 3, null, null, 'New', 'IfcWall'],
      ['B-1', 'Beam', null, 'Steel', null, null, '01', 0.05, null, 5, null, null, 390, 2, null, null],
    ]);
    const { elements, rejected } = await imported(filled);
    expect(rejected).toEqual([]);
    expect(elements).toMatchObject([
      { id: 'W-1', name: 'Wall', typeName: 'Exterior 300', materialName: 'Beton', materialId: material, classificationLookup: ['21.22'], floor: '00', volume: 3.6, area: 12, length: 4, width: 0.3, height: 3, weight: null, phaseLookup: ['New'], elementClass: 'IfcWall' },
      // Amount 2: volume, length and weight count both pieces; an empty phase is the sheet's name.
      { id: 'B-1', name: 'Beam', materialName: 'Steel', materialId: null, volume: 0.1, length: 10, weight: 780, phaseLookup: [importTemplateSheets(language)[0]?.name], elementClass: null },
    ]);
  });

  it('is committed as docs/import-template.xlsx as `npm run import-template` makes it (English)', async () => {
    const committed = new ExcelJS.Workbook();
    await committed.xlsx.readFile(COMMITTED);
    expect(sheetsOf(committed)).toEqual(importTemplateSheets('en'));
    const other = new ExcelJS.Workbook();
    fillImportTemplate(other, 'nl');
    expect(sheetsOf(other)).not.toEqual(importTemplateSheets('en'));
  });
});
