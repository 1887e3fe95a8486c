/**
 * An uploaded image checked as it streams in: its bytes must be a PNG or a JPEG whose header says at most the server's
 * pixel limit, else the upload fails with a 400 saying why, before anything of it is kept. A small file can declare a
 * huge image (a PNG of 10,000 × 10,000 pixels compresses to a few hundred kilobytes) that would take gigabytes to decode.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import { badRequest, type ApiError } from '../errors';
import { ImageHeaderReader, UnreadableImageError, type ImageHeader } from './image-header';

/** Megapixels for messages: whole ones, or one decimal below ten. */
function megapixels(pixels: number): string {
  const value = pixels / 1_000_000;
  return value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

/** The 400 for an image over the pixel limit. */
export function tooManyPixels(what: string, header: ImageHeader, maxPixels: number): ApiError {
  const pixels = header.width * header.height;
  return badRequest(
    `The ${what} is ${header.width} × ${header.height} pixels (${megapixels(pixels)} megapixels); at most ${megapixels(maxPixels)} megapixels are accepted. Scale it down and upload it again.`,
    [{ path: 'body', message: `must have at most ${maxPixels} pixels` }],
  );
}

/** The 400 for bytes that are no image the server takes. */
function unreadable(what: string, error: UnreadableImageError): ApiError {
  return badRequest(`The ${what} ${error.message}; PNG and JPEG images are accepted.`, [{ path: 'body', message: error.message }]);
}

/**
 * `content` passed through unchanged while its header is checked: the stream fails with a 400 naming the `what`
 * ("image", "logo") once the header shows more than `maxPixels` pixels or no PNG or JPEG, or when it ends first.
 */
export function checkedImageUpload(content: Readable, what: string, maxPixels: number): Readable {
  const reader = new ImageHeaderReader();
  let header: ImageHeader | undefined;
  const fail = (error: unknown): Error =>
    error instanceof UnreadableImageError ? unreadable(what, error) : error instanceof Error ? error : new Error(String(error));
  const check = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (header !== undefined) {
        callback(null, chunk);
        return;
      }
      try {
        header = reader.push(chunk);
      } catch (error) {
        callback(fail(error));
        return;
      }
      if (header !== undefined && header.width * header.height > maxPixels) {
        callback(tooManyPixels(what, header, maxPixels));
        return;
      }
      callback(null, chunk);
    },
    flush(callback) {
      try {
        reader.end();
        callback();
      } catch (error) {
        callback(fail(error));
      }
    },
  });
  // Errors of either side reach whoever reads `check`; a failed check stops reading the request.
  pipeline(content, check, () => undefined);
  return check;
}
