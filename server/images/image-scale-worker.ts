/**
 * The worker thread that scales an image down for a passport (scaled-image.ts starts it): the header is read first and
 * an image over the pixel cap is refused before a pixel is decoded; otherwise resvg decodes it and draws it at the
 * target size, upright (a JPEG's EXIF orientation), on white, and it is answered as an opaque RGB PNG, which pdfkit
 * embeds without decoding it again.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Resvg } from '@resvg/resvg-js';
import { encodeRgbPng } from '../passports/png';
import { jpegOrientation, uprightTransform } from './exif-orientation';
import { imageHeaderOf, UnreadableImageError } from './image-header';
import type { ScaleRequest, ScaleResult } from './scale-messages';

/** The size that fits the image into `maxSide` on its longer side, never larger than it is. */
function fittedSize(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Lays each pixel over white, in place; answers whether any pixel was not fully transparent. */
function overWhite(rgba: Buffer): boolean {
  let visible = false;
  for (let at = 0; at < rgba.length; at += 4) {
    const alpha = rgba[at + 3] ?? 0;
    if (alpha !== 0) visible = true;
    if (alpha === 255) continue;
    for (let channel = at; channel < at + 3; channel++) {
      rgba[channel] = Math.round(((rgba[channel] ?? 0) * alpha + 255 * (255 - alpha)) / 255);
    }
    rgba[at + 3] = 255;
  }
  return visible;
}

function scale({ bytes, maxPixels, maxSide }: ScaleRequest): ScaleResult {
  const header = imageHeaderOf(bytes);
  if (header.width * header.height > maxPixels) {
    return { type: 'refused', message: `it is ${header.width} × ${header.height} pixels, more than the ${maxPixels} a passport takes` };
  }
  const size = fittedSize(header.width, header.height, maxSide);
  const upright = uprightTransform(header.format === 'jpeg' ? jpegOrientation(bytes) : 1, size.width, size.height);
  const source = `data:image/${header.format};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${upright.width}" height="${upright.height}">` +
    `<image href="${source}" width="${size.width}" height="${size.height}" preserveAspectRatio="none" transform="${upright.transform}"/></svg>`;
  const rendered = new Resvg(svg).render();
  const pixels = Buffer.from(rendered.pixels);
  // resvg draws nothing for an image it cannot decode: such an image is left out, as is one that shows nothing.
  if (!overWhite(pixels)) return { type: 'refused', message: 'its pixels could not be read' };
  const png = encodeRgbPng(pixels, rendered.width, rendered.height);
  return { type: 'scaled', png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width: rendered.width, height: rendered.height };
}

const port = parentPort;
if (port === null) throw new Error('The image scaler runs as a worker thread, started by scaled-image.ts.');
let result: ScaleResult;
try {
  result = scale(workerData as ScaleRequest);
} catch (error) {
  result = { type: 'refused', message: error instanceof UnreadableImageError ? `it ${error.message}` : error instanceof Error ? error.message : String(error) };
}
port.postMessage(result, result.type === 'scaled' ? [result.png.buffer as ArrayBuffer] : []);
