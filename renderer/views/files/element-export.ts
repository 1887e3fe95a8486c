/**
 * The grid's current view as a CSV or XLSX file: the shown columns, the view's rows in its order, read from the cache
 * a chunk at a time (a view of 100,000 rows never sits in memory as records). In CSV, quantities are written with a
 * dot, as numbers, so spreadsheets of every locale read them; a semicolon-separated file would only suit some. In
 * XLSX they are numbers. The XLSX writer (exceljs) is loaded only when the user asks for one.
 */
import { elementsByIds } from '../../db/reads';
import type { CacheDb } from '../../db/cache-db';
import type { IdList } from '../../db/packed-ids';
import type { ElementColumn } from './element-columns';

const EXPORT_CHUNK = 1000;

/** The MIME type of an XLSX file. */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One CSV field: quoted when it holds a separator, a quote or a line break, and when it could start a formula. */
export function csvField(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) && Number.isNaN(Number(value)) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) || guarded !== value ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** The CSV text of a view, with a header of `labels`; `onProgress` hears the rows written so far. */
export async function elementsCsv(
  db: CacheDb,
  fileId: string,
  ids: IdList,
  columns: readonly ElementColumn[],
  labels: Readonly<Record<ElementColumn['key'], string>>,
  onProgress?: (written: number) => void,
): Promise<Blob> {
  const parts: string[] = [`${columns.map((column) => csvField(labels[column.key])).join(',')}\r\n`];
  for (let start = 0; start < ids.length; start += EXPORT_CHUNK) {
    const rows = await elementsByIds(db, fileId, ids.slice(start, start + EXPORT_CHUNK));
    const lines: string[] = [];
    for (const row of rows) {
      if (row === undefined) continue;
      lines.push(columns.map((column) => csvField(column.text(row))).join(','));
    }
    parts.push(lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`);
    onProgress?.(Math.min(ids.length, start + EXPORT_CHUNK));
  }
  // A byte order mark, so Excel opens the file as UTF-8.
  return new Blob(['\uFEFF', ...parts], { type: 'text/csv;charset=utf-8' });
}

/** The XLSX workbook of a view: one sheet, a bold header row, quantities as numbers; `onProgress` hears the rows written. */
export async function elementsXlsx(
  db: CacheDb,
  fileId: string,
  ids: IdList,
  columns: readonly ElementColumn[],
  labels: Readonly<Record<ElementColumn['key'], string>>,
  sheetName: string,
  onProgress?: (written: number) => void,
): Promise<Blob> {
  const { Workbook } = (await import('exceljs')).default;
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, ' ') || 'Elements', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({ header: labels[column.key], key: column.key, width: Math.round(column.width / 7) }));
  sheet.getRow(1).font = { bold: true };
  for (let start = 0; start < ids.length; start += EXPORT_CHUNK) {
    const rows = await elementsByIds(db, fileId, ids.slice(start, start + EXPORT_CHUNK));
    for (const row of rows) {
      if (row === undefined) continue;
      sheet.addRow(columns.map((column) => (column.kind === 'quantity' ? column.number(row) : column.text(row))));
    }
    onProgress?.(Math.min(ids.length, start + EXPORT_CHUNK));
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: XLSX_TYPE });
}
