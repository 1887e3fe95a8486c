/**
 * The worker side of an import worker (import-worker.ts starts it): the channel an importer hands its elements to, and
 * the end of the run — `done` with what was rejected, or `failed` with the reason (an UnknownImportFileError says the
 * file is no importable file at all, an ImportTooLargeError that it is past a limit).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ImportTooLargeError, UnknownImportFileError, type ImportedElement, type ImportOutcome } from './imported-element';
import { packParts } from './part-batches';
import type { ImportWorkerData, MainToWorker, WorkerToMain } from './worker-messages';

/** What an importer in a worker reports to the thread that started it. */
export interface WorkerChannel {
  /** How many elements will be delivered at most, once known. */
  start(total: number): void;
  /**
   * Hands a batch over and resolves once the worker may read the next: at once while the thread that started it has
   * fewer than BATCHES_AHEAD batches still to take, else once it took one. `completes`: how many of the source's
   * elements it completes, when its elements are parts of them (else each counts as one).
   */
  batch(elements: ImportedElement[], completes?: number): Promise<void>;
  /** Progress of an importer that does not know its total. */
  progress(processed: number, total: number): void;
}

/**
 * Batches handed over and not yet taken: one being written while the worker reads the next, so reading and writing
 * overlap; more would only hold memory, since the writing thread takes them one at a time.
 */
const BATCHES_AHEAD = 2;

/** Runs `work` as this worker's import: its rejected rows (and parts) end the run as `done`, a throw as `failed`. */
export function runImportInWorker(work: (data: ImportWorkerData, channel: WorkerChannel) => Promise<Omit<ImportOutcome, 'imported'>>): void {
  const port = parentPort;
  if (port === null) throw new Error('An import worker runs as a worker thread, started by import-worker.ts.');
  const send = (message: WorkerToMain): void => port.postMessage(message);
  let untaken = 0;
  let whenTaken: (() => void) | null = null;
  port.on('message', (message: MainToWorker) => {
    if (message.type !== 'ack') return;
    untaken -= 1;
    const resolve = whenTaken;
    whenTaken = null;
    resolve?.();
  });
  const channel: WorkerChannel = {
    start: (total) => send({ type: 'start', total }),
    batch: (elements, completes) => {
      const packed = packParts(elements);
      send(completes === undefined ? { type: 'batch', elements: packed } : { type: 'batch', elements: packed, completes });
      untaken += 1;
      if (untaken < BATCHES_AHEAD) return Promise.resolve();
      return new Promise<void>((resolve) => {
        whenTaken = resolve;
      });
    },
    progress: (processed, total) => send({ type: 'progress', processed, total }),
  };
  work(workerData as ImportWorkerData, channel).then(
    ({ rejected, parts }) => {
      send(parts === undefined ? { type: 'done', rejected } : { type: 'done', rejected, parts });
      port.close();
    },
    (error: unknown) => {
      const reason = error instanceof UnknownImportFileError ? 'unknown-file' : error instanceof ImportTooLargeError ? 'too-large' : 'error';
      send({ type: 'failed', reason, message: error instanceof Error ? error.message : String(error) });
      port.close();
    },
  );
}
