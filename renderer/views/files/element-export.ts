/**
 * The grid's current view as a spreadsheet source file (XLSX or CSV) in the import template's columns
 * (shared/sheet-columns.ts), headed in the user's language: uploaded as a source file, an export gives the same
 * elements, mappings and figures. The Material/Product id column carries each element's mapping; the "Mapped to" column
 * beside it names the material or product for the reader, and the importer does not read it. The view's rows come in
 * its order, read from the cache a chunk at a time (a view of 100,000 rows never sits in memory as records).
 *
 * Quantities are rounded to 15 significant digits, what a double holds of a decimal, so a sum's binary tail
 * (0.023856000000000002) is written as the decimal it stands for (0.023856). In CSV they are written with a dot, as
 * numbers, so spreadsheets of every locale and the importer read them; a semicolon-separated file would only suit some.
 * In XLSX they are numbers. The XLSX writer (exceljs) is loaded only when the user asks for one.
 */
import { assertNever } from '../../../shared/api/enums';
import { guardCsvText } from '../../../shared/csv-formula-guard';
import { MAPPED_TO_HEADER, sheetHeader, type SheetField, type SheetLanguage } from '../../../shared/sheet-columns';
import { elementsByIds } from '../../db/reads';
import type { CacheDb } from '../../db/cache-db';
import type { IdList } from '../../db/packed-ids';
import type { ElementRow } from '../../db/schema';
import { displayName } from '../catalogues/catalogue-form';
import { classifiedHere, phasedHere } from './local-report';

const EXPORT_CHUNK = 1000;

/** The MIME type of an XLSX file. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A column of an export: a column of the import template (one row is one element, so no Amount), or the mapping's name. */
export type ExportField = Exclude<SheetField, 'amount'> | 'mappedTo';

/** The columns of an export, in order. */
export const EXPORT_FIELDS: readonly ExportField[] = [
  'id',
  'name',
  'description',
  'material',
  'mappedTo',
  'materialId',
  'classification',
  'floor',
  'volume',
  'area',
  'length',
  'width',
  'height',
  'weight',
  'phase',
  'elementClass',
];

/** Column widths of the XLSX sheet, in characters. */
const WIDTHS: Record<ExportField, number> = {
  id: 26,
  name: 32,
  description: 32,
  material: 28,
  mappedTo: 28,
  materialId: 38,
  classification: 16,
  floor: 16,
  volume: 12,
  area: 12,
  length: 12,
  width: 12,
  height: 12,
  weight: 12,
  phase: 12,
  elementClass: 22,
};

/** A cell of an export: text, a number, or empty. */
export type ExportCell = string | number | null;

/** The header row of an export in a language. */
export function exportHeader(language: SheetLanguage): string[] {
  return EXPORT_FIELDS.map((field) => (field === 'mappedTo' ? MAPPED_TO_HEADER[language] : sheetHeader(field, language)));
}

/** A quantity as written: rounded to the 15 significant digits a double holds of a decimal; null stays empty. */
export function exportQuantity(value: number | null): number | null {
  return value === null ? null : Number(value.toPrecision(15));
}

function textCell(value: string | null | undefined): string | null {
  return value === null || value === undefined || value === '' ? null : value;
}

/** The lookups of an element as one text. */
function lookupText(lookup: readonly string[] | null): string | null {
  return textCell((lookup ?? []).join(', '));
}

/** The classification code the server matched, unless the user chose another here since (then the lookup says it). */
function classificationCell(row: ElementRow): string | null {
  if (row.classificationMatch !== null && !classifiedHere(row)) return row.classificationMatch.code;
  return lookupText(row.classificationLookup);
}

/** The phase the server matched, unless the user changed the element's phase here since. */
function phaseCell(row: ElementRow): string | null {
  if (row.phaseMatch !== null && !phasedHere(row)) return row.phaseMatch.name;
  return lookupText(row.phaseLookup);
}

/** An element's cells in the order of {@link EXPORT_FIELDS}; `mappedTo` names the item it is mapped to ('' when unknown). */
export function exportRow(row: ElementRow, mappedTo: string): ExportCell[] {
  return EXPORT_FIELDS.map((field): ExportCell => {
    switch (field) {
      case 'id':
        return row.id;
      case 'name':
        return textCell(row.name);
      case 'description':
        return textCell(row.typeName);
      case 'material':
        return textCell(row.materialName);
      case 'mappedTo':
        return row.mapping === null ? null : textCell(mappedTo);
      case 'materialId':
        return row.mapping?.id ?? null;
      case 'classification':
        return classificationCell(row);
      case 'floor':
        return textCell(row.floor);
      case 'volume':
      case 'area':
      case 'length':
      case 'width':
      case 'height':
      case 'weight':
        return exportQuantity(row[field]);
      case 'phase':
        return phaseCell(row);
      case 'elementClass':
        return textCell(row.elementClass);
      default:
        return assertNever(field, 'export field');
    }
  });
}

/** One CSV field: quoted when it holds a separator, a quote or a line break, and guarded when it could start a formula. */
export function csvField(value: string): string {
  const guarded = guardCsvText(value);
  return /[",\r\n]/.test(guarded) || guarded !== value ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

function csvCell(cell: ExportCell): string {
  if (cell === null) return '';
  return typeof cell === 'number' ? String(cell) : csvField(cell);
}

/** The view's rows a chunk at a time, each with the name of what it is mapped to in `language`. */
async function eachChunk(
  db: CacheDb,
  fileId: string,
  ids: IdList,
  language: SheetLanguage,
  write: (rows: ExportCell[][]) => void,
  onProgress?: (written: number) => void,
): Promise<void> {
  for (let start = 0; start < ids.length; start += EXPORT_CHUNK) {
    const rows = (await elementsByIds(db, fileId, ids.slice(start, start + EXPORT_CHUNK))).filter((row) => row !== undefined);
    const names = await mappedNames(db, rows, language);
    write(rows.map((row) => exportRow(row, row.mapping === null ? '' : (names.get(row.mapping.id) ?? ''))));
    onProgress?.(Math.min(ids.length, start + EXPORT_CHUNK));
  }
}

/** The names in `language` of the materials and products the rows are mapped to, by id, as far as the cache holds them. */
async function mappedNames(db: CacheDb, rows: readonly ElementRow[], language: SheetLanguage): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((row) => (row.mapping === null ? [] : [row.mapping.id])))];
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  const [materials, products] = await Promise.all([db.materials.bulkGet(ids), db.products.bulkGet(ids)]);
  for (const item of [...materials, ...products]) {
    if (item !== undefined) names.set(item.id, displayName(item.name, language));
  }
  return names;
}

/** The CSV text of a view, headed in `language`; `onProgress` hears the rows written so far. */
export async function elementsCsv(
  db: CacheDb,
  fileId: string,
  ids: IdList,
  language: SheetLanguage,
  onProgress?: (written: number) => void,
): Promise<Blob> {
  const parts: string[] = [`${exportHeader(language).map(csvField).join(',')}\r\n`];
  await eachChunk(
    db,
    fileId,
    ids,
    language,
    (rows) => parts.push(rows.map((cells) => `${cells.map(csvCell).join(',')}\r\n`).join('')),
    onProgress,
  );
  // A byte order mark, so Excel opens the file as UTF-8.
  return new Blob(['\uFEFF', ...parts], { type: 'text/csv;charset=utf-8' });
}

/** The XLSX workbook of a view: one sheet, a bold header row in `language`, quantities as numbers; `onProgress` hears the rows written. */
export async function elementsXlsx(
  db: CacheDb,
  fileId: string,
  ids: IdList,
  language: SheetLanguage,
  sheetName: string,
  onProgress?: (written: number) => void,
): Promise<Blob> {
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Elements', { views: [{ state: 'frozen', ySplit: 1 }] });
  const header = exportHeader(language);
  sheet.columns = EXPORT_FIELDS.map((field, index) => ({ header: header[index], key: field, width: WIDTHS[field] }));
  sheet.getRow(1).font = { bold: true };
  await eachChunk(db, fileId, ids, language, (rows) => sheet.addRows(rows), onProgress);
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: XLSX_TYPE });
}
