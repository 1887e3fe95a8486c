/**
 * The import template: a workbook whose first sheet holds the header row of a spreadsheet source file in one language,
 * ready to be filled in, and whose second sheet explains each column with its accepted header names in all six
 * languages (shared/sheet-columns.ts). The app saves it in the user's language; `npm run import-template` writes the
 * English one to docs/import-template.xlsx.
 *
 * The explanation sheet is read by the importer too, as every sheet is: none of its rows may read as a header row with
 * an Id column, so the Id names are listed together in one cell (every language has two) and never alone.
 */
import type { Workbook } from 'exceljs';
import { SHEET_COLUMNS, SHEET_LANGUAGE_NAMES, SHEET_LANGUAGES, sheetHeader, type SheetLanguage } from './sheet-columns';

/** The words of the template in one language. */
interface TemplateWords {
  elements: string;
  columns: string;
  intro: string;
  column: string;
  explanation: string;
  unit: string;
}

const WORDS: Record<SheetLanguage, TemplateWords> = {
  nl: {
    elements: 'Elementen',
    columns: 'Kolommen',
    intro:
      'Eén rij per element op het werkblad “Elementen”, onder de kopregel. De kopregel mag in elk van de talen hieronder staan, de kolommen in elke volgorde; kolommen met andere koppen worden overgeslagen. Elk werkblad met zo’n kopregel wordt gelezen: de naam ervan is de fase van de rijen, tenzij de kolom Fase er een geeft.',
    column: 'Kolom',
    explanation: 'Toelichting',
    unit: 'Eenheid',
  },
  en: {
    elements: 'Elements',
    columns: 'Columns',
    intro:
      'One row per element on the sheet “Elements”, below its header row. The header row may be written in any of the languages below, its columns in any order; columns with other headers are ignored. Every sheet with such a header row is read: its name is the phase of its rows unless the Phase column gives one.',
    column: 'Column',
    explanation: 'Explanation',
    unit: 'Unit',
  },
  de: {
    elements: 'Elemente',
    columns: 'Spalten',
    intro:
      'Eine Zeile je Element im Tabellenblatt „Elemente“, unter der Kopfzeile. Die Kopfzeile darf in jeder der Sprachen unten stehen, die Spalten in jeder Reihenfolge; Spalten mit anderen Überschriften werden übergangen. Jedes Tabellenblatt mit einer solchen Kopfzeile wird gelesen: sein Name ist die Phase seiner Zeilen, außer die Spalte Phase nennt eine.',
    column: 'Spalte',
    explanation: 'Erläuterung',
    unit: 'Einheit',
  },
  fr: {
    elements: 'Éléments',
    columns: 'Colonnes',
    intro:
      'Une ligne par élément dans la feuille « Éléments », sous la ligne d’en-tête. L’en-tête peut être écrit dans chacune des langues ci-dessous, ses colonnes dans n’importe quel ordre ; les colonnes d’autres en-têtes sont ignorées. Chaque feuille qui a un tel en-tête est lue : son nom est la phase de ses lignes, sauf si la colonne Phase en donne une.',
    column: 'Colonne',
    explanation: 'Explication',
    unit: 'Unité',
  },
  it: {
    elements: 'Elementi',
    columns: 'Colonne',
    intro:
      'Una riga per elemento nel foglio «Elementi», sotto la riga d’intestazione. L’intestazione può essere scritta in ciascuna delle lingue qui sotto, le colonne in qualsiasi ordine; le colonne con altre intestazioni sono ignorate. Ogni foglio con una tale intestazione viene letto: il suo nome è la fase delle sue righe, salvo che la colonna Fase ne indichi una.',
    column: 'Colonna',
    explanation: 'Spiegazione',
    unit: 'Unità',
  },
  es: {
    elements: 'Elementos',
    columns: 'Columnas',
    intro:
      'Una fila por elemento en la hoja «Elementos», debajo de la fila de encabezado. El encabezado puede escribirse en cualquiera de los idiomas de abajo, sus columnas en cualquier orden; las columnas con otros encabezados se ignoran. Se lee cada hoja con tal encabezado: su nombre es la fase de sus filas, salvo que la columna Fase indique una.',
    column: 'Columna',
    explanation: 'Explicación',
    unit: 'Unidad',
  },
};

/** A sheet of the template: its name and its rows of text (null: an empty cell). */
export interface TemplateSheet {
  name: string;
  rows: (string | null)[][];
}

/** The letter of the n-th column (0-based) of a sheet; the template has fewer than 26. */
function columnLetter(index: number): string {
  return String.fromCharCode(0x41 + index);
}

/** The template's sheets in a language: the header row to fill in, and the explanation of each column. */
export function importTemplateSheets(language: SheetLanguage): TemplateSheet[] {
  const words = WORDS[language];
  const header = SHEET_COLUMNS.map((column) => sheetHeader(column.field, language));
  const explanation = SHEET_COLUMNS.map((column, index) => [
    columnLetter(index),
    column.explanation[language],
    column.unit,
    ...SHEET_LANGUAGES.map((each) => column.headers[each].join(', ')),
  ]);
  return [
    { name: words.elements, rows: [header] },
    {
      name: words.columns,
      rows: [[words.intro], [], [words.column, words.explanation, words.unit, ...SHEET_LANGUAGES.map((each) => SHEET_LANGUAGE_NAMES[each])], ...explanation],
    },
  ];
}

/** Adds the template's sheets in a language to an (empty) exceljs workbook, with bold headers and readable widths. */
export function fillImportTemplate(workbook: Workbook, language: SheetLanguage): void {
  const [elements, columns] = importTemplateSheets(language);
  if (elements === undefined || columns === undefined) throw new Error('The import template has two sheets.');

  const sheet = workbook.addWorksheet(elements.name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRows(elements.rows);
  sheet.getRow(1).font = { bold: true };
  (elements.rows[0] ?? []).forEach((header, index) => {
    sheet.getColumn(index + 1).width = Math.max(12, (header?.length ?? 0) + 4);
  });

  const explained = workbook.addWorksheet(columns.name, { views: [{ state: 'frozen', ySplit: 3 }] });
  explained.addRows(columns.rows);
  explained.getRow(3).font = { bold: true };
  const widths = [8, 60, 8, ...SHEET_LANGUAGES.map(() => 30)];
  widths.forEach((width, index) => {
    explained.getColumn(index + 1).width = width;
  });
  explained.getColumn(2).alignment = { wrapText: true, vertical: 'top' };
}

/** The sheets of a workbook as text, as {@link importTemplateSheets} gives them: to check a saved template against them. */
export function sheetsOf(workbook: Workbook): TemplateSheet[] {
  return workbook.worksheets.map((worksheet) => {
    const rows: (string | null)[][] = [];
    worksheet.eachRow({ includeEmpty: true }, (row, number) => {
      // exceljs rows are 1-based and sparse: position 0 is unused, and an empty cell is a hole.
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      rows[number - 1] = Array.from(values, (value) => (value === null || value === undefined ? null : String(value)));
    });
    return { name: worksheet.name, rows: Array.from(rows, (row) => row ?? []) };
  });
}
