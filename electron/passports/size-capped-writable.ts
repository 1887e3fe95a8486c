/**
 * A size cap for downloads: a writable in front of the real destination that fails the write which would take the
 * total past the cap. The download then stops the way it stops for a full disk, by cancelling the body it reads,
 * which also ends a body that never ends.
 */
import { finished, Writable } from 'node:stream';

/** A write that would have taken a download past its size cap. */
export class SizeCapExceededError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The download is larger than its cap of ${maxBytes} bytes.`);
    this.name = 'SizeCapExceededError';
  }
}

/**
 * Passes writes on to `destination` until they would exceed `maxBytes`, then fails with `SizeCapExceededError`
 * (leaving `destination` open for its owner to discard). Ending it ends `destination`, and it finishes once
 * `destination` has.
 */
export function sizeCappedWritable(destination: NodeJS.WritableStream, maxBytes: number): Writable {
  let total = 0;
  return new Writable({
    write(chunk: Uint8Array, _encoding, callback) {
      total += chunk.byteLength;
      if (total > maxBytes) {
        callback(new SizeCapExceededError(maxBytes));
        return;
      }
      destination.write(chunk, (error?: Error | null) => callback(error ?? null));
    },
    final(callback) {
      finished(destination, { readable: false }, (error) => callback(error ?? null));
      destination.end();
    },
  });
}
