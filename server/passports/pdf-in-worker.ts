/**
 * The passport PDFs written in a worker thread of their own: drawing the charts and laying out the pages takes 0.3–0.6 s
 * of uninterrupted work per passport, which would hold up every request of the API process meanwhile.
 */
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { startWorkerBeside } from '../worker-thread';
import type { PassportPdfMessage, PassportPdfRequest } from './pdf-worker-messages';

/** The worker's JavaScript heap: the passport's figures, its charts and pdfkit's pages. */
const WORKER_HEAP_MB = 256;

/**
 * Writes the passport PDF of `request` to `output` in a worker thread and resolves once `output` has finished, as
 * `writeBuildingPassportPdf` does. On failure `output` is destroyed with the error and the promise rejects; so it is
 * when `signal` aborts (the job was stopped or lost), and the worker is stopped with it.
 */
export function writePassportPdfInWorker(request: PassportPdfRequest, output: Writable, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startWorkerBeside(import.meta.url, 'passport-pdf-worker', {
      workerData: request,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    let settled = false;
    const onAbort = (): void => fail(new Error('The passport was stopped while it was written.'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      output.destroy(error);
      reject(error);
    };
    worker.on('message', (message: PassportPdfMessage) => {
      if (settled) return;
      switch (message.type) {
        case 'chunk':
          output.write(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
          return;
        case 'done':
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          void worker.terminate();
          output.end();
          finished(output, { readable: false }).then(resolve, reject);
          return;
        case 'failed':
          fail(new Error(message.message));
          return;
      }
    });
    worker.once('error', (error: Error & { code?: string }) =>
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new Error('The passport needed more memory than it may use.') : error),
    );
    worker.once('exit', (code) => fail(new Error(`The passport writer stopped (exit code ${code}).`)));
    if (signal?.aborted === true) onAbort();
  });
}
