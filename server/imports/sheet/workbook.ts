/** `.xlsx` workbooks, read row by row through exceljs's streaming reader. */
import { createReadStream } from 'node:fs';
import ExcelJS from 'exceljs';
import type { CellValue } from 'exceljs';
import { UnknownImportFileError } from '../imported-element';
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

export async function readWorkbook(filePath: string, fileName: string, collector: Collector): Promise<void> {
  const input = createReadStream(filePath);
  const sheets: string[] = [];
  try {
    // Shared strings are cached (the one part held in memory); worksheets that precede them in the zip go to
    // temporary files inside exceljs, and rows come one at a time.
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    });
    for await (const worksheet of reader) {
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
    // The sink's errors, ours, and the system's (disk full for exceljs's temporary files) are no verdict on the file.
    if (error === collector.sinkError || error instanceof UnknownImportFileError) throw error;
    if (error instanceof Error && 'syscall' in error) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnknownImportFileError(`${fileName} is not a readable Excel workbook (${reason}).`);
  } finally {
    input.destroy();
  }
  if (collector.sheetsWithId === 0) throw noIdColumn(fileName, sheets);
}
