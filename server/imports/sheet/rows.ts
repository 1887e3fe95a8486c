/** Rows to elements: the header row of each sheet, the data rows below it, and the batches handed to the sink. */
import { formatRejectedRow, type RowProblem } from '../../../shared/status-messages';
import { UnknownImportFileError, quantitySourceOf, type ImportedElement, type ImportSink } from '../imported-element';
import type { SheetField, SheetQuantityField } from '../../../shared/sheet-columns';
import { headerColumns, QUANTITY_FIELDS, quantity, SUMMED_BY_AMOUNT, text, type Cell, type ColumnMap } from './columns';

/** Elements handed to the sink at a time. */
export const BATCH_SIZE = 500;
/** The header row is looked for in this many first rows of a sheet (a template may put a title above it). */
export const HEADER_SEARCH_ROWS = 20;

/** Turns rows into elements and rejections, batches the elements to the sink, and keeps ids unique over the file. */
export class Collector {
  imported = 0;
  readonly rejected: string[] = [];
  /** Sheets in which a header row with an Id column was found. */
  sheetsWithId = 0;
  /** The error the sink threw, so that it passes through unchanged rather than as an unreadable file. */
  sinkError: unknown = undefined;

  private batch: ImportedElement[] = [];
  private readonly sheetNames: string[] = [];
  /** id → where it was imported, as sheet index × 2^32 + row number (numbers keep 200k ids small). */
  private readonly seen = new Map<string, number>();

  constructor(private readonly sink: ImportSink) {}

  /** Starts a sheet whose header row was found; returns its index for {@link row}. */
  startSheet(name: string): number {
    this.sheetsWithId += 1;
    this.sheetNames.push(name);
    return this.sheetNames.length - 1;
  }

  /** One data row (1-based rowNumber as the user sees it); empty rows (all imported columns blank) are skipped. */
  async row(sheetIndex: number, rowNumber: number, columns: ColumnMap, cells: readonly Cell[]): Promise<void> {
    const at = (field: SheetField): Cell | undefined => {
      const index = columns.get(field);
      return index === undefined ? undefined : cells[index];
    };
    let empty = true;
    for (const index of columns.values()) {
      const cell = cells[index];
      if (cell !== null && cell !== undefined && (typeof cell !== 'string' || cell.trim() !== '')) {
        empty = false;
        break;
      }
    }
    if (empty) return;

    const sheetName = this.sheetNames[sheetIndex] ?? '';
    const problems: RowProblem[] = [];
    const id = text(at('id'));
    if (id === null) problems.push({ kind: 'no-id' });
    const values: Partial<Record<SheetQuantityField, number | null>> = {};
    for (const field of QUANTITY_FIELDS) {
      const result = quantity(field, at(field));
      if ('problem' in result) problems.push(result.problem);
      else values[field] = result.value;
    }
    if (id !== null && problems.length === 0) {
      const first = this.seen.get(id);
      if (first !== undefined) {
        const firstSheet = Math.floor(first / 2 ** 32);
        const firstRow = first % 2 ** 32;
        const sheet = firstSheet === sheetIndex ? null : (this.sheetNames[firstSheet] ?? '');
        problems.push({ kind: 'duplicate-id', id, firstSheet: sheet, firstRow });
      }
    }
    if (id === null || problems.length > 0) {
      this.rejected.push(formatRejectedRow({ sheet: sheetName, row: rowNumber, problems }));
      return;
    }
    this.seen.set(id, sheetIndex * 2 ** 32 + rowNumber);

    const amount = values.amount ?? null;
    if (amount !== null) {
      for (const field of SUMMED_BY_AMOUNT) {
        const value = values[field];
        if (value !== null && value !== undefined) values[field] = value * amount;
      }
    }
    const classification = text(at('classification'));
    this.batch.push({
      id,
      name: text(at('name')),
      materialName: text(at('material')),
      typeName: text(at('description')),
      elementClass: text(at('elementClass')),
      volume: values.volume ?? null,
      area: values.area ?? null,
      height: values.height ?? null,
      width: values.width ?? null,
      length: values.length ?? null,
      weight: values.weight ?? null,
      phaseLookup: [text(at('phase')) ?? sheetName],
      classificationLookup: classification === null ? [] : [classification],
      floor: text(at('floor')),
      classificationHints: [],
      materialHints: [],
      quantitySource: quantitySourceOf(values.volume ?? null, values.weight ?? null),
      geometryIssue: null,
      materialId: text(at('materialId')),
      part: null,
    });
    if (this.batch.length >= BATCH_SIZE) await this.flush();
  }

  /** Hands the pending elements to the sink and waits for it (backpressure on the reader). */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    try {
      await this.sink.elements(batch);
    } catch (error) {
      this.sinkError = error;
      throw error;
    }
    this.imported += batch.length;
    this.sink.progress(this.imported, 0);
  }
}

/** Finds the header row among a sheet's first rows, then passes the data rows below it to the collector. */
export class SheetRows {
  private columns: ColumnMap | null = null;
  private sheetIndex = -1;

  constructor(
    private readonly name: string,
    private readonly collector: Collector,
  ) {}

  async row(rowNumber: number, cells: readonly Cell[]): Promise<void> {
    if (this.columns === null) {
      if (rowNumber > HEADER_SEARCH_ROWS) return;
      this.columns = headerColumns(cells);
      if (this.columns !== null) this.sheetIndex = this.collector.startSheet(this.name);
      return;
    }
    await this.collector.row(this.sheetIndex, rowNumber, this.columns, cells);
  }
}

export function noIdColumn(fileName: string, sheets: readonly string[]): UnknownImportFileError {
  const which = sheets.length === 0 ? 'no sheets' : `sheets: ${sheets.join(', ')}`;
  return new UnknownImportFileError(
    `${fileName} has no sheet with an Id column (a header Id, Mark or Merk in its first ${HEADER_SEARCH_ROWS} rows; ${which}).`,
  );
}
