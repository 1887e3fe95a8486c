/**
 * An image's format and size from its first bytes, as they arrive: the format by its signature, never by a name or a
 * declared content type, and the size from the PNG's IHDR or the JPEG's frame header, without decoding a pixel. A JPEG's
 * segments before its frame header are skipped as they stream past, so nothing of them is held.
 */

/** The image formats the server takes. */
export type ImageFormat = 'png' | 'jpeg';

/** What an image's header says. */
export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Bytes that are no image the server takes, or whose header is broken; the message says which. */
export class UnreadableImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableImageError';
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Signature, IHDR's length and type, width and height. */
const PNG_HEADER_BYTES = 8 + 8 + 8;

/** JPEG markers of a frame header (SOF0–SOF15 but DHT, JPG and DAC), which carry the image's size. */
function isFrameMarker(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** JPEG markers without a length: TEM and the restart markers. */
function isStandaloneMarker(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/** Reads the header of an image pushed to it chunk by chunk. */
export class ImageHeaderReader {
  /** Bytes received and not yet read. */
  private pending = Buffer.alloc(0);
  private format: ImageFormat | undefined;
  /** Bytes of a JPEG segment still to skip. */
  private skip = 0;
  private header: ImageHeader | undefined;

  /** Takes the next bytes; answers the header once it is known. Throws UnreadableImageError when it cannot be. */
  push(chunk: Uint8Array): ImageHeader | undefined {
    if (this.header !== undefined) return this.header;
    const fresh = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.skip >= fresh.length) {
      this.skip -= fresh.length;
      return undefined;
    }
    this.pending = Buffer.concat([this.pending, fresh.subarray(this.skip)]);
    this.skip = 0;
    this.header = this.format === undefined ? this.readSignature() : this.readOn();
    return this.header;
  }

  /** The header once every byte was pushed. Throws UnreadableImageError when the bytes ended before it. */
  end(): ImageHeader {
    if (this.header !== undefined) return this.header;
    if (this.format === undefined && this.pending.length === 0) throw new UnreadableImageError('is empty');
    if (this.format === undefined) throw new UnreadableImageError('is neither a PNG nor a JPEG image');
    throw new UnreadableImageError(`ends before its ${this.format === 'png' ? 'PNG' : 'JPEG'} header says how large it is`);
  }

  private readSignature(): ImageHeader | undefined {
    const bytes = this.pending;
    if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
      this.format = 'jpeg';
      this.pending = bytes.subarray(2);
      return this.readOn();
    }
    const compared = Math.min(bytes.length, PNG_SIGNATURE.length);
    const couldBeJpeg = bytes[0] === 0xff && (bytes.length < 2 || (bytes[1] === 0xd8 && bytes.length < 3));
    if (!bytes.subarray(0, compared).equals(PNG_SIGNATURE.subarray(0, compared)) && !couldBeJpeg) {
      throw new UnreadableImageError('is neither a PNG nor a JPEG image');
    }
    if (compared < PNG_SIGNATURE.length) return undefined;
    this.format = 'png';
    return this.readOn();
  }

  private readOn(): ImageHeader | undefined {
    return this.format === 'png' ? this.readPng() : this.readJpeg();
  }

  private readPng(): ImageHeader | undefined {
    const bytes = this.pending;
    if (bytes.length < PNG_HEADER_BYTES) return undefined;
    if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
      throw new UnreadableImageError('is a broken PNG image: it does not start with its IHDR chunk');
    }
    return this.sized('png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
  }

  /** Walks the JPEG's segments from a marker on, skipping their content, until the frame header. */
  private readJpeg(): ImageHeader | undefined {
    let bytes = this.pending;
    for (;;) {
      // Markers may be preceded by any number of 0xFF fill bytes.
      let at = 0;
      while (at < bytes.length && bytes[at] === 0xff) at += 1;
      if (at === bytes.length) {
        this.pending = bytes.subarray(Math.max(0, at - 1));
        return undefined;
      }
      if (at === 0) throw new UnreadableImageError('is a broken JPEG image: a segment does not start with a marker');
      const marker = bytes[at] ?? 0;
      const afterMarker = at + 1;
      if (isStandaloneMarker(marker)) {
        bytes = bytes.subarray(afterMarker);
        continue;
      }
      if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) {
        throw new UnreadableImageError('is a broken JPEG image: its image data comes before a frame header says its size');
      }
      if (bytes.length < afterMarker + 2) {
        this.pending = bytes.subarray(at - 1);
        return undefined;
      }
      const length = bytes.readUInt16BE(afterMarker);
      if (length < 2) throw new UnreadableImageError('is a broken JPEG image: a segment has an impossible length');
      if (isFrameMarker(marker)) {
        if (bytes.length < afterMarker + 7) {
          this.pending = bytes.subarray(at - 1);
          return undefined;
        }
        return this.sized('jpeg', bytes.readUInt16BE(afterMarker + 5), bytes.readUInt16BE(afterMarker + 3));
      }
      const segmentEnd = afterMarker + length;
      if (segmentEnd > bytes.length) {
        this.skip = segmentEnd - bytes.length;
        this.pending = Buffer.alloc(0);
        return undefined;
      }
      bytes = bytes.subarray(segmentEnd);
    }
  }

  private sized(format: ImageFormat, width: number, height: number): ImageHeader {
    if (width === 0 || height === 0) {
      throw new UnreadableImageError(`is a ${format === 'png' ? 'PNG' : 'JPEG'} image of ${width} × ${height} pixels, which is no image`);
    }
    this.pending = Buffer.alloc(0);
    return { format, width, height };
  }
}

/** The header of an image held whole in memory. Throws UnreadableImageError. */
export function imageHeaderOf(bytes: Uint8Array): ImageHeader {
  const reader = new ImageHeaderReader();
  return reader.push(bytes) ?? reader.end();
}
