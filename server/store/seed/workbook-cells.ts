/** Reading the materials workbook's sheets and constant cells (generate.ts's conversion of `Madaster_Materials.xlsx`). */
import type { CellValue, Workbook, Worksheet } from 'exceljs';

export function requireSheet(workbook: Workbook, name: string): Worksheet {
  const sheet = workbook.getWorksheet(name);
  if (sheet === undefined) {
    throw new Error(`The workbook has no sheet "${name}"`);
  }
  return sheet;
}

/** Text of a constant cell, whitespace collapsed; null when empty. Formula cells are never read as data. */
export function cellText(value: CellValue): string | null {
  let text: string;
  if (typeof value === 'string') {
    text = value;
  } else if (typeof value === 'number') {
    text = String(value);
  } else if (value !== null && typeof value === 'object' && 'richText' in value) {
    text = value.richText.map((run) => run.text).join('');
  } else {
    return null;
  }
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed === '' ? null : collapsed;
}
