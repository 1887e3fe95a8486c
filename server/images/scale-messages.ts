/** What the image scaler's worker thread is given and what it answers (image-scale-worker.ts, scaled-image.ts). */

/**
 * The image and the limits: at most `maxPixels` by its header, and at most `maxDecodedPixels` when it must be decoded
 * whole (a JPEG, a PNG the row reader does not take); scaled to at most `maxSide` pixels on its longer side.
 */
export interface ScaleRequest {
  bytes: Uint8Array;
  maxPixels: number;
  maxDecodedPixels: number;
  maxSide: number;
}

/** The scaled image as an opaque RGB PNG, or why there is none (a sentence's end: "it is 9000 × 9000 pixels, …"). */
export type ScaleResult =
  | { type: 'scaled'; png: Uint8Array; width: number; height: number }
  | { type: 'refused'; message: string };
