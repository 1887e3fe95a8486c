/** CSV text, parsed here in chunks: the separator sniffed, the rows handed on as they are parsed. */
import { createReadStream } from 'node:fs';
import { unguardCsvText } from '../../../shared/csv-formula-guard';
import { UnknownImportFileError } from '../imported-element';
import { headerColumns } from './columns';
import { SAMPLE_BYTES, sheetNameOfCsv } from './kind';
import { HEADER_SEARCH_ROWS, noIdColumn, SheetRows, type Collector } from './rows';

/** A CSV record longer than this is taken for an unclosed quote rather than buffered on and on. */
const MAX_RECORD_CHARS = 1024 * 1024;

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

export async function readCsv(
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
      await rows.row(recordNumber - layout.skip, record.map(unguardCsvText));
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
