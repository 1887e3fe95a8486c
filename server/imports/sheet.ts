/**
 * Spreadsheet source files (decisions §11): `.xlsx` workbooks read through exceljs's streaming reader and CSV text
 * parsed here, both row by row, so a large sheet never sits in memory whole. Every sheet with an Id/Mark/Merk header is
 * one phase (its name is the phase lookup unless a Phase/Fase column says otherwise); its rows become ImportedElements
 * or named rejections (`sheet New row 4: negative volume`). See README.md, section Spreadsheets.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { CellValue } from 'exceljs';
import { formatRejectedRow, type RowProblem } from '../../shared/status-messages';
import { runImportWorker } from './import-worker';
import { UnknownImportFileError, quantitySourceOf, type ImportedElement, type ImportOutcome, type ImportSink } from './imported-element';
import { checkWorkbookSize, DEFAULT_WORKBOOK_LIMITS, type WorkbookLimits } from './workbook-limits';
import type { ImportWorkerData } from './worker-messages';

/** Elements handed to the sink at a time. */
const BATCH_SIZE = 500;
/** The header row is looked for in this many first rows of a sheet (a template may put a title above it). */
const HEADER_SEARCH_ROWS = 20;
/** Bytes read to recognise the file and sniff a CSV's encoding and separator. */
const SAMPLE_BYTES = 64 * 1024;
/** A CSV record longer than this is taken for an unclosed quote rather than buffered on and on. */
const MAX_RECORD_CHARS = 1024 * 1024;

type QuantityField = 'volume' | 'area' | 'length' | 'width' | 'height' | 'weight' | 'amount';
type TextField = 'id' | 'name' | 'description' | 'material' | 'classification' | 'floor' | 'phase';
type Field = TextField | QuantityField;

/**
 * The header names each field is recognised by (decisions §11, nl/en/de), compared after {@link normaliseHeader}.
 * Material/Product is also recognised in its parts and in Dutch, as the Dutch fixtures write it (`Materiaal/Product`).
 */
const HEADER_NAMES: Record<Field, readonly string[]> = {
  id: ['id', 'mark', 'merk'],
  name: ['name', 'naam'],
  description: ['description', 'omschrijving'],
  material: ['material/product', 'materiaal/product', 'material', 'materiaal', 'product'],
  classification: ['classification code', 'classificatiecode'],
  floor: ['floor', 'verdieping', 'geschoss'],
  volume: ['volume'],
  area: ['area', 'oppervlakte', 'fläche'],
  length: ['length', 'lengte', 'länge'],
  width: ['width', 'breedte', 'breite'],
  height: ['height', 'hoogte', 'höhe'],
  weight: ['weight', 'gewicht'],
  amount: ['amount', 'aantal', 'anzahl'],
  phase: ['phase', 'fase'],
};

const FIELD_BY_HEADER: ReadonlyMap<string, Field> = new Map(
  (Object.entries(HEADER_NAMES) as [Field, readonly string[]][]).flatMap(([field, names]) =>
    names.map((name) => [name, field] as const),
  ),
);

/** Quantities in the order their problems are reported. */
const QUANTITY_FIELDS: readonly QuantityField[] = ['volume', 'area', 'length', 'width', 'height', 'weight', 'amount'];
/** Extensive quantities: a row with Amount n describes n identical pieces, so these are multiplied by n. */
const SUMMED_BY_AMOUNT: readonly QuantityField[] = ['volume', 'area', 'length', 'weight'];

/** A formula cell the file holds no computed value for (never recalculated, or an error such as #DIV/0!). */
interface UncomputedFormula {
  formula: string;
}

/** A cell as this module sees it: text, a number, empty, or a formula without a value. */
type Cell = string | number | null | UncomputedFormula;

/** Which column (0-based position in the row) holds which field; the first column with a field's header wins. */
type ColumnMap = Map<Field, number>;

/**
 * Reads a spreadsheet source file (`.xlsx` or CSV) and hands its rows to `sink` as ImportedElements in batches.
 * Rows with no id, a duplicate id, or a negative or non-numeric quantity are left out and named in `rejected`.
 * @throws UnknownImportFileError when the file is not a spreadsheet or no sheet has an Id column.
 */
export async function importSheet(
  filePath: string,
  fileName: string,
  sink: ImportSink,
  limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS,
): Promise<ImportOutcome> {
  const sample = await readSample(filePath);
  const kind = recognise(sample, fileName);
  const collector = new Collector(sink);
  if (kind.type === 'xlsx') {
    await checkWorkbookSize(filePath, fileName, limits);
    await readWorkbook(filePath, fileName, collector);
  } else {
    await readCsv(filePath, fileName, sample, kind.encoding, collector);
  }
  await collector.flush();
  sink.progress(collector.imported, collector.imported);
  return { imported: collector.imported, rejected: collector.rejected };
}

/** The heap a spreadsheet's worker may use: far more than a workbook within its limits needs, far less than the server has. */
const SHEET_WORKER_HEAP_MB = 1024;

/**
 * `importSheet` in a worker thread of its own (sheet-worker.ts) with a limited heap: a file that would take more
 * memory than that ends its import (ImportTooLargeError), never the process that serves the API.
 */
export function importSheetInWorker(
  filePath: string,
  fileName: string,
  sink: ImportSink,
  options: { signal?: AbortSignal | undefined; heapMb?: number } = {},
): Promise<ImportOutcome> {
  const { signal } = options;
  signal?.throwIfAborted();
  const workerData: ImportWorkerData = { filePath, fileName, batchSize: BATCH_SIZE };
  return runImportWorker(
    {
      entry: 'sheet-worker',
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? SHEET_WORKER_HEAP_MB },
      reader: 'spreadsheet reader',
      file: 'spreadsheet',
      signal,
    },
    sink,
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// Recognising the file

type Kind = { type: 'xlsx' } | { type: 'csv'; encoding: 'utf-8' | 'windows-1252' };

async function readSample(filePath: string): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function startsWith(sample: Buffer, bytes: readonly number[]): boolean {
  return sample.length >= bytes.length && bytes.every((b, i) => sample[i] === b);
}

/** Decides by content first (a zip is a workbook, whatever its name), then by extension for text. */
function recognise(sample: Buffer, fileName: string): Kind {
  const extension = path.extname(fileName).toLowerCase();
  if (sample.length === 0) throw new UnknownImportFileError(`${fileName} is empty.`);
  // A zip: local file header, or the end record of an empty one.
  if (startsWith(sample, [0x50, 0x4b, 0x03, 0x04]) || startsWith(sample, [0x50, 0x4b, 0x05, 0x06])) return { type: 'xlsx' };
  if (startsWith(sample, [0x25, 0x50, 0x44, 0x46, 0x2d])) {
    throw new UnknownImportFileError(`${fileName} is a PDF document, not a spreadsheet (.xlsx or .csv).`);
  }
  if (startsWith(sample, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    throw new UnknownImportFileError(
      `${fileName} is a legacy Excel (.xls) or other binary Office file; save it as .xlsx or CSV UTF-8.`,
    );
  }
  if (startsWith(sample, [0xff, 0xfe]) || startsWith(sample, [0xfe, 0xff])) {
    throw new UnknownImportFileError(`${fileName} is UTF-16 text; save it as .xlsx or CSV UTF-8.`);
  }
  if (extension === '.xlsx' || extension === '.xlsm') {
    throw new UnknownImportFileError(`${fileName} is named like an Excel workbook but is not one (no zip content).`);
  }
  if (sample.includes(0)) {
    throw new UnknownImportFileError(`${fileName} is not a spreadsheet: neither an .xlsx workbook nor CSV text.`);
  }
  const text = sample.toString('latin1', 0, Math.min(sample.length, 32));
  if (text.startsWith('ISO-10303-21')) {
    throw new UnknownImportFileError(`${fileName} is an IFC model, not a spreadsheet.`);
  }
  return { type: 'csv', encoding: isUtf8(sample) ? 'utf-8' : 'windows-1252' };
}

/** Whether the sample is UTF-8; a sequence cut off at the sample's end does not count against it. */
function isUtf8(sample: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function sheetNameOfCsv(fileName: string): string {
  const base = path.basename(fileName);
  const extension = path.extname(base);
  return (extension ? base.slice(0, -extension.length) : base) || base;
}

// ---------------------------------------------------------------------------------------------------------------------
// Rows to elements

function normaliseHeader(value: Cell): string {
  if (value === null || typeof value === 'object') return '';
  return String(value).normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/** The columns of a header row, or null when the row has no Id column (then it is not the header row). */
function headerColumns(cells: readonly Cell[]): ColumnMap | null {
  const columns: ColumnMap = new Map();
  cells.forEach((cell, index) => {
    const field = FIELD_BY_HEADER.get(normaliseHeader(cell));
    if (field !== undefined && !columns.has(field)) columns.set(field, index);
  });
  return columns.has('id') ? columns : null;
}

function text(cell: Cell | undefined): string | null {
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

type Quantity = { value: number | null } | { problem: RowProblem };

function quantity(field: QuantityField, cell: Cell | undefined): Quantity {
  if (cell === null || cell === undefined) return { value: null };
  if (typeof cell === 'object') return { problem: { kind: 'no-computed-value', field, formula: cell.formula } };
  if (typeof cell === 'string' && cell.trim() === '') return { value: null };
  const value = typeof cell === 'number' ? cell : parseDecimal(cell);
  if (!Number.isFinite(value)) return { problem: { kind: 'not-a-number', field, value: String(cell).trim() } };
  if (value < 0) return { problem: { kind: 'negative', field } };
  return { value };
}

/** Turns rows into elements and rejections, batches the elements to the sink, and keeps ids unique over the file. */
class Collector {
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
    const at = (field: Field): Cell | undefined => {
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
    const values: Partial<Record<QuantityField, number | null>> = {};
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
      elementClass: null,
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
class SheetRows {
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

function noIdColumn(fileName: string, sheets: readonly string[]): UnknownImportFileError {
  const which = sheets.length === 0 ? 'no sheets' : `sheets: ${sheets.join(', ')}`;
  return new UnknownImportFileError(
    `${fileName} has no sheet with an Id column (a header Id, Mark or Merk in its first ${HEADER_SEARCH_ROWS} rows; ${which}).`,
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// xlsx

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

async function readWorkbook(filePath: string, fileName: string, collector: Collector): Promise<void> {
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

// ---------------------------------------------------------------------------------------------------------------------
// CSV

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Parser states: at the start of a field, inside an unquoted one, inside quotes, just after a quote inside quotes. */
const State = { FieldStart: 0, Unquoted: 1, Quoted: 2, QuoteInQuoted: 3 } as const;
type State = (typeof State)[keyof typeof State];

/**
 * An incremental CSV parser (RFC 4180 plus what Excel writes): fields in double quotes may hold separators, line breaks
 * and doubled quotes; a quote inside an unquoted field is a character; CRLF, LF and CR end records. Text after a closing
 * quote is kept, as Excel does.
 */
export class CsvParser {
  private state: State = State.FieldStart;
  private field = '';
  private fields: string[] = [];
  private recordChars = 0;
  /** A CR ended the last record; an LF right after it (perhaps in the next chunk) belongs to it. */
  private afterCR = false;
  private readonly separatorCode: number;

  constructor(separator: string) {
    this.separatorCode = separator.charCodeAt(0);
  }

  /** Parses the next piece of text and returns the records it completed. */
  push(chunk: string): string[][] {
    const records: string[][] = [];
    const sep = this.separatorCode;
    const length = chunk.length;
    let i = 0;
    while (i < length) {
      const code = chunk.charCodeAt(i);
      if (this.afterCR) {
        this.afterCR = false;
        if (code === LF) {
          i += 1;
          continue;
        }
      }
      switch (this.state) {
        case State.FieldStart:
          if (code === QUOTE) {
            this.state = State.Quoted;
            i += 1;
          } else {
            this.state = State.Unquoted;
          }
          break;
        case State.Unquoted: {
          let end = i;
          let stop = -1;
          while (end < length) {
            const c = chunk.charCodeAt(end);
            if (c === sep || c === CR || c === LF) {
              stop = c;
              break;
            }
            end += 1;
          }
          this.append(chunk, i, end);
          i = end;
          if (stop === -1) break;
          i += 1;
          this.fields.push(this.field);
          this.field = '';
          this.state = State.FieldStart;
          if (stop !== sep) {
            records.push(this.fields);
            this.fields = [];
            this.recordChars = 0;
            this.afterCR = stop === CR;
          }
          break;
        }
        case State.Quoted: {
          const end = chunk.indexOf('"', i);
          if (end === -1) {
            this.append(chunk, i, length);
            i = length;
          } else {
            this.append(chunk, i, end);
            i = end + 1;
            this.state = State.QuoteInQuoted;
          }
          break;
        }
        case State.QuoteInQuoted:
          if (code === QUOTE) {
            this.append('"', 0, 1);
            this.state = State.Quoted;
            i += 1;
          } else {
            this.state = State.Unquoted;
          }
          break;
      }
    }
    return records;
  }

  /** Ends the input: the last record, when the text does not end with a line break. */
  end(): string[][] {
    if (this.state === State.FieldStart && this.fields.length === 0) return [];
    this.fields.push(this.field);
    const record = this.fields;
    this.fields = [];
    this.field = '';
    this.state = State.FieldStart;
    return [record];
  }

  private append(chunk: string, start: number, end: number): void {
    if (end <= start) return;
    this.recordChars += end - start;
    if (this.recordChars > MAX_RECORD_CHARS) {
      throw new UnknownImportFileError(
        'A CSV row is longer than 1 MiB; the file is not CSV or a quote is not closed.',
      );
    }
    this.field += chunk.slice(start, end);
  }
}

interface CsvLayout {
  separator: string;
  /** Records before the rows the user sees (an Excel `sep=;` line), not counted in row numbers. */
  skip: number;
}

/**
 * The separator: an Excel `sep=` line says it; otherwise the one of `,` `;` and tab that makes the most recognised
 * headers of a row with an Id column among the first rows of the sample. Null when no separator finds an Id column.
 */
function sniffLayout(sample: string, complete: boolean): CsvLayout | null {
  const firstLine = /^sep=(.)(\r\n|\n|\r|$)/iu.exec(sample);
  if (firstLine?.[1] !== undefined) return { separator: firstLine[1], skip: 1 };
  let best: { separator: string; score: number } | null = null;
  for (const separator of [',', ';', '\t']) {
    const parser = new CsvParser(separator);
    let records: string[][];
    try {
      records = parser.push(sample);
      if (complete) records.push(...parser.end());
    } catch {
      continue;
    }
    for (const record of records.slice(0, HEADER_SEARCH_ROWS)) {
      const columns = headerColumns(record);
      if (columns === null) continue;
      if (best === null || columns.size > best.score) best = { separator, score: columns.size };
      break;
    }
  }
  return best === null ? null : { separator: best.separator, skip: 0 };
}

async function readCsv(
  filePath: string,
  fileName: string,
  sample: Buffer,
  encoding: 'utf-8' | 'windows-1252',
  collector: Collector,
): Promise<void> {
  const sampleText = new TextDecoder(encoding).decode(sample, { stream: true });
  const layout = sniffLayout(sampleText, sample.length < SAMPLE_BYTES);
  const sheetName = sheetNameOfCsv(fileName);
  if (layout === null) throw noIdColumn(fileName, [sheetName]);

  const rows = new SheetRows(sheetName, collector);
  const parser = new CsvParser(layout.separator);
  // The decoder drops a UTF-8 byte order mark.
  const decoder = new TextDecoder(encoding);
  let recordNumber = 0;
  const handle = async (records: string[][]): Promise<void> => {
    for (const record of records) {
      recordNumber += 1;
      if (recordNumber <= layout.skip) continue;
      await rows.row(recordNumber - layout.skip, record);
    }
  };
  const input = createReadStream(filePath, { highWaterMark: SAMPLE_BYTES });
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      await handle(parser.push(decoder.decode(chunk, { stream: true })));
    }
    await handle(parser.push(decoder.decode()));
    await handle(parser.end());
  } catch (error) {
    if (error instanceof UnknownImportFileError) {
      throw new UnknownImportFileError(`${fileName}, after row ${recordNumber - layout.skip}: ${error.message}`);
    }
    throw error;
  } finally {
    input.destroy();
  }
  if (collector.sheetsWithId === 0) throw noIdColumn(fileName, [sheetName]);
}
