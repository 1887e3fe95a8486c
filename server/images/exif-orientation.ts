/**
 * The EXIF orientation of a JPEG: how a camera says its pixels must be turned or mirrored to be shown upright (1 as
 * stored … 8). pdfkit honoured it when it embedded photos itself; resvg, which scales them now, does not.
 */

/** An EXIF orientation, 1 (as stored) to 8. */
export type ExifOrientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

const ORIENTATION_TAG = 0x0112;

/** The orientation in a TIFF block (an EXIF payload after its `Exif\0\0`), or 1. */
function tiffOrientation(tiff: Buffer): ExifOrientation {
  if (tiff.length < 8) return 1;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const u16 = (at: number): number => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number): number => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const entries = u16(ifd);
  for (let index = 0; index < entries; index++) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > tiff.length) return 1;
    if (u16(entry) !== ORIENTATION_TAG) continue;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? (value as ExifOrientation) : 1;
  }
  return 1;
}

/** The orientation of a JPEG held in memory, from its first EXIF segment before the image data; 1 without one. */
export function jpegOrientation(bytes: Uint8Array): ExifOrientation {
  const jpeg = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return 1;
    const marker = jpeg[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return 1;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = jpeg.readUInt16BE(at + 2);
    const payload = jpeg.subarray(at + 4, at + 2 + length);
    if (marker === 0xe1 && payload.toString('latin1', 0, 6) === 'Exif\0\0') return tiffOrientation(payload.subarray(6));
    at += 2 + length;
  }
  return 1;
}

/**
 * The SVG transform that draws an image of `width`×`height` stored pixels upright, and the size it then takes:
 * orientations 5 to 8 turn it by a quarter, so width and height swap.
 */
export function uprightTransform(orientation: ExifOrientation, width: number, height: number): { transform: string; width: number; height: number } {
  const w = width;
  const h = height;
  switch (orientation) {
    case 1:
      return { transform: 'matrix(1 0 0 1 0 0)', width: w, height: h };
    case 2:
      return { transform: `matrix(-1 0 0 1 ${w} 0)`, width: w, height: h };
    case 3:
      return { transform: `matrix(-1 0 0 -1 ${w} ${h})`, width: w, height: h };
    case 4:
      return { transform: `matrix(1 0 0 -1 0 ${h})`, width: w, height: h };
    case 5:
      return { transform: 'matrix(0 1 1 0 0 0)', width: h, height: w };
    case 6:
      return { transform: `matrix(0 1 -1 0 ${h} 0)`, width: h, height: w };
    case 7:
      return { transform: `matrix(0 -1 -1 0 ${h} ${w})`, width: h, height: w };
    case 8:
      return { transform: `matrix(0 -1 1 0 0 ${w})`, width: h, height: w };
  }
}
