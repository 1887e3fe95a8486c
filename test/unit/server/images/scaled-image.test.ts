import { inflateSync } from 'node:zlib';
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

  it('refuses what is no image, or whose pixels cannot be read', async () => {
    expect(await scaleImageInWorker(Buffer.from('not an image'), passportScaleLimits)).toEqual({ type: 'refused', message: 'it is neither a PNG nor a JPEG image' });
    const broken = Buffer.from(tinyPng(4, 4));
    const idat = broken.indexOf('IDAT', 0, 'latin1');
    broken.fill(0xaa, idat + 4, idat + 4 + broken.readUInt32BE(idat - 4));
    expect(await scaleImageInWorker(broken, passportScaleLimits)).toEqual({ type: 'refused', message: 'its pixels could not be read' });
  }, 60_000);
});
