import { describe, expect, it } from 'vitest';
import { ImageHeaderReader, imageHeaderOf, UnreadableImageError } from '../../../../server/images/image-header';
import { largePng, tinyJpeg, tinyPng } from '../../../fixtures/images';

/** Pushes `bytes` in chunks of `size`, answering the header once the reader knows it (and how many bytes it took). */
function inChunks(bytes: Uint8Array, size: number): { header: ReturnType<ImageHeaderReader['end']>; pushed: number } {
  const reader = new ImageHeaderReader();
  for (let at = 0; at < bytes.length; at += size) {
    const header = reader.push(bytes.subarray(at, at + size));
    if (header !== undefined) return { header, pushed: Math.min(bytes.length, at + size) };
  }
  return { header: reader.end(), pushed: bytes.length };
}

/** A JPEG with an APP1 segment of `length` bytes before its frame header, as cameras write EXIF. */
function jpegWithApp1(length: number): Uint8Array {
  const jpeg = tinyJpeg({ width: 4000, height: 3000 });
  const app1 = Buffer.alloc(length + 4, 0xab);
  app1.set([0xff, 0xe1, (length + 2) >> 8, (length + 2) & 0xff], 0);
  return Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
}

describe('image headers', () => {
  it('reads a PNG by its signature and IHDR, from its first 24 bytes', async () => {
    expect(imageHeaderOf(tinyPng(3, 2))).toEqual({ format: 'png', width: 3, height: 2 });
    const bomb = await largePng(10_000, 10_000);
    expect(bomb.length).toBeLessThan(400_000);
    expect(inChunks(bomb, 5)).toEqual({ header: { format: 'png', width: 10_000, height: 10_000 }, pushed: 25 });
  });

  it('reads a JPEG from its frame header, skipping the segments before it byte by byte or all at once', () => {
    expect(imageHeaderOf(tinyJpeg())).toEqual({ format: 'jpeg', width: 8, height: 8 });
    const jpeg = jpegWithApp1(60_000);
    for (const size of [1, 7, 4096, jpeg.length]) {
      expect(inChunks(jpeg, size).header).toEqual({ format: 'jpeg', width: 4000, height: 3000 });
    }
  });

  it('knows the format by the bytes alone, and says what is wrong with others', () => {
    const refusal = (bytes: Uint8Array): string => {
      try {
        imageHeaderOf(bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(UnreadableImageError);
        return (error as Error).message;
      }
      throw new Error('no refusal');
    };
    expect(refusal(new Uint8Array())).toBe('is empty');
    expect(refusal(Buffer.from('GIF89a\x01\x00\x01\x00'))).toBe('is neither a PNG nor a JPEG image');
    expect(refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('is neither a PNG nor a JPEG image');
    expect(refusal(tinyPng().subarray(0, 20))).toMatch(/ends before its PNG header/);
    expect(refusal(tinyJpeg().subarray(0, 30))).toMatch(/ends before its JPEG header/);
    expect(refusal(tinyPng(0, 5))).toMatch(/0 × 5 pixels, which is no image/);
    const sosFirst = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]);
    expect(refusal(sosFirst)).toMatch(/image data comes before a frame header/);
    const pngWithoutIhdr = Buffer.from(tinyPng());
    pngWithoutIhdr.write('IDAT', 12, 'latin1');
    expect(refusal(pngWithoutIhdr)).toMatch(/does not start with its IHDR chunk/);
  });
});
