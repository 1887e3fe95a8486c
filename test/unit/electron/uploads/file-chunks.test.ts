import { appendFile, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completeFile, fileChunks, SourceGoneError, type FileGrowth } from '../../../../electron/uploads/file-chunks';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'cd-file-chunks-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function readAll(chunks: AsyncGenerator<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

/** A file growth the test moves on by hand. */
function manualGrowth(): FileGrowth & { grow(bytes: number): void; fail(message: string): void } {
  let available = 0;
  let failure: string | undefined;
  const waiters = new Set<() => void>();
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
    waiters.clear();
  };
  return {
    available: () => available,
    failure: () => failure,
    grown: () => new Promise<void>((resolve) => waiters.add(resolve)),
    grow: (bytes) => {
      available += bytes;
      notify();
    },
    fail: (message) => {
      failure = message;
      notify();
    },
  };
}

describe('fileChunks', () => {
  it('reads exactly the size of a complete file, in pieces', async () => {
    const file = path.join(folder, 'a.bin');
    const content = Buffer.alloc(600 * 1024, 1);
    await writeFile(file, Buffer.concat([content, Buffer.from('more than the size')]));
    const chunks = fileChunks(file, content.byteLength, completeFile(content.byteLength), new AbortController().signal, 'a.bin');
    expect((await readAll(chunks)).equals(content)).toBe(true);
  });

  it('waits for bytes a writer has not written yet', async () => {
    const file = path.join(folder, 'growing.bin');
    await writeFile(file, Buffer.from('abc'));
    const growth = manualGrowth();
    growth.grow(3);
    const reading = readAll(fileChunks(file, 6, growth, new AbortController().signal, 'growing.bin'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await appendFile(file, Buffer.from('def'));
    growth.grow(3);
    expect((await reading).toString()).toBe('abcdef');
  });

  it('fails when the file is gone, shorter than its size, or its growth failed', async () => {
    const signal = new AbortController().signal;
    await expect(readAll(fileChunks(path.join(folder, 'missing.bin'), 3, completeFile(3), signal, 'missing.bin'))).rejects.toThrow(
      new SourceGoneError('missing.bin is no longer where it was; add it again.'),
    );
    const short = path.join(folder, 'short.bin');
    await writeFile(short, Buffer.alloc(10));
    await truncate(short, 4);
    await expect(readAll(fileChunks(short, 10, completeFile(10), signal, 'short.bin'))).rejects.toThrow(SourceGoneError);
    const growth = manualGrowth();
    const reading = readAll(fileChunks(short, 10, growth, signal, 'short.bin'));
    growth.fail('short.bin stopped arriving.');
    await expect(reading).rejects.toThrow(new SourceGoneError('short.bin stopped arriving.'));
  });
});
