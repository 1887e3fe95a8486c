/**
 * The worker thread that scales an image down for a passport (scaled-image.ts starts it): the header is read first and
 * an image over the pixel cap is refused before a pixel is decoded. A PNG is scaled as its rows inflate (png-rows.ts),
 * so its size costs no memory; a JPEG, and a PNG that reader does not take (interlaced, under 8 bits a sample), is
 * decoded whole by resvg and drawn at the target size, upright (a JPEG's EXIF orientation). Either way it is laid on
 * white and answered as an opaque RGB PNG, which pdfkit embeds without decoding it again.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Resvg } from '@resvg/resvg-js';
import { encodeRgbPng } from '../passports/png';
import { jpegOrientation, uprightTransform } from './exif-orientation';
import { imageHeaderOf, UnreadableImageError } from './image-header';
import { scalePngByRows, type OpaquePicture } from './png-rows';
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

async function scale({ bytes, maxPixels, maxDecodedPixels, maxSide }: ScaleRequest): Promise<ScaleResult> {
  const header = imageHeaderOf(bytes);
  if (header.width * header.height > maxPixels) {
    return { type: 'refused', message: `it is ${header.width} × ${header.height} pixels, more than the ${maxPixels} a passport takes` };
  }
  const size = fittedSize(header.width, header.height, maxSide);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const byRows =
    header.format === 'png'
      ? await scalePngByRows(buffer, size.width, size.height).catch((error: unknown) => {
          throw new UnreadableImageError(`has broken image data (${error instanceof Error ? error.message : String(error)})`);
        })
      : undefined;
  if (byRows === undefined && header.width * header.height > maxDecodedPixels) {
    return {
      type: 'refused',
      message: `it is ${header.width} × ${header.height} pixels, and a ${header.format === 'png' ? 'PNG of its kind' : 'JPEG'} is decoded whole, which a passport does up to ${maxDecodedPixels} pixels`,
    };
  }
  const picture = byRows ?? wholeImageScaled(buffer, header.format, size);
  // resvg draws nothing for an image it cannot decode: such an image is left out, as is one that shows nothing.
  if (!picture.visible) return { type: 'refused', message: 'its pixels could not be read' };
  const png = encodeRgbPng(picture.rgba, picture.width, picture.height);
  return { type: 'scaled', png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width: picture.width, height: picture.height };
}

/** The image decoded whole by resvg and drawn at `size`, upright (a JPEG's EXIF orientation), over white. */
function wholeImageScaled(bytes: Buffer, format: 'png' | 'jpeg', size: { width: number; height: number }): OpaquePicture & { visible: boolean } {
  const upright = uprightTransform(format === 'jpeg' ? jpegOrientation(bytes) : 1, size.width, size.height);
  const source = `data:image/${format};base64,${bytes.toString('base64')}`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${upright.width}" height="${upright.height}">` +
    `<image href="${source}" width="${size.width}" height="${size.height}" preserveAspectRatio="none" transform="${upright.transform}"/></svg>`;
  const rendered = new Resvg(svg).render();
  const rgba = Buffer.from(rendered.pixels);
  return { rgba, width: rendered.width, height: rendered.height, visible: overWhite(rgba) };
}

const port = parentPort;
if (port === null) throw new Error('The image scaler runs as a worker thread, started by scaled-image.ts.');
const refusal = (error: unknown): ScaleResult => ({
  type: 'refused',
  message: error instanceof UnreadableImageError ? `it ${error.message}` : error instanceof Error ? error.message : String(error),
});
scale(workerData as ScaleRequest).then(
  (result) => port.postMessage(result, result.type === 'scaled' ? [result.png.buffer as ArrayBuffer] : []),
  (error: unknown) => port.postMessage(refusal(error)),
);
