/**
 * Spreadsheet source files (decisions §11): `.xlsx` workbooks read through exceljs's streaming reader and CSV text
 * parsed here, both row by row, so a large sheet never sits in memory whole. Every sheet with an Id/Mark/Merk header is
 * one phase (its name is the phase lookup unless a Phase/Fase column says otherwise); its rows become ImportedElements
 * or named rejections (`sheet New row 4: negative volume`). See README.md, section Spreadsheets.
 */
import { runImportWorker, type ImportBudget } from './import-worker';
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

/**
 * The heap a spreadsheet's worker may use. What a reading keeps alive is the shared strings (at most 32 MiB of XML,
 * workbook-limits.ts) and the ids seen so far (a CSV of a million rows with ids of 35 characters imports within it, in
 * 6.4 s); what exceeds that is a file made to take
 * memory, such as a single cell of hundreds of megabytes, which then ends its import well within the 256 MiB over idle
 * an upload may cost the server.
 */
const SHEET_WORKER_HEAP_MB = 192;

/**
 * `importSheet` in a worker thread of its own (sheet-worker.ts) with a limited heap, and within `budget` (temporary
 * folder, disk, time) when given: a file that would take more than that ends its import (ImportTooLargeError), never
 * the process that serves the API.
 */
export function importSheetInWorker(
  filePath: string,
  fileName: string,
  sink: ImportSink,
  options: { signal?: AbortSignal | undefined; heapMb?: number; budget?: ImportBudget | undefined } = {},
): Promise<ImportOutcome> {
  const { signal, budget } = options;
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
      budget,
    },
    sink,
  );
}
