/** `.xlsx` workbooks, read row by row through exceljs's streaming reader, every part's bytes counted as inflated. */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CellValue } from 'exceljs';
import { ImportTooLargeError, UnknownImportFileError } from '../imported-element';
import { checkDeclaredSizes, SHARED_STRINGS_PART, WORKBOOK_PARTS, WORKSHEET_PART, type WorkbookLimits } from '../workbook-limits';
import { openWorkbookZip, type WorkbookZip } from './workbook-zip';
import type { Cell } from './columns';
import { noIdColumn, SheetRows, type Collector } from './rows';

/**
 * A cell of exceljs as text or a number: formulas give their cached result, rich text its text, booleans TRUE/FALSE.
 * The streaming reader drops error results (#DIV/0!), so those arrive as formulas without a value.
 */
function cellOf(value: CellValue | undefined): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((run) => run.text ?? '').join('');
  if ('error' in value) return String(value.error);
  if ('formula' in value || 'sharedFormula' in value) {
    if (value.result === undefined || value.result === null) {
      return { formula: ('formula' in value ? value.formula : value.sharedFormula) ?? '' };
    }
    return cellOf(value.result as CellValue);
  }
  if ('text' in value) return typeof value.text === 'string' ? value.text : cellOf(value.text as CellValue);
  return null;
}

/**
 * The parts of exceljs's streaming WorkbookReader (4.4) that read one part each. Its own `parse` inflates the zip as a
 * stream through unzipper, unlimited, and spools worksheets that precede the shared strings to temporary files of the
 * system's; the reader here hands it instead the parts it opens itself, counted, in the order that needs no spooling.
 * The sheet tests read every fixture through them, so a version of exceljs that changes them fails there.
 */
interface WorkbookPartReader {
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(part: Readable, sheetNo: string): Generator<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

/** The worksheets of a workbook in the order of its zip, each read with the shared strings read before. */
async function* worksheetsOf(zip: WorkbookZip): AsyncGenerator<ExcelJS.stream.xlsx.WorksheetReader> {
  // The reader takes its input only in `parse`, which is never called: the parts come from `zip`.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  }) as unknown as WorkbookPartReader;
  const rels = await zip.open(WORKBOOK_PARTS.rels);
  if (rels !== undefined) await reader._parseRels(rels);
  const book = await zip.open(WORKBOOK_PARTS.book);
  if (book !== undefined) await reader._parseWorkbook(book);
  const sharedStrings = await zip.open(SHARED_STRINGS_PART);
  // Cached by the reader as it goes: nothing to take from the generator.
  if (sharedStrings !== undefined) for await (const _ of reader._parseSharedStrings(sharedStrings));
  // A name the directory lists twice is one part (`open` takes the first), read once.
  for (const name of new Set(zip.parts.map((part) => part.name))) {
    const sheetNo = WORKSHEET_PART.exec(name)?.[1];
    if (sheetNo === undefined) continue;
    const part = await zip.open(name);
    if (part === undefined) continue;
    for (const { value } of reader._parseWorksheet(part, sheetNo)) yield value;
  }
}

export async function readWorkbook(filePath: string, fileName: string, collector: Collector, limits: WorkbookLimits): Promise<void> {
  let zip: WorkbookZip;
  try {
    zip = await openWorkbookZip(filePath, fileName, limits);
  } catch (error) {
    throw new UnknownImportFileError(`${fileName} is not a readable Excel workbook: ${error instanceof Error ? error.message : String(error)}.`);
  }
  const sheets: string[] = [];
  try {
    checkDeclaredSizes(fileName, zip.parts, limits);
    for await (const worksheet of worksheetsOf(zip)) {
      const name = (worksheet as unknown as { name?: string }).name ?? `Sheet${sheets.length + 1}`;
      sheets.push(name);
      const rows = new SheetRows(name, collector);
      for await (const row of worksheet) {
        const values = row.values;
        const cells: Cell[] = [];
        if (Array.isArray(values)) {
          // exceljs rows are 1-based and sparse; position 0 is unused.
          for (let column = 1; column < values.length; column += 1) cells.push(cellOf(values[column]));
        }
        await rows.row(row.number, cells);
      }
    }
  } catch (error) {
    // The sink's errors, ours, a limit reached, and the system's are no verdict on the file.
    if (error === collector.sinkError || error instanceof UnknownImportFileError || error instanceof ImportTooLargeError) throw error;
    if (error instanceof Error && 'syscall' in error) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnknownImportFileError(`${fileName} is not a readable Excel workbook (${reason}).`);
  } finally {
    zip.close();
  }
  if (collector.sheetsWithId === 0) throw noIdColumn(fileName, sheets);
}
