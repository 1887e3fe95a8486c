import type { Readable } from 'node:stream';
import type { ServerContext } from '../context';
import type { StoredBlob } from '../store/blobs';

/**
 * Streams `content` into the blob store under the fresh `blobKey`, then runs `switchTo`, which points the store at the
 * new blob and answers the key it replaced (or null). The new blob is removed when the switch fails, the replaced one
 * only after it succeeded, so a failed or concurrent upload never damages the current content.
 */
export async function storeThenSwitch(
  ctx: ServerContext,
  blobKey: string,
  content: Readable,
  maxBytes: number,
  switchTo: (stored: StoredBlob) => Promise<string | null>,
): Promise<StoredBlob> {
  const stored = await ctx.blobs.put(blobKey, content, maxBytes);
  let replacedBlobKey: string | null;
  try {
    replacedBlobKey = await switchTo(stored);
  } catch (error) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
  if (replacedBlobKey !== null) await ctx.blobs.delete(replacedBlobKey);
  return stored;
}
