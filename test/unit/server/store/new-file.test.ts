import { pbkdf2 } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { pipeIntoNewFile } from '../../../../server/store/new-file';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** Keeps every thread of libuv's pool busy for a while, so a file's opening waits behind them. */
function busyThreadPool(): Promise<void> {
  const threads = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4);
  const jobs = Array.from({ length: threads * 2 }, () => new Promise<void>((resolve) => pbkdf2('busy', 'salt', 100_000, 64, 'sha512', () => resolve())));
  return Promise.all(jobs).then(() => undefined);
}

/** A check that fails at the end of its input, as an empty upload fails the image check. */
function failsAtEnd(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk);
    },
    flush(callback) {
      callback(new Error('The upload is empty.'));
    },
  });
}

describe('pipeIntoNewFile', () => {
  it('writes the content into a new file, and refuses a file that exists', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'cd-new-file-'));
    folders.push(folder);
    const file = path.join(folder, 'content');
    await pipeIntoNewFile(Readable.from([Buffer.from('one '), Buffer.from('two')]), [], file);
    expect(existsSync(file)).toBe(true);
    await expect(pipeIntoNewFile(Readable.from([Buffer.from('again')]), [], file)).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('settles a failure only once the file is closed, so removing it then leaves nothing behind', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'cd-new-file-'));
    folders.push(folder);
    const file = path.join(folder, 'content.partial');
    const busy = busyThreadPool();
    await expect(pipeIntoNewFile(Readable.from([]), [failsAtEnd()], file)).rejects.toThrow('The upload is empty.');
    // Removed at once on this thread: an opening still queued behind the busy pool would create the file afterwards.
    rmSync(file, { force: true });
    await busy;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(file)).toBe(false);
  });
});
