import { describe, expect, it } from 'vitest';
import { decodeImage, hasMagicNumber } from '../../../../electron/http/image-upload';
import { BridgeError, MAX_IMAGE_UPLOAD_BYTES, requestProblem } from '../../../../shared/ipc';
import { tinyJpeg, tinyPng } from '../../../fixtures/images';

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

function refusal(run: () => unknown): { code: string; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (!(error instanceof BridgeError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('hasMagicNumber', () => {
  it('knows PNG and JPEG by their first bytes', () => {
    expect(hasMagicNumber(tinyPng(), 'image/png')).toBe(true);
    expect(hasMagicNumber(tinyJpeg(), 'image/jpeg')).toBe(true);
    expect(hasMagicNumber(tinyPng(), 'image/jpeg')).toBe(false);
    expect(hasMagicNumber(tinyJpeg(), 'image/png')).toBe(false);
    expect(hasMagicNumber(Uint8Array.of(0x89, 0x50, 0x4e), 'image/png')).toBe(false);
    expect(hasMagicNumber(Uint8Array.of(0xff, 0xd8), 'image/jpeg')).toBe(false);
  });
});

describe('decodeImage', () => {
  it('answers the bytes of valid base64 of an image of its type', () => {
    expect(decodeImage({ data: base64(tinyPng(2, 2)), contentType: 'image/png' })).toEqual(tinyPng(2, 2));
    expect(decodeImage({ data: base64(tinyJpeg()), contentType: 'image/jpeg' })).toEqual(tinyJpeg());
  });

  it('refuses what is not base64, is empty, or is not of its type, as an invalid request', () => {
    expect(refusal(() => decodeImage({ data: 'iVBORw0K!!!!', contentType: 'image/png' }))).toEqual({
      code: 'invalid-request',
      message: 'The image data is not valid base64.',
    });
    expect(refusal(() => decodeImage({ data: 'iVBORw0', contentType: 'image/png' }))).toMatchObject({ message: 'The image data is not valid base64.' });
    expect(refusal(() => decodeImage({ data: '', contentType: 'image/png' }))).toEqual({ code: 'invalid-request', message: 'The image is empty.' });
    expect(refusal(() => decodeImage({ data: base64(tinyPng()), contentType: 'image/jpeg' }))).toEqual({
      code: 'invalid-request',
      message: 'The file is said to be a JPEG image, but its content is not a JPEG image.',
    });
  });

  it('takes 10 MiB and refuses a byte more', () => {
    const largest = new Uint8Array(MAX_IMAGE_UPLOAD_BYTES);
    largest.set(tinyPng());
    expect(decodeImage({ data: base64(largest), contentType: 'image/png' }).byteLength).toBe(MAX_IMAGE_UPLOAD_BYTES);
    const larger = new Uint8Array(MAX_IMAGE_UPLOAD_BYTES + 1);
    larger.set(tinyPng());
    expect(refusal(() => decodeImage({ data: base64(larger), contentType: 'image/png' }))).toEqual({
      code: 'invalid-request',
      message: 'The image is larger than 10 MiB.',
    });
  });
});

describe('the api:upload-image request', () => {
  const valid = {
    connectionId: 'c1',
    target: 'building',
    id: '40000000-0000-4000-8000-000000000001',
    fileName: 'facade.png',
    contentType: 'image/png',
    data: 'iVBORw0KGgo=',
  };

  it('takes a building or portfolio id, a file name and PNG or JPEG', () => {
    expect(requestProblem('api:upload-image', valid)).toBeUndefined();
    expect(requestProblem('api:upload-image', { ...valid, target: 'portfolio', contentType: 'image/jpeg' })).toBeUndefined();
  });

  it('refuses other targets and types, ids that are no uuid, and names that are paths', () => {
    for (const wrong of [
      { target: 'element' },
      { contentType: 'image/gif' },
      { id: 'local:abc' },
      { fileName: '' },
      { fileName: 'a/b.png' },
      { fileName: 'a\\b.png' },
      { fileName: `${'a'.repeat(252)}.png` },
      { data: '' },
    ]) {
      expect(requestProblem('api:upload-image', { ...valid, ...wrong }), JSON.stringify(wrong)).toBeDefined();
    }
  });
});
