import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { imageHeaderOf } from '../../../../server/images/image-header';
import { passportScaleLimits, scaleImageInWorker } from '../../../../server/images/scaled-image';
import { largePng, tinyJpeg, tinyPng } from '../../../fixtures/images';

/** The colour type and the first pixel of an RGB PNG of one IDAT chunk, as the scaler writes them. */
function firstPixel(png: Uint8Array): { colourType: number; rgb: number[] } {
  const bytes = Buffer.from(png);
  const idat = bytes.indexOf('IDAT', 0, 'latin1');
  const raw = inflateSync(bytes.subarray(idat + 4, idat + 4 + bytes.readUInt32BE(idat - 4)));
  return { colourType: bytes[25] ?? -1, rgb: [...raw.subarray(1, 4)] };
}

/** Whether every pixel of an RGB PNG (as the scaler writes them: filter 0 on every row) is the mid grey of the fixtures. */
function allGrey(png: Uint8Array, width: number): boolean {
  const bytes = Buffer.from(png);
  const idat = bytes.indexOf('IDAT', 0, 'latin1');
  const raw = inflateSync(bytes.subarray(idat + 4, idat + 4 + bytes.readUInt32BE(idat - 4)));
  return raw.every((value, at) => (at % (width * 3 + 1) === 0 ? value === 0 : value === 0x80));
}

/** The same PNG of grey with alpha made fully transparent: every alpha sample 0. */
async function transparent(png: Buffer): Promise<Buffer> {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const row = Buffer.alloc(1 + width * 2, 0x80);
  row[0] = 0;
  for (let x = 0; x < width; x++) row[2 + x * 2] = 0;
  const data = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const idat = Buffer.alloc(12 + data.length);
  idat.writeUInt32BE(data.length, 0);
  idat.write('IDAT', 4, 'latin1');
  data.copy(idat, 8);
  const at = png.indexOf('IDAT', 0, 'latin1') - 4;
  return Buffer.concat([png.subarray(0, at), idat, png.subarray(at + 12 + png.readUInt32BE(at))]);
}

describe('scaleImageInWorker', () => {
  it('scales a large PNG with alpha down to the longer side, as an opaque RGB PNG', async () => {
    const scaled = await scaleImageInWorker(await largePng(8000, 5000, 4), passportScaleLimits);
    if (scaled.type !== 'scaled') throw new Error(scaled.message);
    expect({ width: scaled.width, height: scaled.height }).toEqual({ width: 1600, height: 1000 });
    expect(imageHeaderOf(scaled.png)).toEqual({ format: 'png', width: 1600, height: 1000 });
    expect(firstPixel(scaled.png)).toEqual({ colourType: 2, rgb: [0x80, 0x80, 0x80] });
  }, 60_000);

  it('keeps a small image at its size, and reads JPEG', async () => {
    expect(await scaleImageInWorker(tinyPng(3, 2), passportScaleLimits)).toMatchObject({ type: 'scaled', width: 3, height: 2 });
    const jpeg = await scaleImageInWorker(tinyJpeg(), passportScaleLimits);
    expect(jpeg).toMatchObject({ type: 'scaled', width: 8, height: 8 });
    if (jpeg.type === 'scaled') expect(firstPixel(jpeg.png).rgb).toEqual([0x80, 0x80, 0x80]);
  }, 60_000);

  it('turns a JPEG upright by its EXIF orientation, as pdfkit did', async () => {
    expect(await scaleImageInWorker(tinyJpeg({ width: 32, height: 16 }), passportScaleLimits)).toMatchObject({ type: 'scaled', width: 32, height: 16 });
    for (const orientation of [3, 6, 7]) {
      const upright = await scaleImageInWorker(tinyJpeg({ width: 32, height: 16 }, orientation), passportScaleLimits);
      if (upright.type !== 'scaled') throw new Error(upright.message);
      expect([upright.width, upright.height]).toEqual(orientation === 3 ? [32, 16] : [16, 32]);
      // The turned image fills the whole picture: nothing of it falls outside.
      expect(allGrey(upright.png, upright.width)).toBe(true);
    }
  }, 60_000);

  it('refuses an image over its pixel cap by the header, without decoding it', async () => {
    const started = Date.now();
    const refused = await scaleImageInWorker(await largePng(10_000, 10_000), passportScaleLimits);
    expect(refused).toEqual({ type: 'refused', message: 'it is 10000 × 10000 pixels, more than the 40000000 a passport takes' });
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('decodes a JPEG whole only up to its own cap, while a PNG of any allowed size is read row by row', async () => {
    const limits = { ...passportScaleLimits, maxDecodedPixels: 100 };
    expect(await scaleImageInWorker(tinyJpeg({ width: 16, height: 8 }), limits)).toEqual({
      type: 'refused',
      message: 'it is 16 × 8 pixels, and a JPEG is decoded whole, which a passport does up to 100 pixels',
    });
    expect(await scaleImageInWorker(await largePng(20, 10, 4), limits)).toMatchObject({ type: 'scaled', width: 20, height: 10 });
  }, 60_000);

  it('refuses what is no image, or whose pixels cannot be read', async () => {
    expect(await scaleImageInWorker(Buffer.from('not an image'), passportScaleLimits)).toEqual({ type: 'refused', message: 'it is neither a PNG nor a JPEG image' });
    const broken = Buffer.from(tinyPng(4, 4));
    const idat = broken.indexOf('IDAT', 0, 'latin1');
    broken.fill(0xaa, idat + 4, idat + 4 + broken.readUInt32BE(idat - 4));
    expect(await scaleImageInWorker(broken, passportScaleLimits)).toMatchObject({ type: 'refused', message: expect.stringMatching(/^it has broken image data/) });
    const invisible = await scaleImageInWorker(await largePng(20, 10, 4).then(transparent), passportScaleLimits);
    expect(invisible).toEqual({ type: 'refused', message: 'its pixels could not be read' });
  }, 60_000);
});
