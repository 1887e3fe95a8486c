/**
 * PNG encoding of the charts' pixels: RGB without alpha, because pdfkit would decode every pixel of an RGBA PNG to split
 * off a soft mask.
 */
import { crc32, deflateSync } from 'node:zlib';

/** An RGB PNG (8 bits per channel, no filter) from opaque RGBA pixels, dropping the alpha byte. */
export function encodeRgbPng(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height); // each row starts with filter type 0, already 0
  for (let y = 0; y < height; y++) {
    let target = y * stride + 1;
    let source = y * width * 4;
    for (let x = 0; x < width; x++, source += 4, target += 3) {
      raw[target] = rgba[source] ?? 0;
      raw[target + 1] = rgba[source + 1] ?? 0;
      raw[target + 2] = rgba[source + 2] ?? 0;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 6 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}
