/** The SHA-256 of a file's content, read as a stream: a model of several gigabytes never sits in memory. */
import { createHash } from 'node:crypto';
import { readWithoutFollowing } from './file-access';

/** The file's SHA-256 as lower-case hex, and how many bytes were read. Rejects when `signal` aborts, and on a symbolic link. */
export async function sha256OfFile(file: string, signal?: AbortSignal): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const bytes of readWithoutFollowing(file, 1024 * 1024, signal)) {
    hash.update(bytes);
    size += bytes.byteLength;
  }
  return { sha256: hash.digest('hex'), size };
}
