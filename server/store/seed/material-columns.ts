/** The columns of the workbook's `Materials` sheet and a reader for one of its rows. */
import type { CellValue, Worksheet } from 'exceljs';
import { cellText } from './workbook-cells';

/**
 * Columns of the `Materials` sheet (header rows 1–2, data from row 3). Both "Id" columns share a header, so columns
 * are taken by position and their headers asserted: a reshaped workbook fails the conversion instead of being misread.
 */
export const COLUMNS = {
  id: { column: 'A', header: 'Madaster UID' },
  nameEnglish: { column: 'B', header: 'Material name' },
  nameDutch: { column: 'C', header: 'Material name (Dutch)' },
  specificWeight: { column: 'D', header: 'Specific weight (kg/m3)' },
  materialClassificationId: { column: 'E', header: 'Id' },
  familyId: { column: 'G', header: 'Id' },
  familyName: { column: 'H', header: 'madaster' },
  priceSetId: { column: 'I', header: 'Dataset Id' },
  transportCosts: { column: 'K', header: 'Transport costs (€/kg)' },
  handlingEuroKg: { column: 'L', header: 'Handling feedstock (€/kg)' },
  handlingPercentage: { column: 'M', header: 'Handling feedstock (% of price)' },
  recycledFeedstock: { column: 'N', header: '% Recycled' },
  efficiencyFeedstock: { column: 'O', header: '% Recycling Efficiency' },
  rapidRenewablesFeedstock: { column: 'P', header: '% Rapid Renewables' },
  virginFeedstock: { column: 'Q', header: '% Virgin feedstock' },
  recycledEndOfLife: { column: 'R', header: '% Available for recycle' },
  efficiencyEndOfLife: { column: 'S', header: '% Recycling efficiency' },
  landfillEndOfLife: { column: 'T', header: '% Landfill' },
  incinerationEndOfLife: { column: 'U', header: '% Incineration' },
} as const;

export type MaterialColumn = keyof typeof COLUMNS;

export interface MaterialRowReader {
  text(column: MaterialColumn): string | null;
  /** The text a formula cell last computed, as the workbook saved it. */
  formulaResult(column: MaterialColumn): string | null;
  requiredText(column: MaterialColumn): string;
  number(column: MaterialColumn): number | null;
  /** A share as a fraction; the workbook writes 0..1 although its headers say %, anything above 1 is refused. */
  fraction(column: MaterialColumn): number | null;
}

export function materialRowReader(sheet: Worksheet, rowNumber: number): MaterialRowReader {
  const address = (column: MaterialColumn): string => `${COLUMNS[column].column}${rowNumber}`;
  const value = (column: MaterialColumn): CellValue => sheet.getCell(address(column)).value;
  const number = (column: MaterialColumn): number | null => {
    const cell = value(column);
    if (cell === null || cell === undefined || cell === '') {
      return null;
    }
    if (typeof cell !== 'number' || !Number.isFinite(cell) || cell < 0) {
      throw new Error(`Materials!${address(column)}: expected a non-negative number, found ${JSON.stringify(cell)}`);
    }
    return cell;
  };
  return {
    text: (column) => cellText(value(column)),
    formulaResult: (column) => {
      const cell = value(column);
      return cell !== null && typeof cell === 'object' && 'result' in cell ? cellText(cell.result as CellValue) : null;
    },
    requiredText: (column) => {
      const text = cellText(value(column));
      if (text === null) {
        throw new Error(`Materials!${address(column)}: ${COLUMNS[column].header} is empty`);
      }
      return text;
    },
    number,
    fraction: (column) => {
      const share = number(column);
      if (share !== null && share > 1) {
        throw new Error(`Materials!${address(column)}: ${share} is not a fraction (0..1)`);
      }
      return share;
    },
  };
}

export function assertHeaders(sheet: Worksheet): void {
  for (const { column, header } of Object.values(COLUMNS)) {
    // Row 2 labels the columns under merged groups; columns without a group are labelled in row 1.
    const label = cellText(sheet.getCell(`${column}2`).value) ?? cellText(sheet.getCell(`${column}1`).value);
    if (label !== header) {
      throw new Error(`Materials!${column}: expected header "${header}", found "${String(label)}"`);
    }
  }
}

