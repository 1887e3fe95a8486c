/**
 * A small image as the Bridge carries it (`api:upload-image`, base64): a building's image or a portfolio's logo, decoded
 * and checked here (the renderer is the less trusted side), then sent as a binary body through the connection's queued
 * client. A POST is retried only when the retry policy knows it cannot have reached the server.
 */
import { BridgeError, MAX_IMAGE_UPLOAD_BYTES, type ApiAnswer, type ImageContentType, type ImageUpload } from '../../shared/ipc';
import { assertNever } from '../../shared/api/enums';
import { bridgeAnswerOf } from './api-request';
import type { QueuedClient } from './queued-client';

/** An image upload without its connection, which the caller has resolved to a client. */
export type ImageUploadCall = Omit<ImageUpload, 'connectionId'>;

// A flat character class: a grouped repetition would recurse once per quadruple and overflow on a 10 MiB image.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const MAGIC: Record<ImageContentType, readonly number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

/** Whether the first bytes are those of the type's files (PNG `\x89PNG`, JPEG `FF D8 FF`). */
export function hasMagicNumber(bytes: Uint8Array, contentType: ImageContentType): boolean {
  const magic = MAGIC[contentType];
  return bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
}

/** The bytes of an upload; refuses what is not base64, is empty, is larger than 10 MiB or is not of its content type. */
export function decodeImage(call: Pick<ImageUploadCall, 'data' | 'contentType'>): Uint8Array {
  if (call.data.length % 4 !== 0 || !BASE64.test(call.data)) throw new BridgeError('invalid-request', 'The image data is not valid base64.');
  const bytes = Buffer.from(call.data, 'base64');
  if (bytes.byteLength === 0) throw new BridgeError('invalid-request', 'The image is empty.');
  if (bytes.byteLength > MAX_IMAGE_UPLOAD_BYTES) {
    throw new BridgeError('invalid-request', `The image is larger than ${MAX_IMAGE_UPLOAD_BYTES / 1024 ** 2} MiB.`);
  }
  if (!hasMagicNumber(bytes, call.contentType)) {
    const kind = call.contentType === 'image/png' ? 'PNG' : 'JPEG';
    throw new BridgeError('invalid-request', `The file is said to be a ${kind} image, but its content is not a ${kind} image.`);
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function operationOf(target: ImageUploadCall['target']): 'addBuildingImage' | 'setPortfolioLogo' {
  switch (target) {
    case 'building':
      return 'addBuildingImage';
    case 'portfolio':
      return 'setPortfolioLogo';
    default:
      return assertNever(target, 'image target');
  }
}

/** Sends an image; the answer's value is the file name the server stored it under. */
export async function runImageUpload(client: QueuedClient, call: ImageUploadCall): Promise<ApiAnswer> {
  const body = decodeImage(call);
  const result = await client.callLoose(operationOf(call.target), {
    params: { id: call.id, fileName: call.fileName },
    body,
    contentType: call.contentType,
  });
  return bridgeAnswerOf(result);
}
