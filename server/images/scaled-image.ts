/**
 * An image scaled down in a worker thread of its own, for a passport: decoding a photo of tens of megapixels takes
 * seconds and hundreds of megabytes, which the API's event loop must never spend. The worker reads the header first
 * and refuses more than `maxPixels`, so an image stored before uploads were checked cannot take the process down.
 */
import { startWorkerBeside } from '../worker-thread';
import type { ScaleRequest, ScaleResult } from './scale-messages';

/** The limits of one scaling. */
export interface ScaleLimits {
  /** Pixels the image may have by its header. */
  maxPixels: number;
  /** Pixels an image decoded whole may have (a JPEG, a PNG the row reader does not take): about 7 bytes each. */
  maxDecodedPixels: number;
  /** Pixels of the result on its longer side. */
  maxSide: number;
  /** How long the worker may take before it is stopped. */
  timeoutMs: number;
}

/**
 * Passports: the upload limit of 40 megapixels, 24 of them for an image decoded whole (about 170 MB); 1,600 pixels on
 * the longer side, about 3 per point of the page's width.
 */
export const passportScaleLimits: ScaleLimits = { maxPixels: 40_000_000, maxDecodedPixels: 24_000_000, maxSide: 1600, timeoutMs: 60_000 };

/**
 * The worker's JavaScript heap: the image's bytes and their base64 text live there (about 2.4× a 20 MiB image); the
 * decoded pixels are resvg's own memory, bounded by `maxPixels`.
 */
const WORKER_HEAP_MB = 160;

/** Scales `bytes` (a PNG or JPEG) in a worker thread; answers the scaled PNG, or why there is none. Never rejects. */
export function scaleImageInWorker(bytes: Uint8Array, limits: ScaleLimits): Promise<ScaleResult> {
  return new Promise((resolve) => {
    const worker = startWorkerBeside(import.meta.url, 'image-scale-worker', {
      workerData: { bytes, maxPixels: limits.maxPixels, maxDecodedPixels: limits.maxDecodedPixels, maxSide: limits.maxSide } satisfies ScaleRequest,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    let settled = false;
    const settle = (result: ScaleResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => settle({ type: 'refused', message: `scaling it took more than ${limits.timeoutMs / 1000} seconds` }), limits.timeoutMs);
    worker.once('message', (result: ScaleResult) => settle(result));
    worker.once('error', (error: Error & { code?: string }) =>
      settle({ type: 'refused', message: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'scaling it needed more memory than it may use' : `the scaler failed: ${error.message}` }),
    );
    worker.once('exit', (code) => settle({ type: 'refused', message: `the scaler stopped (exit code ${code})` }));
  });
}
