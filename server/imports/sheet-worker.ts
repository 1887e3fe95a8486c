/**
 * The spreadsheet import's worker thread: reads the workbook or CSV (sheet.ts) and hands its rows to the thread that
 * started it one batch at a time (worker-port.ts), within a memory of its own. Started by sheet.ts's
 * `importSheetInWorker` through import-worker.ts, never imported.
 */
import { importSheet } from './sheet';
import { runImportInWorker } from './worker-port';

runImportInWorker(async ({ filePath, fileName }, channel) => {
  const outcome = await importSheet(filePath, fileName, { elements: (batch) => channel.batch(batch), progress: channel.progress });
  return { rejected: outcome.rejected };
});
