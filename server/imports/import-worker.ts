/**
 * Runs an importer in a worker thread and forwards what it reads to the sink, batch by batch: the API stays responsive
 * while a large file is read, and the worker's memory is its own, limited, so a file that would take more than an
 * import may use ends that import (ImportTooLargeError) instead of the process. The worker waits for each batch to be
 * taken before it reads on, so a slow sink slows the reader and memory stays bounded.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { ImportTooLargeError, UnknownImportFileError, type ImportOutcome, type ImportSink } from './imported-element';
import { folderBytes } from './import-temp';
import { unpackParts } from './part-batches';
import type { MainToWorker, WorkerToMain } from './worker-messages';
import { startWorkerBeside } from '../worker-thread';

/** The importers that run in a worker: each has `<entry>.ts` (sources) or `<entry>.js` (bundle) beside this module. */
export type ImportWorkerEntry = 'ifc-worker' | 'sheet-worker';

/** What a worker is started with. */
export interface ImportWorkerSpec {
  entry: ImportWorkerEntry;
  workerData: unknown;
  resourceLimits: ResourceLimits;
  /** The reader in words, for messages: "The IFC reader crashed". */
  reader: string;
  /** The file in words: "The IFC file could not be read". */
  file: string;
  signal?: AbortSignal | undefined;
  budget?: ImportBudget | undefined;
}

/**
 * What one import may use besides memory: its worker's temporary files go to `tempFolder` (its `os.tmpdir()`), which may
 * hold at most `diskBytes`, and it may run `timeMs`. Past either the worker is stopped and the import ends with an
 * ImportTooLargeError naming the limit.
 */
export interface ImportBudget {
  tempFolder: string;
  diskBytes: number;
  timeMs: number;
}

/**
 * What an import's temporary files may take: 8 times the file, at least 16 MiB (a small file's worker still writes a
 * few, e.g. tsx's compiled modules when run from sources) and at most 1 GiB.
 */
export function diskBudgetFor(fileBytes: number): number {
  return Math.min(Math.max(8 * fileBytes, 16 * 1024 ** 2), 1024 ** 3);
}

/** How often the temporary folder is measured: a writer at disk speed (~1 GB/s) is stopped within ~0.2 GB past the budget. */
const DISK_CHECK_MS = 200;

function budgetText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.floor(bytes / (1024 * 1024))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function durationText(ms: number): string {
  const [count, unit] = ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** Starts the importer's worker next to this module (server/worker-thread.ts), its temporary files in `tempFolder`. */
function startWorker(entry: ImportWorkerEntry, workerData: unknown, resourceLimits: ResourceLimits, tempFolder: string | undefined): Worker {
  // The worker's process.env is its own copy: `os.tmpdir()` there, and every library's temporary file, is the import's.
  const env = tempFolder === undefined ? process.env : { ...process.env, TMPDIR: tempFolder, TMP: tempFolder, TEMP: tempFolder };
  return startWorkerBeside(import.meta.url, entry, { workerData, resourceLimits, env });
}

/** The error a worker's `failed` stands for. */
function failure(message: WorkerToMain & { type: 'failed' }, file: string): Error {
  switch (message.reason) {
    case 'unknown-file':
      return new UnknownImportFileError(message.message);
    case 'too-large':
      return new ImportTooLargeError(message.message);
    case 'error':
      return new Error(`The ${file} could not be read: ${message.message}`);
  }
}

/**
 * Runs the importer `spec.entry` into `sink`. Rejects with UnknownImportFileError when the worker says the file is no
 * importable file, ImportTooLargeError when it ran out of its memory or its budget (past a limit of a workbook's, its
 * disk, its time), an Error naming the cause when reading fails
 * otherwise (a crash included), and the abort reason when the signal aborts. The worker is terminated in every case.
 */
export function runImportWorker(spec: ImportWorkerSpec, sink: ImportSink): Promise<ImportOutcome> {
  const { signal } = spec;
  return new Promise<ImportOutcome>((resolve, reject) => {
    const { budget } = spec;
    const worker = startWorker(spec.entry, spec.workerData, spec.resourceLimits, budget?.tempFolder);
    let settled = false;
    let total = 0;
    let delivered = 0;
    // The source's elements the batches taken so far complete (a split element's parts count as one).
    let completed = 0;

    const finish = (outcome: { value: ImportOutcome } | { error: unknown }): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(timeLimit);
      clearInterval(diskCheck);
      // Terminate in every case: after `done` the worker is exiting anyway; otherwise it must not read on.
      void worker.terminate();
      if ('value' in outcome) resolve(outcome.value);
      else reject(outcome.error);
    };
    const onAbort = (): void => finish({ error: signal?.reason ?? new Error(`The import of the ${spec.file} was aborted.`) });
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeLimit =
      budget === undefined
        ? undefined
        : setTimeout(
            () =>
              finish({
                error: new ImportTooLargeError(
                  `The import took longer than the ${durationText(budget.timeMs)} an import may take and was stopped; split the file into smaller files.`,
                ),
              }),
            budget.timeMs,
          );
    let measuring = false;
    const diskCheck =
      budget === undefined
        ? undefined
        : setInterval(() => {
            if (measuring) return;
            measuring = true;
            folderBytes(budget.tempFolder)
              .then((bytes) => {
                if (bytes <= budget.diskBytes) return;
                finish({
                  error: new ImportTooLargeError(
                    `The import wrote more than its disk budget of ${budgetText(budget.diskBytes)} in temporary files (8 times the file, at least 16 MB and at most 1 GB) and was stopped.`,
                  ),
                });
              })
              .catch((error: unknown) => finish({ error }))
              .finally(() => {
                measuring = false;
              });
          }, DISK_CHECK_MS);

    // The worker reads ahead while a batch is written: batches reach the sink one after another, and `done` after them.
    let delivering = Promise.resolve();
    const deliver = async (batch: WorkerToMain & { type: 'batch' }): Promise<void> => {
      if (settled) return;
      const elements = unpackParts(batch.elements);
      await sink.elements(elements);
      if (settled) return;
      delivered += elements.length;
      completed += batch.completes ?? elements.length;
      // A reader that knows its total reports against it; one that does not sends its own progress.
      if (total > 0) sink.progress(completed, Math.max(total, completed));
      const ack: MainToWorker = { type: 'ack' };
      worker.postMessage(ack);
    };
    // An event listener must not throw: that would take the whole process down.
    const report = (processed: number, all: number): void => {
      try {
        sink.progress(processed, all);
      } catch (error) {
        finish({ error });
      }
    };

    worker.on('message', (message: WorkerToMain) => {
      if (settled) return;
      switch (message.type) {
        case 'start':
          total = message.total;
          report(0, total);
          break;
        case 'progress':
          report(message.processed, message.total);
          break;
        case 'batch':
          delivering = delivering.then(() => deliver(message)).catch((error: unknown) => finish({ error }));
          break;
        case 'done':
          void delivering.then(() =>
            finish({ value: message.parts === undefined ? { imported: delivered, rejected: message.rejected } : { imported: delivered, rejected: message.rejected, parts: message.parts } }),
          );
          break;
        case 'failed':
          finish({ error: failure(message, spec.file) });
          break;
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        const limit = spec.resourceLimits.maxOldGenerationSizeMb;
        finish({
          error: new ImportTooLargeError(
            `The file needs more memory than an import may use${limit === undefined ? '' : ` (${limit} MB)`}; split it into smaller files.`,
          ),
        });
        return;
      }
      finish({ error: new Error(`The ${spec.reader} crashed: ${error.message}`, { cause: error }) });
    });
    worker.on('messageerror', (error) => finish({ error: new Error(`The ${spec.reader} sent an unreadable message: ${error.message}`) }));
    // After `done` the worker exits while its last batches may still be written: `done` settles first, once they are.
    worker.on('exit', (code) => void delivering.then(() => finish({ error: new Error(`The ${spec.reader} stopped unexpectedly (exit code ${code}).`) })));
  });
}
