/**
 * What an import worker and the thread that started it say to each other. The worker sends `start` once it knows how
 * many elements it will deliver (an importer that does not know sends `progress` as it goes), then one `batch` at a
 * time and waits for an `ack` before reading on (backpressure: at most one batch is in flight), then `done` or `failed`.
 */
import type { ImportPartsFindings } from '../../shared/api';
import type { PackedElement } from './part-batches';

/** Handed to a worker at start. */
export interface ImportWorkerData {
  filePath: string;
  /** The name the file was uploaded under: a spreadsheet's kind and its CSV sheet's name come from it. */
  fileName: string;
  batchSize: number;
}

export type WorkerToMain =
  | { type: 'start'; total: number }
  | { type: 'progress'; processed: number; total: number }
  /**
   * The elements with each split element's parts packed (part-batches.ts); `completes`: how many of the source's
   * elements the batch completes, where its elements are parts of them (IFC).
   */
  | { type: 'batch'; elements: PackedElement[]; completes?: number }
  | { type: 'done'; rejected: string[]; parts?: ImportPartsFindings }
  /** `reason`: the file is no importable file, or it is past a limit of what an import may use, or reading failed. */
  | { type: 'failed'; reason: 'unknown-file' | 'too-large' | 'error'; message: string };

export type MainToWorker = { type: 'ack' };
