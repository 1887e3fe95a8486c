import { describe, expect, it } from 'vitest';
import { base64Of, checkImage, checkImageFile, MAX_IMAGE_BYTES, sanitiseImageFileName, sniffImageType } from '../../../../renderer/stores/image-file';
import { tinyJpeg, tinyPng } from '../../../fixtures/images';

describe('sniffImageType', () => {
  it('tells PNG and JPEG by their first bytes, and nothing else', () => {
    expect(sniffImageType(tinyPng())).toBe('image/png');
    expect(sniffImageType(tinyJpeg())).toBe('image/jpeg');
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBeUndefined();
    expect(sniffImageType(Uint8Array.of(0xff, 0xd8))).toBeUndefined();
    expect(sniffImageType(new Uint8Array())).toBeUndefined();
  });
});

describe('sanitiseImageFileName', () => {
  it('keeps a plain name of its type', () => {
    expect(sanitiseImageFileName('Facade north.png', 'image/png')).toBe('Facade north.png');
    expect(sanitiseImageFileName('entrance.JPEG', 'image/jpeg')).toBe('entrance.JPEG');
  });

  it('takes the last path segment, replaces control characters and leaves no `..` or leading dot', () => {
    expect(sanitiseImageFileName('C:\\Users\\me\\plan.png', 'image/png')).toBe('plan.png');
    expect(sanitiseImageFileName('../../etc/passwd.png', 'image/png')).toBe('passwd.png');
    expect(sanitiseImageFileName('tab\there.png', 'image/png')).toBe('tab-here.png');
    expect(sanitiseImageFileName('a...b.png', 'image/png')).toBe('a.b.png');
    expect(sanitiseImageFileName('.hidden.png', 'image/png')).toBe('hidden.png');
  });

  it('adds an extension of its type when it has none that fits, and a name when none is left', () => {
    expect(sanitiseImageFileName('scan', 'image/jpeg')).toBe('scan.jpg');
    expect(sanitiseImageFileName('photo.png', 'image/jpeg')).toBe('photo.png.jpg');
    expect(sanitiseImageFileName('..', 'image/png')).toBe('image.png');
    expect(sanitiseImageFileName('folder/', 'image/png')).toBe('image.png');
  });

  it('shortens a long name to 255 characters and keeps its extension', () => {
    const name = sanitiseImageFileName(`${'x'.repeat(300)}.jpeg`, 'image/jpeg');
    expect(name).toHaveLength(255);
    expect(name.endsWith('x.jpeg')).toBe(true);
  });
});

describe('checkImage', () => {
  const file = (type: string, size = 100, name = 'a.png') => ({ name, type, size });

  it('passes PNG and JPEG whose bytes agree with their type, or that declare none', () => {
    expect(checkImage(file('image/png'), tinyPng())).toEqual({ ok: true, image: { contentType: 'image/png', fileName: 'a.png' } });
    expect(checkImage(file('image/jpeg', 100, 'b.jpg'), tinyJpeg())).toEqual({ ok: true, image: { contentType: 'image/jpeg', fileName: 'b.jpg' } });
    expect(checkImage(file('', 100, 'b'), tinyJpeg())).toEqual({ ok: true, image: { contentType: 'image/jpeg', fileName: 'b.jpg' } });
  });

  it('refuses other types, bytes of another type, empty files and files over 10 MiB', () => {
    expect(checkImage(file('image/gif'), tinyPng())).toEqual({ ok: false, problem: { kind: 'not-an-image' } });
    expect(checkImage(file('image/png'), tinyJpeg())).toEqual({ ok: false, problem: { kind: 'not-an-image' } });
    expect(checkImage(file(''), new TextEncoder().encode('hello'))).toEqual({ ok: false, problem: { kind: 'not-an-image' } });
    expect(checkImage(file('image/png', 0), new Uint8Array())).toEqual({ ok: false, problem: { kind: 'empty' } });
    expect(checkImage(file('image/png', MAX_IMAGE_BYTES), tinyPng()).ok).toBe(true);
    expect(checkImage(file('image/png', MAX_IMAGE_BYTES + 1), tinyPng())).toEqual({ ok: false, problem: { kind: 'too-big', size: MAX_IMAGE_BYTES + 1 } });
  });

  it('reads the first bytes of a File', async () => {
    expect(await checkImageFile(new File([tinyPng()], 'x.png', { type: 'image/png' }))).toMatchObject({ ok: true });
    expect(await checkImageFile(new File(['text'], 'x.png', { type: 'image/png' }))).toMatchObject({ ok: false });
  });
});

describe('base64Of', () => {
  it('encodes as Node does, also past one slice', () => {
    const bytes = Uint8Array.from({ length: 0x8000 * 2 + 7 }, (_, index) => (index * 31) % 256);
    expect(base64Of(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(base64Of(new Uint8Array())).toBe('');
  });
});
