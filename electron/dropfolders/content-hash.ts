/** The SHA-256 of a file's content, read as a stream: a model of several gigabytes never sits in memory. */
import { createHash } from 'node:crypto';
import { readInsideFolder } from './file-access';

/**
 * The SHA-256, as lower-case hex, of the file `relativeKey` of `folder`, and how many bytes were read. Rejects when
 * `signal` aborts, and with `UnsafeFileError` for a file that is not the folder's own (`openInsideFolder`).
 */
export async function sha256OfFile(folder: string, relativeKey: string, signal?: AbortSignal): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const bytes of readInsideFolder(folder, relativeKey, 1024 * 1024, signal)) {
    hash.update(bytes);
    size += bytes.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
}
