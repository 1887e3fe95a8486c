/**
 * What a workbook may hold, uncompressed: in all, in its shared strings (the one part exceljs's streaming reader keeps in
 * memory) and in each of its other parts but the worksheets (read whole into memory too). The sizes its zip directory
 * declares are checked first, so an honest file past a limit is refused before anything is inflated; the bytes are then
 * counted as they are inflated, so a directory that lies is stopped at the limit all the same.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { ImportTooLargeError } from './imported-element';

/** The limits; importers use the defaults, tests shrink them. */
export interface WorkbookLimits {
  /** Bytes of every part read, uncompressed. */
  totalBytes: number;
  /** Bytes of the shared strings part, uncompressed. */
  sharedStringsBytes: number;
  /** Bytes of any other part that is not a worksheet (the workbook, its relationships), uncompressed. */
  partBytes: number;
}

/**
 * A workbook of 1 GiB uncompressed (the parts read: worksheets, shared strings, the list of sheets) holds a few million rows. Its shared strings, as the reader keeps them, take several
 * times their XML's bytes and must stay within the worker's heap (sheet.ts); the workbook's list of sheets and its
 * relationships are a few kilobytes in any real file.
 */
export const DEFAULT_WORKBOOK_LIMITS: Readonly<WorkbookLimits> = {
  totalBytes: 1024 ** 3,
  sharedStringsBytes: 32 * 1024 ** 2,
  partBytes: 16 * 1024 ** 2,
};

/** The shared strings part, as exceljs names it. */
export const SHARED_STRINGS_PART = 'xl/sharedStrings.xml';

/** A worksheet part and its number, as exceljs names them. */
export const WORKSHEET_PART = /^xl\/worksheets\/sheet(\d+)\.xml$/u;

/** The workbook's relationships and its list of sheets: where the worksheets' names come from. */
export const WORKBOOK_PARTS = { rels: 'xl/_rels/workbook.xml.rels', book: 'xl/workbook.xml' } as const;

/** Whether the reader inflates the part at all; the others (images, themes, properties) are never read. */
function isRead(part: string): boolean {
  return part === WORKBOOK_PARTS.rels || part === WORKBOOK_PARTS.book || part === SHARED_STRINGS_PART || WORKSHEET_PART.test(part);
}

const MIB = 1024 * 1024;

/** A limit in words: megabytes, or kilobytes below one. */
function mb(bytes: number): string {
  return bytes >= MIB ? `${Math.floor(bytes / MIB)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** What a part may hold, and the error past it. */
function partLimit(fileName: string, part: string, limits: WorkbookLimits): { bytes: number; exceeded: () => ImportTooLargeError } | undefined {
  if (part === SHARED_STRINGS_PART) {
    return {
      bytes: limits.sharedStringsBytes,
      exceeded: () =>
        new ImportTooLargeError(
          `${fileName} holds more than ${mb(limits.sharedStringsBytes)} of texts (${part}, uncompressed), the limit for a workbook; split it into smaller files.`,
        ),
    };
  }
  if (WORKSHEET_PART.test(part)) return undefined;
  return {
    bytes: limits.partBytes,
    exceeded: () =>
      new ImportTooLargeError(`${fileName}: its part ${part} holds more than ${mb(limits.partBytes)} uncompressed, the limit for a workbook's part.`),
  };
}

function totalExceeded(fileName: string, limits: WorkbookLimits): ImportTooLargeError {
  return new ImportTooLargeError(
    `${fileName} holds more than ${mb(limits.totalBytes)} uncompressed, the limit for a workbook; split it into smaller files.`,
  );
}

/** Checks the sizes the zip directory declares for the parts the reader inflates; throws ImportTooLargeError naming the limit. */
export function checkDeclaredSizes(fileName: string, parts: readonly { name: string; size: number }[], limits: WorkbookLimits): void {
  let total = 0;
  for (const part of parts.filter((each) => isRead(each.name))) {
    total += part.size;
    const limit = partLimit(fileName, part.name, limits);
    if (limit !== undefined && part.size > limit.bytes) throw limit.exceeded();
  }
  if (total > limits.totalBytes) throw totalExceeded(fileName, limits);
}

/** Counts the bytes inflated from one workbook, part by part and in all, whatever its zip directory declares. */
export class InflationBudget {
  private inflated = 0;

  constructor(
    private readonly fileName: string,
    private readonly limits: WorkbookLimits,
  ) {}

  /** A pass-through for the inflated bytes of `part` that fails with ImportTooLargeError at the first byte past a limit. */
  counter(part: string): Transform {
    const limit = partLimit(this.fileName, part, this.limits);
    let partBytes = 0;
    return new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) => {
        partBytes += chunk.length;
        this.inflated += chunk.length;
        if (limit !== undefined && partBytes > limit.bytes) callback(limit.exceeded());
        else if (this.inflated > this.limits.totalBytes) callback(totalExceeded(this.fileName, this.limits));
        else callback(null, chunk);
      },
    });
  }
}
