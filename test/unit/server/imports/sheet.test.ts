/**
 * Spreadsheet import (decisions §11): the spreadsheet fixtures (test/fixtures/sheets) give exactly the results their README
 * expects; CSV dialects, header languages, row rules, files that are no sheet, the sink's batches, and bounded memory on
 * a large file.
 */
import { createWriteStream, watch } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportTooLargeError, UnknownImportFileError, type ImportedElement, type ImportOutcome, type ImportSink } from '../../../../server/imports/imported-element';
import { importSheet, importSheetInWorker } from '../../../../server/imports/sheet';
import { parseDecimal } from '../../../../server/imports/sheet/columns';
import { CsvParser } from '../../../../server/imports/sheet/csv';
import type { WorkbookLimits } from '../../../../server/imports/workbook-limits';
import { ifcFixture, sheetFixture } from '../../../fixtures/files';
import { BOMB_ROW, BOMB_TEXT, writeWorkbookBomb, writeZip } from '../../../fixtures/zip-bomb';


interface Collected {
  outcome: ImportOutcome;
  elements: ImportedElement[];
  batches: number[];
  progress: [number, number][];
}

async function run(filePath: string, fileName = path.basename(filePath)): Promise<Collected> {
  const elements: ImportedElement[] = [];
  const batches: number[] = [];
  const progress: [number, number][] = [];
  const outcome = await importSheet(filePath, fileName, {
    elements: async (batch) => {
      batches.push(batch.length);
      elements.push(...batch);
    },
    progress: (processed, total) => {
      progress.push([processed, total]);
    },
  });
  return { outcome, elements, batches, progress };
}

function byId(elements: readonly ImportedElement[], id: string): ImportedElement {
  const element = elements.find((e) => e.id === id);
  if (element === undefined) throw new Error(`no element ${id}`);
  return element;
}

function countByPhase(elements: readonly ImportedElement[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const element of elements) {
    const phase = element.phaseLookup.join('|');
    counts[phase] = (counts[phase] ?? 0) + 1;
  }
  return counts;
}

/** An element with every field null/empty, to spell out only what a test is about. */
function element(fields: Partial<ImportedElement> & { id: string }): ImportedElement {
  return {
    name: null,
    materialName: null,
    typeName: null,
    elementClass: null,
    volume: null,
    area: null,
    height: null,
    width: null,
    length: null,
    weight: null,
    phaseLookup: [],
    classificationLookup: [],
    floor: null,
    classificationHints: [],
    materialHints: [],
    // A row's volume or weight comes from the sheet itself.
    quantitySource: (fields.volume ?? 0) > 0 || (fields.weight ?? 0) > 0 ? 'model' : null,
    geometryIssue: null,
    materialId: null,
    // A spreadsheet's rows are never parts of a split element.
    part: null,
    ...fields,
  };
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sheet-import-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function temp(name: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

type SheetRows = (string | number | null | ExcelJS.CellValue)[][];

async function workbook(name: string, sheets: Record<string, SheetRows>): Promise<string> {
  const book = new ExcelJS.Workbook();
  for (const [sheetName, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(sheetName);
    for (const row of rows) sheet.addRow(row);
  }
  const file = path.join(dir, name);
  await book.xlsx.writeFile(file);
  return file;
}

describe('the spreadsheet fixtures', () => {
  it('office-en.xlsx: 80 elements, phases from the sheet names New (40), Existing (25), Demolition (15)', async () => {
    const { outcome, elements } = await run(sheetFixture('office-en.xlsx'));
    expect(outcome).toEqual({ imported: 80, rejected: [] });
    expect(elements).toHaveLength(80);
    expect(new Set(elements.map((e) => e.id)).size).toBe(80);
    expect(countByPhase(elements)).toEqual({ New: 40, Existing: 25, Demolition: 15 });
    expect(byId(elements, 'N-001')).toEqual(
      element({
        id: 'N-001',
        name: 'Wall 1',
        typeName: 'External wall 300 mm',
        materialName: 'Brick',
        classificationLookup: ['21.12'],
        floor: 'Ground floor',
        volume: 6.034,
        area: 20.11,
        length: 6.66,
        width: 0.3,
        height: 3.02,
        phaseLookup: ['New'],
      }),
    );
    expect(byId(elements, 'N-005').weight).toBe(211);
    // Amount 1: the window's area stays as given.
    expect(byId(elements, 'N-007')).toMatchObject({ area: 1.8, volume: null, length: null, materialName: 'Wood' });
    expect(byId(elements, 'N-008').area).toBe(29.400000000000002);
    expect(elements.filter((e) => e.phaseLookup[0] === 'Existing').every((e) => e.classificationLookup.length === 1)).toBe(true);
  });

  it('woning-nl.xlsx: Dutch headers, 32 elements over Nieuw (20) and Bestaand (12)', async () => {
    const { outcome, elements } = await run(sheetFixture('woning-nl.xlsx'));
    expect(outcome).toEqual({ imported: 32, rejected: [] });
    expect(countByPhase(elements)).toEqual({ Nieuw: 20, Bestaand: 12 });
    expect(byId(elements, 'NW-001')).toEqual(
      element({
        id: 'NW-001',
        name: 'Wall 1',
        typeName: 'External wall 300 mm',
        materialName: 'Brick',
        classificationLookup: ['21.12'],
        floor: 'Begane grond',
        volume: 6.879,
        area: 22.93,
        length: 8.16,
        width: 0.3,
        height: 2.81,
        phaseLookup: ['Nieuw'],
      }),
    );
    expect(byId(elements, 'NW-005').weight).toBe(793.8);
    expect(byId(elements, 'BS-012')).toMatchObject({ volume: 4.596, floor: 'Dak', phaseLookup: ['Bestaand'] });
    expect(byId(elements, 'NW-020')).toMatchObject({ length: 2.29, weight: 2.7, volume: null, area: null });
  });

  it('elements-en.csv: comma-separated, decimal points, a Phase column, 15 elements', async () => {
    const { outcome, elements } = await run(sheetFixture('elements-en.csv'));
    expect(outcome).toEqual({ imported: 15, rejected: [] });
    expect(elements.map((e) => e.id)).toEqual(Array.from({ length: 15 }, (_, i) => `P-${String(i + 1).padStart(3, '0')}`));
    expect(countByPhase(elements)).toEqual({ New: 15 });
    expect(byId(elements, 'P-004')).toEqual(
      element({
        id: 'P-004',
        name: 'Floor 4',
        typeName: 'Hollow-core slab 260 mm',
        materialName: 'Concrete, prefabricated',
        classificationLookup: ['23.22'],
        floor: 'Roof',
        volume: 11.107,
        area: 1.85,
        length: 7.12,
        width: 6,
        height: 0.26,
        phaseLookup: ['New'],
      }),
    );
    expect(byId(elements, 'P-005').weight).toBe(204.9);
    expect(byId(elements, 'P-009').area).toBe(44.339999999999996);
    expect(byId(elements, 'P-010')).toMatchObject({ length: 3.61, weight: 4.3, volume: null });
  });

  it('elements-nl.csv: ";" separators, decimal commas, CRLF, a Fase column, 20 elements', async () => {
    const { outcome, elements } = await run(sheetFixture('elements-nl.csv'));
    expect(outcome).toEqual({ imported: 20, rejected: [] });
    expect(countByPhase(elements)).toEqual({ Sloop: 7, Nieuw: 13 });
    expect(byId(elements, 'C-001')).toEqual(
      element({
        id: 'C-001',
        name: 'Wall 1',
        typeName: 'External wall 300 mm',
        materialName: 'Brick',
        classificationLookup: ['21.12'],
        floor: 'Begane grond',
        volume: 7.314,
        area: 24.38,
        length: 9.03,
        width: 0.3,
        height: 2.7,
        phaseLookup: ['Sloop'],
      }),
    );
    // Unquoted commas inside a ';' file are text; the classification code keeps its point.
    expect(byId(elements, 'C-004')).toMatchObject({ materialName: 'Concrete, prefabricated', classificationLookup: ['23.22'] });
    expect(byId(elements, 'C-005').weight).toBe(586.3);
    expect(byId(elements, 'C-018').area).toBe(30.900000000000002);
    expect(byId(elements, 'C-020')).toMatchObject({ length: 9.8, weight: 11.8, floor: '1e verdieping', phaseLookup: ['Nieuw'] });
  });

  it('bad-rows.xlsx: 8 elements; rows 4, 6, 8 and 12 rejected and named; the unknown code imported as is', async () => {
    const { outcome, elements } = await run(sheetFixture('bad-rows.xlsx'));
    expect(outcome.imported).toBe(8);
    expect(elements.map((e) => e.id)).toEqual(['X-001', 'X-002', 'X-004', 'X-006', 'X-008', 'X-009', 'X-010', 'X-012']);
    expect(outcome.rejected).toEqual([
      'sheet New row 4: negative volume',
      'sheet New row 6: area "twelve" is not a number',
      'sheet New row 8: no id',
      'sheet New row 12: duplicate id X-010 (first in row 11)',
    ]);
    // Refinement leaves it unclassified: the importer passes the code on unchanged.
    expect(byId(elements, 'X-009').classificationLookup).toEqual(['99.99']);
    // The first X-010 (row 11) is the one kept.
    expect(byId(elements, 'X-010')).toMatchObject({ name: 'Pipe 10', length: 5.36, weight: 6.4 });
  });
});

describe('CSV dialects', () => {
  it('";" with decimal commas, a byte order mark and CRLF', async () => {
    const file = await temp(
      'bom.csv',
      '\uFEFFId;Name;Volume;Area;Weight\r\nA-1;Wand;1,5;0,25;1200\r\nA-2;Vloer;,5;12;3,0\r\n',
    );
    const { outcome, elements } = await run(file);
    expect(outcome).toEqual({ imported: 2, rejected: [] });
    expect(elements[0]).toEqual(element({ id: 'A-1', name: 'Wand', volume: 1.5, area: 0.25, weight: 1200, phaseLookup: ['bom'] }));
    expect(elements[1]).toMatchObject({ id: 'A-2', volume: 0.5, area: 12, weight: 3 });
  });

  it('quoted fields with separators, line breaks and doubled quotes; row numbers count records, not lines', async () => {
    const csv = [
      'Id,Name,Description,Material/Product,Volume',
      '"Q-1","Wall, north","Line one',
      'line two",Brick,"1,5"',
      'Q-2,"Pipe 2"" DN50","say ""hi""",Copper,2',
      'Q-3,Bad,,,-1',
      'Q-4,5" pipe,plain,Steel,"3.25"',
    ].join('\n');
    const { outcome, elements } = await run(await temp('quoted.csv', csv));
    expect(outcome.rejected).toEqual(['sheet quoted row 4: negative volume']);
    expect(elements).toEqual([
      element({ id: 'Q-1', name: 'Wall, north', typeName: 'Line one\nline two', materialName: 'Brick', volume: 1.5, phaseLookup: ['quoted'] }),
      element({ id: 'Q-2', name: 'Pipe 2" DN50', typeName: 'say "hi"', materialName: 'Copper', volume: 2, phaseLookup: ['quoted'] }),
      element({ id: 'Q-4', name: '5" pipe', typeName: 'plain', materialName: 'Steel', volume: 3.25, phaseLookup: ['quoted'] }),
    ]);
  });

  it('";" quoted fields hold ";" and line breaks (CRLF inside quotes)', async () => {
    const csv = 'Merk;Naam;Volume\r\n"M-1";"a;b\r\nc";"1.234,5"\r\nM-2;"";7\r\n';
    const { outcome, elements } = await run(await temp('semi-quoted.csv', csv));
    expect(outcome).toEqual({ imported: 2, rejected: [] });
    expect(elements[0]).toMatchObject({ id: 'M-1', name: 'a;b\r\nc', volume: 1234.5 });
    expect(elements[1]).toMatchObject({ id: 'M-2', name: null, volume: 7 });
  });

  it('an Excel "sep=" line sets the separator and is not counted as a row', async () => {
    const csv = 'sep=;\nId;Volume\nS-1;2,5\nS-2;x\n';
    const { outcome, elements } = await run(await temp('sep-line.csv', csv));
    expect(elements.map((e) => [e.id, e.volume])).toEqual([['S-1', 2.5]]);
    expect(outcome.rejected).toEqual(['sheet sep-line row 3: volume "x" is not a number']);
  });

  it('tab-separated text, blank lines (skipped but counted) and no final line break', async () => {
    const csv = 'Id\tLength\n\nT-1\t3\n\n\nT-2\t-2';
    const { outcome, elements } = await run(await temp('tabs.txt', csv));
    expect(elements.map((e) => [e.id, e.length])).toEqual([['T-1', 3]]);
    expect(outcome.rejected).toEqual(['sheet tabs row 6: negative length']);
  });

  it('Windows-1252 text (CSV as older Excel saves it) is read as such', async () => {
    const csv = 'Id;Fläche;Höhe;Geschoss\r\nW-1;2,5;3;Erdgeschoß\r\n';
    const { outcome, elements } = await run(await temp('ansi.csv', Buffer.from(csv, 'latin1')));
    expect(outcome).toEqual({ imported: 1, rejected: [] });
    expect(elements[0]).toMatchObject({ id: 'W-1', area: 2.5, height: 3, floor: 'Erdgeschoß' });
  });

  it('text guarded against formulas with an apostrophe is read without it; other apostrophes stay', async () => {
    const csv = ['Id,Name,Floor,Description', `"'=HYPERLINK(""x"")",'+31 wall,'-1,'@home`, "G-2,'Quoted',' -2,'Plain"].join('\n');
    const { outcome, elements } = await run(await temp('guarded.csv', csv));
    expect(outcome.rejected).toEqual([]);
    expect(elements.map(({ id, name, floor, typeName }) => [id, name, floor, typeName])).toEqual([
      ['=HYPERLINK("x")', '+31 wall', "'-1", '@home'],
      ['G-2', "'Quoted'", "' -2", "'Plain"],
    ]);
  });

  it('a title line above the header row is skipped; row numbers stay those of the file', async () => {
    const csv = 'Element list house 12;;\n;;\nId;Name;Area\nH-1;Roof;-3\nH-2;Wall;4\n';
    const { outcome, elements } = await run(await temp('title.csv', csv));
    expect(elements.map((e) => e.id)).toEqual(['H-2']);
    expect(outcome.rejected).toEqual(['sheet title row 4: negative area']);
  });

  it('the CSV parser gives the same records whatever the chunks (CR, LF, CRLF, quotes split anywhere)', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', ';', '"', '\n', '\r', 'é'), maxLength: 6 });
    const record = fc.array(field, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(',', ';'),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat({ max: 7 }), { maxLength: 40 }),
        (records, separator, lineBreak, cuts) => {
          // A record of one empty field would be a blank line; quote every field so it stays a record.
          const text = records.map((r) => r.map((f) => `"${f.replaceAll('"', '""')}"`).join(separator)).join(lineBreak);
          const parser = new CsvParser(separator);
          const parsed: string[][] = [];
          let position = 0;
          for (const cut of cuts) {
            parsed.push(...parser.push(text.slice(position, position + cut)));
            position += cut;
          }
          parsed.push(...parser.push(text.slice(position)));
          parsed.push(...parser.end());
          expect(parsed).toEqual(records);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('numbers with a decimal point or comma, and thousands grouped by the other', () => {
    expect(parseDecimal('7,314')).toBe(7.314);
    expect(parseDecimal('7.314')).toBe(7.314);
    expect(parseDecimal(' 12 ')).toBe(12);
    expect(parseDecimal(',5')).toBe(0.5);
    expect(parseDecimal('-4')).toBe(-4);
    expect(parseDecimal('1.5E3')).toBe(1500);
    expect(parseDecimal('1.234,5')).toBe(1234.5);
    expect(parseDecimal('1,234.5')).toBe(1234.5);
    expect(parseDecimal('1.234.567')).toBe(1234567);
    for (const bad of ['twelve', '', '1.2.3', '12 m3', '1,2,3', '--1', 'NaN', 'Infinity', '0x10']) {
      expect(parseDecimal(bad), bad).toBeNaN();
    }
  });
});

describe('headers in the six languages of the app', () => {
  const MATERIAL = '0b6c2f9e-4a43-4c1e-9a55-3f0d2b1c7e01';
  const rows = ['R-1', 'Wall', 'External wall', 'Brick', MATERIAL, '21.12', 'Ground', '1,5', '5', '4', '0,3', '2,5', '2700', '', 'New', 'IfcWall'];
  const expected = {
    name: 'Wall',
    typeName: 'External wall',
    materialName: 'Brick',
    materialId: MATERIAL,
    classificationLookup: ['21.12'],
    floor: 'Ground',
    volume: 1.5,
    area: 5,
    length: 4,
    width: 0.3,
    height: 2.5,
    weight: 2700,
    phaseLookup: ['New'],
    elementClass: 'IfcWall',
  };
  const headers: Record<string, string[]> = {
    en: ['Id', 'Name', 'Description', 'Material/Product', 'Material/Product id', 'Classification code', 'Floor', 'Volume', 'Area', 'Length', 'Width', 'Height', 'Weight', 'Amount', 'Phase', 'IFC class'],
    nl: ['Merk', 'Naam', 'Omschrijving', 'Materiaal/Product', 'Materiaal/Product-id', 'Classificatiecode', 'Verdieping', 'Volume', 'Oppervlakte', 'Lengte', 'Breedte', 'Hoogte', 'Gewicht', 'Aantal', 'Fase', 'IFC-klasse'],
    de: ['Kennung', 'Bezeichnung', 'Beschreibung', 'Material/Produkt', 'Material/Produkt-ID', 'Klassifikationscode', 'Geschoss', 'Volumen', 'Fläche', 'Länge', 'Breite', 'Höhe', 'Gewicht', 'Anzahl', 'Phase', 'IFC-Klasse'],
    fr: ['Identifiant', 'Nom', 'Description', 'Matériau/Produit', 'Id matériau/produit', 'Code de classification', 'Étage', 'Volume', 'Surface', 'Longueur', 'Largeur', 'Hauteur', 'Poids', 'Quantité', 'Phase', 'Classe IFC'],
    it: ['Identificativo', 'Nome', 'Descrizione', 'Materiale/Prodotto', 'Id materiale/prodotto', 'Codice di classificazione', 'Piano', 'Volume', 'Superficie', 'Lunghezza', 'Larghezza', 'Altezza', 'Peso', 'Quantità', 'Fase', 'Classe IFC'],
    es: ['Identificador', 'Nombre', 'Descripción', 'Material/Producto', 'Id material/producto', 'Código de clasificación', 'Planta', 'Volumen', 'Superficie', 'Longitud', 'Anchura', 'Altura', 'Peso', 'Cantidad', 'Fase', 'Clase IFC'],
    'en, any case and spacing': ['  MARK ', 'name', 'DESCRIPTION', 'material/product', 'MATERIAL/PRODUCT  ID', 'Classification\u00a0  Code', 'FLOOR', 'VOLUME', 'area', 'LENGTH', 'Width', 'height', 'WeIgHt', 'AMOUNT', 'phase', 'ifc CLASS'],
    'de, decomposed umlauts': ['ID', 'NAME', 'Omschrijving', 'Product', 'produkt-id', 'classificatiecode', 'GESCHOSS', 'Volume', 'Fla\u0308che', 'La\u0308nge', 'BREITE', 'Ho\u0308he', 'gewicht', 'anzahl', 'FASE', 'ifc-klasse'],
    'fr and es, decomposed accents, other names': ['ID', 'Nom', 'Nom du type', 'Produit', 'Id produit', 'Co\u0301digo de clasificacio\u0301n', 'E\u0301tage', 'Volumen', 'A\u0301rea', 'Longitud', 'Ancho', 'Alto', 'Masse', 'Cantidad', 'Phase', 'Clase IFC'],
  };
  for (const [language, names] of Object.entries(headers)) {
    it(language, async () => {
      const file = await temp(`headers-${language.replaceAll(/\W+/gu, '-')}.csv`, `${names.join(';')}\n${rows.join(';')}\n`);
      const { outcome, elements } = await run(file);
      expect(outcome).toEqual({ imported: 1, rejected: [] });
      expect(elements[0]).toEqual(element({ id: 'R-1', ...expected }));
    });
  }

  it('the material or product id is read as given, blank as none; the IFC class as given', async () => {
    const csv = ['Id,Material/Product id,IFC class', `M-1,${MATERIAL},IfcSlab`, 'M-2,  ,', 'M-3,not an id,IfcWallStandardCase'].join('\n');
    const { outcome, elements } = await run(await temp('material-ids.csv', csv));
    expect(outcome.rejected).toEqual([]);
    expect(elements.map(({ id, materialId, elementClass }) => ({ id, materialId, elementClass }))).toEqual([
      { id: 'M-1', materialId: MATERIAL, elementClass: 'IfcSlab' },
      { id: 'M-2', materialId: null, elementClass: null },
      // Refinement decides: an id that names nothing readable maps nothing.
      { id: 'M-3', materialId: 'not an id', elementClass: 'IfcWallStandardCase' },
    ]);
  });

  it('the export’s "Mapped to" column is not read, in any language', async () => {
    const csv = ['Id,Mapped to,Gekoppeld aan,Zugeordnet zu,Associé à,Associato a,Asignado a', 'X-1,Concrete,Beton,Beton,Béton,Calcestruzzo,Hormigón'].join('\n');
    const { elements } = await run(await temp('mapped-to.csv', csv));
    expect(elements).toEqual([element({ id: 'X-1', phaseLookup: ['mapped-to'] })]);
  });

  it('other columns (GTIN, Madaster Id, Volume (m3)) are not read; the first column of a field wins', async () => {
    const csv = 'GTIN,Madaster Id,Id,Volume (m3),Name,Name\n8712345678906,abc,G-1,99,First,Second\n';
    const { elements } = await run(await temp('other-columns.csv', csv));
    expect(elements).toEqual([element({ id: 'G-1', name: 'First', phaseLookup: ['other-columns'] })]);
  });
});

describe('rows', () => {
  it('Amount counts identical pieces: volume, area, length and weight are multiplied, width and height are not', async () => {
    const csv = [
      'Id;Volume;Area;Length;Width;Height;Weight;Aantal',
      'A-1;0,5;2;3;0,1;2;10;4',
      'A-2;;1,8;;;;;',
      'A-3;;;;;;;2,5',
      'A-4;1;;;;;;0',
    ].join('\n');
    const { outcome, elements } = await run(await temp('amount.csv', csv));
    expect(outcome.rejected).toEqual([]);
    expect(elements.map(({ id, volume, area, length, width, height, weight }) => ({ id, volume, area, length, width, height, weight }))).toEqual([
      { id: 'A-1', volume: 2, area: 8, length: 12, width: 0.1, height: 2, weight: 40 },
      { id: 'A-2', volume: null, area: 1.8, length: null, width: null, height: null, weight: null },
      { id: 'A-3', volume: null, area: null, length: null, width: null, height: null, weight: null },
      { id: 'A-4', volume: 0, area: null, length: null, width: null, height: null, weight: null },
    ]);
  });

  it('every problem of a row is named; empty rows are skipped; a rejected id may come again', async () => {
    const csv = [
      'Id,Name,Volume,Width,Amount,GTIN',
      ',,,,,8712345678906',
      ',Orphan,1,,,',
      'B-1,Bad,-1,wide,-2,',
      'B-1,Good,1,,,',
      '  ,  ,  ,  ,  ,',
      'B-1,Again,1,,,',
      'B-2,Amount,,,many,',
    ].join('\n');
    const { outcome, elements } = await run(await temp('problems.csv', csv));
    expect(elements.map((e) => [e.id, e.name])).toEqual([['B-1', 'Good']]);
    expect(outcome.rejected).toEqual([
      'sheet problems row 3: no id',
      'sheet problems row 4: negative volume, width "wide" is not a number, negative amount',
      'sheet problems row 7: duplicate id B-1 (first in row 5)',
      'sheet problems row 8: amount "many" is not a number',
    ]);
  });

  it('xlsx: one phase per sheet, a Phase column overriding it, ids unique over the workbook, sheets without Id ignored', async () => {
    const file = await workbook('phases.xlsx', {
      'Quick start': [['Fill in one sheet per phase; the element id goes in the Id column.']],
      Demolition: [
        ['Madaster element list'],
        [],
        ['Id', 'Name', 'Phase', 'Classification code', 'Volume', 'Floor'],
        ['D-1', 'Old wall', null, 21.1, 3, 0],
        ['D-2', 'Old roof', 'Preserved', '27.11', { formula: '1+1', result: 2 }, { richText: [{ text: 'Roof ' }, { text: 'level' }] }],
        [101, { formula: 'A1', result: 'x' }, null, null, { formula: '1/0', result: { error: '#DIV/0!' } }],
      ],
      New: [
        ['Id', 'Volume'],
        ['D-1', 1],
        ['N-1', true],
      ],
      Classifications: [['Code', 'Name'], ['21.1', 'Walls']],
    });
    const { outcome, elements } = await run(file);
    expect(elements).toEqual([
      element({ id: 'D-1', name: 'Old wall', volume: 3, floor: '0', classificationLookup: ['21.1'], phaseLookup: ['Demolition'] }),
      element({ id: 'D-2', name: 'Old roof', volume: 2, floor: 'Roof level', classificationLookup: ['27.11'], phaseLookup: ['Preserved'] }),
    ]);
    expect(outcome.rejected).toEqual([
      'sheet Demolition row 6: volume "=1/0" has no computed value',
      'sheet New row 2: duplicate id D-1 (first in sheet Demolition row 4)',
      'sheet New row 3: volume "TRUE" is not a number',
    ]);
  });

  it('xlsx: every sheet of a workbook of many sheets is read, also those after the zip reader reached its end', async () => {
    const sheets: Record<string, SheetRows> = {};
    for (let sheet = 1; sheet <= 30; sheet += 1) sheets[`Phase ${sheet}`] = [['Id', 'Name'], [`E-${sheet}`, `Element ${sheet}`]];
    const { outcome, elements } = await run(await workbook('many-sheets.xlsx', sheets));
    expect(outcome).toEqual({ imported: 30, rejected: [] });
    expect(elements.map((e) => e.phaseLookup[0])).toEqual(Object.keys(sheets));
  });

  it('a CSV is one sheet named after the file; without a Phase column that name is the phase lookup', async () => {
    const { elements } = await run(await temp('x.csv', 'Id,Name\nK-1,k\n'), 'Nieuw.csv');
    expect(elements).toEqual([element({ id: 'K-1', name: 'k', phaseLookup: ['Nieuw'] })]);
  });
});

describe('files that are no sheet', () => {
  async function expectUnknown(file: string, message: RegExp, fileName = path.basename(file)): Promise<void> {
    const error: unknown = await importSheet(file, fileName, { elements: async () => {}, progress: () => {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnknownImportFileError);
    expect((error as Error).message).toMatch(message);
  }

  function randomBytes(count: number, seed: number): Uint8Array {
    const bytes = new Uint8Array(count);
    let state = seed;
    for (let i = 0; i < count; i += 1) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      bytes[i] = state >> 16;
    }
    bytes[0] = 0x7f;
    return bytes;
  }

  it('random bytes', async () => {
    await expectUnknown(await temp('noise.csv', randomBytes(4096, 7)), /noise\.csv is not a spreadsheet/u);
  });

  it('an empty file', async () => {
    await expectUnknown(await temp('empty.xlsx', ''), /empty\.xlsx is empty/u);
  });

  it('a PDF', async () => {
    const document = new PDFDocument();
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.text('Element list');
    document.end();
    await once(document, 'end');
    await expectUnknown(await temp('list.pdf', Buffer.concat(chunks)), /list\.pdf is a PDF document/u);
  });

  it('a zip that is no workbook, and a broken one', async () => {
    const docx = new ExcelJS.Workbook();
    docx.addWorksheet('Only');
    const valid = Buffer.from(await docx.xlsx.writeBuffer());
    // A zip with the workbook parts renamed away: readable, but no worksheet.
    await expectUnknown(await temp('renamed.xlsx', Buffer.from(valid.toString('latin1').replaceAll('xl/', 'zz/'), 'latin1')), /no sheet with an Id column/u);
    const truncated = Buffer.concat([valid.subarray(0, 30), Buffer.from(randomBytes(2000, 3))]);
    await expectUnknown(await temp('broken.xlsx', truncated), /broken\.xlsx is not a readable Excel workbook/u);
    const emptyZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
    await expectUnknown(await temp('empty-zip.xlsx', emptyZip), /empty-zip\.xlsx has no sheet with an Id column .*no sheets/u);
  });

  it('a workbook without an Id column, and text without one', async () => {
    const file = await workbook('no-id.xlsx', { Nieuw: [['Name', 'Volume'], ['Wall', 1]], Info: [['Read me']] });
    await expectUnknown(file, /no-id\.xlsx has no sheet with an Id column .*sheets: Nieuw, Info/u);
    await expectUnknown(await temp('notes.csv', 'Name;Volume\nWall;1\n'), /notes\.csv has no sheet with an Id column/u);
  });

  it('an IFC model, a legacy .xls, and text named .xlsx', async () => {
    await expectUnknown(ifcFixture('AC20-FZK-Haus.ifc'), /is an IFC model/u);
    await expectUnknown(await temp('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])), /legacy Excel/u);
    await expectUnknown(await temp('text.xlsx', 'Id,Name\n1,a\n'), /text\.xlsx is named like an Excel workbook/u);
  });

  it('an unclosed quote does not buffer the rest of the file', async () => {
    const file = await temp('unclosed.csv', `Id,Name\nU-1,"open\n${'x,'.repeat(700_000)}\n`);
    await expectUnknown(file, /unclosed\.csv, after row 1: .*quote is not closed/u);
  });
});

describe('workbooks past the limits', () => {
  const ignore: ImportSink = { elements: async () => undefined, progress: () => undefined };
  const roomy: WorkbookLimits = { totalBytes: 1024 ** 3, sharedStringsBytes: 1024 ** 3, partBytes: 1024 ** 3 };

  it('are refused before they are read when the zip declares too much: in all, in texts, in another part', async () => {
    const file = sheetFixture('office-en.xlsx');
    const refused = (limits: Partial<WorkbookLimits>): Promise<unknown> => importSheet(file, 'office-en.xlsx', ignore, { ...roomy, ...limits }).catch((error: unknown) => error);
    const total = await refused({ totalBytes: 10_000 });
    expect(total).toBeInstanceOf(ImportTooLargeError);
    expect((total as Error).message).toMatch(/^office-en\.xlsx holds more than 10 KB uncompressed, the limit for a workbook/u);
    expect(await refused({ sharedStringsBytes: 100 })).toHaveProperty('message', expect.stringMatching(/office-en\.xlsx holds more than 1 KB of texts \(xl\/sharedStrings\.xml/u));
    expect(await refused({ partBytes: 100 })).toHaveProperty('message', expect.stringMatching(/its part xl\/(workbook\.xml|_rels\/workbook\.xml\.rels) holds more than 1 KB uncompressed/u));
    await expect(importSheet(file, 'office-en.xlsx', ignore)).resolves.toMatchObject({ imported: expect.any(Number) });
  });

  it('stops a worksheet whose zip directory lies at the limit in all, counted as it is inflated', async () => {
    const file = path.join(dir, 'sheet-bomb.xlsx');
    // 200 MB of rows, declared as 200 bytes.
    const sizes = await writeWorkbookBomb(file, { sheet: { times: Math.floor((200 * 1024 ** 2) / BOMB_ROW.length), declaredSize: 200 } });
    expect(sizes.get('xl/worksheets/sheet1.xml')).toBeGreaterThan(200 * 1000 ** 2);
    const started = performance.now();
    const error = await importSheet(file, 'sheet-bomb.xlsx', ignore, { ...roomy, totalBytes: 4 * 1024 ** 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportTooLargeError);
    expect((error as Error).message).toBe('sheet-bomb.xlsx holds more than 4 MB uncompressed, the limit for a workbook; split it into smaller files.');
    // Reading the 200 MB would take many seconds; 4 MB takes a fraction of one.
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 60_000);

  it('stops shared strings whose zip directory lies at their own limit', async () => {
    const file = path.join(dir, 'texts-bomb.xlsx');
    await writeWorkbookBomb(file, { sharedStrings: { times: Math.floor((100 * 1024 ** 2) / BOMB_TEXT.length), declaredSize: 200 } });
    const error = await importSheet(file, 'texts-bomb.xlsx', ignore, { ...roomy, sharedStringsBytes: 2 * 1024 ** 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportTooLargeError);
    expect((error as Error).message).toBe(
      'texts-bomb.xlsx holds more than 2 MB of texts (xl/sharedStrings.xml, uncompressed), the limit for a workbook; split it into smaller files.',
    );
  }, 60_000);

  it('stops any other part whose zip directory lies at the limit of a part', async () => {
    const file = path.join(dir, 'book-bomb.xlsx');
    await writeZip(file, [
      { name: 'xl/workbook.xml', prefix: '<workbook><sheets>', repeat: '<sheet name="S" sheetId="1"/>', times: 1024 ** 2, suffix: '</sheets></workbook>', declaredSize: 100 },
      { name: 'xl/worksheets/sheet1.xml', prefix: '<worksheet><sheetData></sheetData></worksheet>' },
    ]);
    const error = await importSheet(file, 'book-bomb.xlsx', ignore, { ...roomy, partBytes: 1024 ** 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportTooLargeError);
    expect((error as Error).message).toBe('book-bomb.xlsx: its part xl/workbook.xml holds more than 1 MB uncompressed, the limit for a workbook\'s part.');
  }, 60_000);

  it('writes no temporary file, even for worksheets that come before the shared strings', async () => {
    const file = path.join(dir, 'sheet-first.xlsx');
    await writeWorkbookBomb(file, { sheet: { times: 50_000 } });
    const temp = await mkdtemp(path.join(tmpdir(), 'cd-sheet-temp-'));
    const created: string[] = [];
    const watcher = watch(temp, (_event, name) => created.push(String(name)));
    const systemTemp = process.env['TMPDIR'];
    process.env['TMPDIR'] = temp;
    try {
      await expect(importSheet(file, 'sheet-first.xlsx', ignore)).rejects.toThrow(/has no sheet with an Id column \(.*sheets: Elements\)/u);
    } finally {
      if (systemTemp === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = systemTemp;
      watcher.close();
    }
    expect(created).toEqual([]);
    await rm(temp, { recursive: true, force: true });
  }, 60_000);
});

describe('in a worker of its own', () => {
  it('imports as in the calling thread', async () => {
    for (const name of ['office-en.xlsx', 'elements-nl.csv', 'bad-rows.xlsx']) {
      const here = await run(sheetFixture(name));
      const elements: ImportedElement[] = [];
      const outcome = await importSheetInWorker(sheetFixture(name), name, { elements: async (batch) => void elements.push(...batch), progress: () => undefined });
      expect(outcome, name).toEqual(here.outcome);
      expect(elements, name).toEqual(here.elements);
    }
  }, 60_000);

  it('says a file is no spreadsheet the same way', async () => {
    await expect(importSheetInWorker(ifcFixture('AC20-FZK-Haus.ifc'), 'model.xlsx', { elements: async () => undefined, progress: () => undefined })).rejects.toBeInstanceOf(
      UnknownImportFileError,
    );
  }, 60_000);

  it('ends with ImportTooLargeError when a cell within the limits is made to fill the memory', async () => {
    const file = path.join(dir, 'long-cell.xlsx');
    // One text of 600 MB, under the 1 GiB a workbook may hold: the reader would keep it whole.
    await writeZip(file, [
      { name: 'xl/worksheets/sheet1.xml', prefix: '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>', repeat: 'x'.repeat(1024), times: 600 * 1024, suffix: '</t></is></c></row></sheetData></worksheet>' },
    ]);
    const error = await importSheetInWorker(file, 'long-cell.xlsx', { elements: async () => undefined, progress: () => undefined }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportTooLargeError);
    expect((error as Error).message).toMatch(/more memory than an import may use \(192 MB\)/u);
  }, 120_000);

  it('ends with ImportTooLargeError when the file needs more memory than the worker has, and the process lives on', async () => {
    const file = path.join(dir, 'many-ids.csv');
    const out = createWriteStream(file);
    out.write('Id,Name\n');
    // Every id is remembered (duplicates are rejected): half a million long ones outgrow a 32 MB heap.
    for (let i = 0; i < 500_000; i += 1) if (!out.write(`${'id-'.padEnd(80, 'x')}${i},n\n`)) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    const error = await importSheetInWorker(file, 'many-ids.csv', { elements: async () => undefined, progress: () => undefined }, { heapMb: 32 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportTooLargeError);
    expect((error as Error).message).toMatch(/more memory than an import may use \(32 MB\)/u);
  }, 120_000);
});

describe('the sink', () => {
  it('gets batches of 500, one at a time, and progress up to the total', async () => {
    const lines = ['Id,Volume', ...Array.from({ length: 1201 }, (_, i) => `E-${i},${i}`)];
    const file = await temp('batches.csv', lines.join('\n'));
    const batches: number[] = [];
    const progress: [number, number][] = [];
    let busy = false;
    const outcome = await importSheet(file, 'batches.csv', {
      elements: async (batch) => {
        expect(busy).toBe(false);
        busy = true;
        await new Promise((resolve) => setTimeout(resolve, 5));
        batches.push(batch.length);
        busy = false;
      },
      progress: (processed, total) => progress.push([processed, total]),
    });
    expect(outcome).toEqual({ imported: 1201, rejected: [] });
    expect(batches).toEqual([500, 500, 201]);
    expect(progress).toEqual([
      [500, 0],
      [1000, 0],
      [1201, 0],
      [1201, 1201],
    ]);
  });

  it("passes the sink's own error through unchanged (CSV and xlsx)", async () => {
    const failure = new Error('database is gone');
    const sink = {
      elements: async () => {
        throw failure;
      },
      progress: () => {},
    };
    await expect(importSheet(sheetFixture('elements-en.csv'), 'elements-en.csv', sink)).rejects.toBe(failure);
    await expect(importSheet(sheetFixture('office-en.xlsx'), 'office-en.xlsx', sink)).rejects.toBe(failure);
  });
});

describe('large files', () => {
  const MiB = 1024 * 1024;

  async function importCounting(file: string): Promise<{ outcome: ImportOutcome; growth: number; count: number }> {
    const before = process.memoryUsage().rss;
    let peak = before;
    let count = 0;
    const outcome = await importSheet(file, path.basename(file), {
      elements: async (batch) => {
        count += batch.length;
        peak = Math.max(peak, process.memoryUsage().rss);
      },
      progress: () => {},
    });
    return { outcome, growth: peak - before, count };
  }

  it('a CSV of 200,000 rows imports with bounded memory', { timeout: 120_000 }, async () => {
    const file = path.join(dir, 'large.csv');
    const out = createWriteStream(file);
    out.write('Merk;Naam;Omschrijving;Materiaal/Product;Classificatiecode;Verdieping;Volume;Oppervlakte;Gewicht;Fase\r\n');
    for (let i = 1; i <= 200_000; i += 1) {
      const line = `L-${i};"Wall ${i}";External wall 300 mm;Brick;21.12;Floor ${i % 7};${i % 13},5;${i % 11},25;;Nieuw\r\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const { outcome, growth, count } = await importCounting(file);
    expect(outcome).toEqual({ imported: 200_000, rejected: [] });
    expect(count).toBe(200_000);
    expect(growth).toBeLessThan(300 * MiB);
  });

  it('an xlsx of 50,000 rows streams through the reader', { timeout: 120_000 }, async () => {
    const file = path.join(dir, 'large.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
    const sheet = writer.addWorksheet('New');
    sheet.addRow(['Id', 'Name', 'Material/Product', 'Volume', 'Area']).commit();
    for (let i = 1; i <= 50_000; i += 1) sheet.addRow([`X-${i}`, `Wall ${i}`, 'Brick', i % 13, (i % 11) + 0.25]).commit();
    sheet.commit();
    await writer.commit();
    const { outcome, growth, count } = await importCounting(file);
    expect(outcome).toEqual({ imported: 50_000, rejected: [] });
    expect(count).toBe(50_000);
    expect(growth).toBeLessThan(300 * MiB);
  });
});
