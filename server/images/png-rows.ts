/**
 * A PNG scaled down as its rows inflate, never held whole: each pixel is laid over white and added to the box of the
 * smaller picture it falls in, so the memory is a row of the PNG and the smaller picture, whatever the PNG's size. A
 * decoder that keeps the whole image (resvg's) needs about six bytes a pixel: 240 MB for 40 megapixels.
 *
 * Read this way: 8 or 16 bits per sample, grey, grey with alpha, RGB, RGBA, and palettes of 8 bits; not interlaced.
 * Others answer undefined and are left to the whole-image decoder.
 */
import { createInflate } from 'node:zlib';

/** A picture as RGBA bytes, opaque. */
export interface OpaquePicture {
  rgba: Buffer;
  width: number;
  height: number;
}

/** What the chunks before the image data say. */
interface PngLayout {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlaced: boolean;
  palette: Buffer | undefined;
  paletteAlpha: Buffer | undefined;
  data: Buffer[];
}

/** The chunks of a PNG (its CRCs are not checked: a broken image draws wrong, it cannot do harm). */
function layoutOf(png: Buffer): PngLayout | undefined {
  const layout: PngLayout = { width: 0, height: 0, bitDepth: 0, colourType: 0, interlaced: false, palette: undefined, paletteAlpha: undefined, data: [] };
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, Math.min(png.length, at + 8 + length));
    if (type === 'IHDR' && body.length >= 13) {
      layout.width = body.readUInt32BE(0);
      layout.height = body.readUInt32BE(4);
      layout.bitDepth = body[8] ?? 0;
      layout.colourType = body[9] ?? 0;
      layout.interlaced = body[12] === 1;
    } else if (type === 'PLTE') layout.palette = body;
    else if (type === 'tRNS') layout.paletteAlpha = body;
    else if (type === 'IDAT') layout.data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  return layout.width > 0 && layout.height > 0 ? layout : undefined;
}

/** Samples per pixel of each colour type this reader takes. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The Paeth predictor of the PNG specification. */
function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/** Undoes a row's filter in place, against the previous row (zeros for the first). */
function unfilter(filter: number, row: Uint8Array, previous: Uint8Array, bytesPerPixel: number): void {
  for (let index = 0; index < row.length; index++) {
    const left = index >= bytesPerPixel ? (row[index - bytesPerPixel] ?? 0) : 0;
    const up = previous[index] ?? 0;
    const upLeft = index >= bytesPerPixel ? (previous[index - bytesPerPixel] ?? 0) : 0;
    const value = row[index] ?? 0;
    switch (filter) {
      case 0:
        break;
      case 1:
        row[index] = (value + left) & 0xff;
        break;
      case 2:
        row[index] = (value + up) & 0xff;
        break;
      case 3:
        row[index] = (value + ((left + up) >> 1)) & 0xff;
        break;
      case 4:
        row[index] = (value + paeth(left, up, upLeft)) & 0xff;
        break;
      default:
        throw new Error(`a row has the unknown filter type ${filter}`);
    }
  }
}

/**
 * The PNG scaled to `width`×`height` (at most its own size) over white, or undefined when this reader does not take
 * its kind. Rejects when its data is broken; answers a picture whose `visible` is false when every pixel is transparent.
 */
export async function scalePngByRows(png: Buffer, width: number, height: number): Promise<(OpaquePicture & { visible: boolean }) | undefined> {
  const layout = layoutOf(png);
  if (layout === undefined || layout.interlaced) return undefined;
  const channels = CHANNELS[layout.colourType];
  const paletted = layout.colourType === 3;
  if (channels === undefined || !(layout.bitDepth === 8 || (layout.bitDepth === 16 && !paletted))) return undefined;
  if (paletted && layout.palette === undefined) return undefined;
  const sampleBytes = layout.bitDepth / 8;
  const bytesPerPixel = channels * sampleBytes;
  const stride = layout.width * bytesPerPixel;
  const sourceWidth = layout.width;
  const sourceHeight = layout.height;

  // The box each source column falls in, and how many source pixels each box of a row gathers.
  const boxOfColumn = new Uint32Array(sourceWidth);
  for (let x = 0; x < sourceWidth; x++) boxOfColumn[x] = Math.min(width - 1, Math.floor((x * width) / sourceWidth));
  const sums = new Float64Array(width * 3);
  const counts = new Uint32Array(width);
  const rgba = Buffer.alloc(width * height * 4);
  let visible = false;
  let boxRow = 0;

  const flush = (): void => {
    for (let box = 0; box < width; box++) {
      const count = counts[box] ?? 0;
      const target = (boxRow * width + box) * 4;
      for (let channel = 0; channel < 3; channel++) {
        rgba[target + channel] = count === 0 ? 255 : Math.round((sums[box * 3 + channel] ?? 0) / count);
      }
      rgba[target + 3] = 255;
    }
    sums.fill(0);
    counts.fill(0);
  };

  const sample = (row: Uint8Array, index: number): number => row[index * sampleBytes] ?? 0;
  const addRow = (y: number, row: Uint8Array): void => {
    const rowBox = Math.min(height - 1, Math.floor((y * height) / sourceHeight));
    if (rowBox !== boxRow) {
      flush();
      boxRow = rowBox;
    }
    for (let x = 0; x < sourceWidth; x++) {
      const first = x * channels;
      let red: number;
      let green: number;
      let blue: number;
      let alpha = 255;
      if (paletted) {
        const entry = row[x] ?? 0;
        red = layout.palette?.[entry * 3] ?? 0;
        green = layout.palette?.[entry * 3 + 1] ?? 0;
        blue = layout.palette?.[entry * 3 + 2] ?? 0;
        alpha = layout.paletteAlpha?.[entry] ?? 255;
      } else if (channels <= 2) {
        red = green = blue = sample(row, first);
        if (channels === 2) alpha = sample(row, first + 1);
      } else {
        red = sample(row, first);
        green = sample(row, first + 1);
        blue = sample(row, first + 2);
        if (channels === 4) alpha = sample(row, first + 3);
      }
      if (alpha !== 0) visible = true;
      const box = boxOfColumn[x] ?? 0;
      // Over white: the colour by its opacity, white by the rest.
      const white = 255 - alpha;
      sums[box * 3] = (sums[box * 3] ?? 0) + (red * alpha) / 255 + white;
      sums[box * 3 + 1] = (sums[box * 3 + 1] ?? 0) + (green * alpha) / 255 + white;
      sums[box * 3 + 2] = (sums[box * 3 + 2] ?? 0) + (blue * alpha) / 255 + white;
      counts[box] = (counts[box] ?? 0) + 1;
    }
  };

  let previous = new Uint8Array(stride);
  let current = new Uint8Array(stride);
  let filled = -1; // -1: the filter byte is next
  let filter = 0;
  let y = 0;
  const inflater = createInflate();
  const done = new Promise<void>((resolve, reject) => {
    inflater.on('data', (chunk: Buffer) => {
      for (let at = 0; at < chunk.length && y < sourceHeight; ) {
        if (filled === -1) {
          filter = chunk[at] ?? 0;
          filled = 0;
          at += 1;
          continue;
        }
        const taken = Math.min(stride - filled, chunk.length - at);
        current.set(chunk.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled < stride) continue;
        try {
          unfilter(filter, current, previous, bytesPerPixel);
        } catch (error) {
          inflater.destroy(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        addRow(y, current);
        [previous, current] = [current, previous];
        filled = -1;
        y += 1;
      }
    });
    inflater.on('end', resolve);
    inflater.on('error', reject);
  });
  for (const part of layout.data) inflater.write(part);
  inflater.end();
  await done;
  if (y < sourceHeight) throw new Error(`its image data ends after ${y} of ${sourceHeight} rows`);
  flush();
  return { rgba, width, height, visible };
}
