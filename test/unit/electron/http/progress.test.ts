import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { announcedLength, countingStream, uploadSourceOf } from '../../../../electron/http/progress';

async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of stream) parts.push(chunk);
  return Buffer.concat(parts);
}

function bytes(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, index) => index % 251);
}

describe('uploadSourceOf', () => {
  it('sends bytes in pieces, counting each, and can send them again', async () => {
    const content = bytes(200 * 1024);
    const source = uploadSourceOf(content);
    expect(source?.size).toBe(content.byteLength);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const counts: number[] = [];
      const sent = await drain(source!.open((n) => counts.push(n)));
      expect(Buffer.compare(sent, content)).toBe(0);
      expect(counts).toEqual([65_536, 65_536, 65_536, 8192]);
      expect(source!.replayable()).toBe(true);
    }
  });

  it('takes size and content type from a Blob', async () => {
    const source = uploadSourceOf(new Blob(['hello'], { type: 'text/plain' }));
    expect(source).toMatchObject({ size: 5, contentType: 'text/plain' });
    expect(new TextDecoder().decode(await drain(source!.open(() => undefined)))).toBe('hello');
  });

  it('opens a factory anew for every attempt', async () => {
    let opened = 0;
    const source = uploadSourceOf(() => {
      opened += 1;
      return Readable.from([Buffer.from('ab'), Buffer.from('cde')]);
    }, 5);
    expect(source?.size).toBe(5);
    let total = 0;
    expect(Buffer.from(await drain(source!.open((n) => (total += n)))).toString()).toBe('abcde');
    expect(Buffer.from(await drain(source!.open((n) => (total += n)))).toString()).toBe('abcde');
    expect(opened).toBe(2);
    expect(total).toBe(10);
    expect(source!.replayable()).toBe(true);
  });

  it('reads a one-shot stream once: replayable only until an attempt read from it', async () => {
    const source = uploadSourceOf(Readable.from([Buffer.from('once')]));
    expect(source?.size).toBeUndefined();
    const unread = source!.open(() => undefined);
    await unread.cancel();
    expect(source!.replayable()).toBe(true);
    expect(Buffer.from(await drain(source!.open(() => undefined))).toString()).toBe('once');
    expect(source!.replayable()).toBe(false);
  });

  it('accepts a web stream too', async () => {
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('web'));
        controller.close();
      },
    });
    const source = uploadSourceOf(web, 3);
    expect(new TextDecoder().decode(await drain(source!.open(() => undefined)))).toBe('web');
  });

  it('refuses what is not file content', () => {
    expect(uploadSourceOf({ name: 'x' })).toBeUndefined();
    expect(uploadSourceOf('text')).toBeUndefined();
    expect(uploadSourceOf(undefined)).toBeUndefined();
  });
});

describe('countingStream', () => {
  it('does not open its source before the first read', async () => {
    let opened = false;
    const stream = countingStream(
      () => {
        opened = true;
        return [new Uint8Array(3)][Symbol.iterator]();
      },
      () => undefined,
    );
    await Promise.resolve();
    expect(opened).toBe(false);
    expect((await drain(stream)).byteLength).toBe(3);
    expect(opened).toBe(true);
  });

  it('passes a failure of the source on to the reader', async () => {
    const failing = countingStream(
      () => ({
        next: () => Promise.reject(new Error('disk gone')),
      }),
      () => undefined,
    );
    await expect(drain(failing)).rejects.toThrow('disk gone');
  });
});

describe('announcedLength', () => {
  it('reads Content-Length unless the body is decoded on the way', () => {
    expect(announcedLength(new Headers({ 'content-length': '42' }))).toBe(42);
    expect(announcedLength(new Headers({ 'content-length': '42', 'content-encoding': 'gzip' }))).toBeUndefined();
    expect(announcedLength(new Headers({ 'content-length': '42', 'content-encoding': 'identity' }))).toBe(42);
    expect(announcedLength(new Headers())).toBeUndefined();
    expect(announcedLength(new Headers({ 'content-length': 'many' }))).toBeUndefined();
  });
});
