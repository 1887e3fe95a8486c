/**
 * The columns of a spreadsheet (decisions §11): which field a header names (the names of every language, written once in
 * shared/sheet-columns.ts), and how a cell becomes text or a quantity. See ../README.md, section Spreadsheets.
 */
import { normaliseHeader as normaliseHeaderText, SHEET_COLUMNS, SHEET_LANGUAGES, type SheetField, type SheetQuantityField } from '../../../shared/sheet-columns';
import type { RowProblem } from '../../../shared/status-messages';

/** Each header name of every language (shared/sheet-columns.ts), normalised, to the field it names. */
export const FIELD_BY_HEADER: ReadonlyMap<string, SheetField> = new Map(
  SHEET_COLUMNS.flatMap((column) =>
    SHEET_LANGUAGES.flatMap((language) => column.headers[language].map((name) => [normaliseHeaderText(name), column.field] as const)),
  ),
);

/** Quantities in the order their problems are reported. */
export const QUANTITY_FIELDS: readonly SheetQuantityField[] = ['volume', 'area', 'length', 'width', 'height', 'weight', 'amount'];
/** Extensive quantities: a row with Amount n describes n identical pieces, so these are multiplied by n. */
export const SUMMED_BY_AMOUNT: readonly SheetQuantityField[] = ['volume', 'area', 'length', 'weight'];

/** A formula cell the file holds no computed value for (never recalculated, or an error such as #DIV/0!). */
export interface UncomputedFormula {
  formula: string;
}

/** A cell as this module sees it: text, a number, empty, or a formula without a value. */
export type Cell = string | number | null | UncomputedFormula;

/** Which column (0-based position in the row) holds which field; the first column with a field's header wins. */
export type ColumnMap = Map<SheetField, number>;

export function normaliseHeader(value: Cell): string {
  if (value === null || typeof value === 'object') return '';
  return normaliseHeaderText(String(value));
}

/** The columns of a header row, or null when the row has no Id column (then it is not the header row). */
export function headerColumns(cells: readonly Cell[]): ColumnMap | null {
  const columns: ColumnMap = new Map();
  cells.forEach((cell, index) => {
    const field = FIELD_BY_HEADER.get(normaliseHeader(cell));
    if (field !== undefined && !columns.has(field)) columns.set(field, index);
  });
  return columns.has('id') ? columns : null;
}

export function text(cell: Cell | undefined): string | null {
  if (cell === null || cell === undefined || typeof cell === 'object') return null;
  const value = typeof cell === 'number' ? String(cell) : cell.trim();
  return value === '' ? null : value;
}

/** A decimal number written with a point or a comma (and optionally grouped in thousands by the other one). */
export function parseDecimal(raw: string): number {
  const value = raw.trim();
  let normalised: string;
  if (/^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/u.test(value)) {
    normalised = value.replace(',', '.');
  } else if (/^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/u.test(value)) {
    normalised = value.replaceAll('.', '').replace(',', '.');
  } else if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/u.test(value)) {
    normalised = value.replaceAll(',', '');
  } else {
    return Number.NaN;
  }
  return Number(normalised);
}

export type Quantity = { value: number | null } | { problem: RowProblem };

export function quantity(field: SheetQuantityField, cell: Cell | undefined): Quantity {
  if (cell === null || cell === undefined) return { value: null };
  if (typeof cell === 'object') return { problem: { kind: 'no-computed-value', field, formula: cell.formula } };
  if (typeof cell === 'string' && cell.trim() === '') return { value: null };
  const value = typeof cell === 'number' ? cell : parseDecimal(cell);
  if (!Number.isFinite(value)) return { problem: { kind: 'not-a-number', field, value: String(cell).trim() } };
  if (value < 0) return { problem: { kind: 'negative', field } };
  return { value };
}
