import { createWriteStream } from 'node:fs';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams `source` through `transforms` into `file`, which must not exist yet. On failure it settles only once the
 * file is closed: Node's pipeline can reject while the file is still being opened (an error event counts twice toward
 * its end), and a file removed before its opening completes would be created right after, left behind for good.
 */
export async function pipeIntoNewFile(source: Readable, transforms: readonly Transform[], file: string, mode?: number): Promise<void> {
  const target = createWriteStream(file, { flags: 'wx', ...(mode === undefined ? {} : { mode }) });
  try {
    await pipeline([source, ...transforms, target]);
  } catch (error) {
    if (!target.closed) {
      // The error that failed the pipeline may reach the file too; it is already being answered.
      target.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => target.once('close', () => resolve()));
      target.destroy();
      await closed;
    }
    throw error;
  }
}
