/**
 * What the IFC worker and the thread that started it say to each other. The worker sends `start` once it knows how
 * many elements it will deliver, then one `batch` at a time and waits for an `ack` before reading on (backpressure:
 * at most one batch is in flight), then `done` or `failed`.
 */
import type { ImportedElement } from '../imported-element';

/** Handed to the worker at start. */
export interface IfcWorkerData {
  filePath: string;
  batchSize: number;
}

export type WorkerToMain =
  | { type: 'start'; total: number }
  | { type: 'batch'; elements: ImportedElement[] }
  | { type: 'done'; rejected: string[] }
  | { type: 'failed'; unknownFile: boolean; message: string };

export type MainToWorker = { type: 'ack' };
