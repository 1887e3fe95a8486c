/**
 * IFC import: checks the file, then reads it in a worker thread (ifc-worker.ts, run by import-worker.ts: our own STEP
 * reader, web-ifc only for geometry) so the API stays responsive while a large model is read, and forwards the
 * elements to the sink batch by batch. Rules for what becomes an element: ./README.md.
 */
import { runImportWorker, type ImportBudget } from './import-worker';
import type { ImportOutcome, ImportSink } from './imported-element';
import { checkIfcFile } from './ifc/step-file';
import type { ImportWorkerData } from './worker-messages';

/** Elements per batch handed to the sink. */
const BATCH_SIZE = 500;
/**
 * The worker's young generation (V8's default is 48 MB): every line is read as fresh short-lived objects, and a
 * larger nursery scavenges less often. About 5–10 % faster on a 130 MB file, for ~20 MB more RSS.
 */
const YOUNG_GENERATION_MB = 96;

/**
 * The worker's old generation, from the file's size. Without a limit of its own V8 sizes the heap by the machine's
 * memory and lets dead lines pile up: a 120 MiB file peaked at 0.5 GiB where its live objects never reach 128 MB; with
 * a limit of 1 GiB the same reading peaks at 0.35 GiB in the same time. What a reading keeps alive (the relations, a
 * batch) stays under the file's size, so twice the file plus a margin leaves it room at any size the server takes.
 */
export function oldGenerationMbFor(fileBytes: number): number {
  return Math.max(1_024, Math.ceil((2 * fileBytes) / (1024 * 1024)) + 256);
}

export interface ImportIfcOptions {
  /** Aborting terminates the worker; the import then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The worker's temporary folder, disk and time (import-worker.ts). */
  budget?: ImportBudget | undefined;
}

/**
 * Imports the IFC file at `filePath` into `sink`. Rejects with UnknownImportFileError when the file is not a complete
 * IFC2X3/IFC4/IFC4X3 STEP file (empty, binary, truncated, other schema, unreadable model), with an Error naming the
 * cause when reading fails otherwise (including a worker crash), and with the abort reason when `signal` aborts.
 * Duplicate GlobalIds: the first element is kept, the others are listed in `rejected`.
 */
export async function importIfc(filePath: string, sink: ImportSink, options: ImportIfcOptions = {}): Promise<ImportOutcome> {
  const { signal, budget } = options;
  signal?.throwIfAborted();
  const { size } = await checkIfcFile(filePath);
  signal?.throwIfAborted();
  const workerData: ImportWorkerData = { filePath, fileName: filePath, batchSize: BATCH_SIZE };
  return runImportWorker(
    { entry: 'ifc-worker', workerData, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: oldGenerationMbFor(size) }, reader: 'IFC reader', file: 'IFC file', signal, budget },
    sink,
  );
}
