/**
 * Spreadsheet source files (decisions §11): `.xlsx` workbooks read through exceljs's streaming reader and CSV text
 * parsed here, both row by row, so a large sheet never sits in memory whole. Every sheet with an Id/Mark/Merk header is
 * one phase (its name is the phase lookup unless a Phase/Fase column says otherwise); its rows become ImportedElements
 * or named rejections (`sheet New row 4: negative volume`). See README.md, section Spreadsheets.
 */
import { runImportWorker } from './import-worker';
import type { ImportOutcome, ImportSink } from './imported-element';
import { readCsv } from './sheet/csv';
import { recognise, readSample } from './sheet/kind';
import { BATCH_SIZE, Collector } from './sheet/rows';
import { readWorkbook } from './sheet/workbook';
import { DEFAULT_WORKBOOK_LIMITS, type WorkbookLimits } from './workbook-limits';
import type { ImportWorkerData } from './worker-messages';

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
    await readWorkbook(filePath, fileName, collector, limits);
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
