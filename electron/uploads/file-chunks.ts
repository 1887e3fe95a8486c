/**
 * An upload's bytes read from disk a piece at a time, exactly `size` of them, also from a file that is still being
 * written (a spool the page fills while the upload already runs): a read that catches up with the writer waits for the
 * next bytes instead of ending. Nothing more than one piece is held, so a file of any size costs the same memory.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { RecycledPieces } from '../http/recycled-pieces';

/** Bytes read per piece: large enough for few system calls, small enough that progress moves. */
const PIECE_BYTES = 1024 * 1024;

/** How much of a file can be read, and how to wait for more. A file that is complete has all of its bytes available. */
export interface FileGrowth {
  /** Bytes that can be read now. */
  available(): number;
  /** Resolves when more bytes may have come, or the file failed, or `signal` aborted. */
  grown(signal: AbortSignal): Promise<void>;
  /** Why the rest of the bytes will never come; undefined while they may. */
  failure(): string | undefined;
}

/** The growth of a file that is complete. */
export function completeFile(size: number): FileGrowth {
  return { available: () => size, grown: async () => undefined, failure: () => undefined };
}

/** The bytes of an upload are not there (any more), or not as they were: the upload cannot be sent. */
export class SourceGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceGoneError';
  }
}

const GONE_CODES: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * Reads `size` bytes of `file` from its start, waiting for bytes `growth` does not have yet. Throws SourceGoneError when
 * the file cannot be opened, ends before `size` or its growth failed; ends early, without an error, when `signal`
 * aborts (the reader of the stream has stopped).
 */
export async function* fileChunks(file: string, size: number, growth: FileGrowth, signal: AbortSignal, name: string): AsyncGenerator<Uint8Array> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && GONE_CODES.has(code)) throw new SourceGoneError(`${name} is no longer where it was; add it again.`);
    throw error;
  }
  try {
    const pieces = new RecycledPieces(PIECE_BYTES);
    let position = 0;
    while (position < size && !signal.aborted) {
      const failure = growth.failure();
      if (failure !== undefined) throw new SourceGoneError(failure);
      const available = Math.min(growth.available(), size);
      if (position >= available) {
        await growth.grown(signal);
        continue;
      }
      const length = Math.min(PIECE_BYTES, available - position);
      const piece = pieces.take(length);
      const { bytesRead } = await handle.read(piece, 0, length, position);
      if (bytesRead === 0) throw new SourceGoneError(`${name} became shorter while it was sent; add it again.`);
      position += bytesRead;
      yield piece.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
