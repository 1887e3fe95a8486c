/**
 * An image scaled down in a worker thread of its own, for a passport: decoding a photo of tens of megapixels takes
 * seconds and hundreds of megabytes, which the API's event loop must never spend. The worker reads the header first
 * and refuses more than `maxPixels`, so an image stored before uploads were checked cannot take the process down.
 */
import { Worker } from 'node:worker_threads';
import type { ScaleRequest, ScaleResult } from './scale-messages';

/** The limits of one scaling. */
export interface ScaleLimits {
  /** Pixels the image may have by its header. */
  maxPixels: number;
  /** Pixels of the result on its longer side. */
  maxSide: number;
  /** How long the worker may take before it is stopped. */
  timeoutMs: number;
}

/** Passports: the upload limit of 40 megapixels; 1,600 pixels on the longer side, about 3 per point of the page's width. */
export const passportScaleLimits: ScaleLimits = { maxPixels: 40_000_000, maxSide: 1600, timeoutMs: 60_000 };

/**
 * The worker's JavaScript heap: the image's bytes and their base64 text live there (about 2.4× a 20 MiB image); the
 * decoded pixels are resvg's own memory, bounded by `maxPixels`.
 */
const WORKER_HEAP_MB = 160;

/**
 * Starts the worker next to this module: from TypeScript sources (tsx, vitest) it registers tsx itself before loading
 * `image-scale-worker.ts`; compiled, it is `image-scale-worker.js` beside the bundle.
 */
function startScaleWorker(request: ScaleRequest): Worker {
  const here = import.meta.url;
  const options = { workerData: request, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!here.endsWith('.ts')) return new Worker(new URL('./image-scale-worker.js', here), options);
  const workerUrl = new URL('./image-scale-worker.ts', here).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** Scales `bytes` (a PNG or JPEG) in a worker thread; answers the scaled PNG, or why there is none. Never rejects. */
export function scaleImageInWorker(bytes: Uint8Array, limits: ScaleLimits): Promise<ScaleResult> {
  return new Promise((resolve) => {
    const worker = startScaleWorker({ bytes, maxPixels: limits.maxPixels, maxSide: limits.maxSide });
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
