/**
 * Pieces of an upload's content read into buffers that are used again once their bytes have left the process. A fresh
 * buffer of a mebibyte per piece costs the kernel new pages and the garbage collector its work: for a gigabyte that was
 * about three CPU seconds, more than the server's own share, and on two cores it halved the rate of an upload against
 * curl's (`test/bench/app-upload.bench.ts`). Only a sender that knows when its bytes are gone hands a piece back
 * (node:http's write callback, `node-http-uploads.ts`); a piece nobody hands back is left to the garbage collector, so a
 * sender that does not take part (fetch) gets fresh buffers as before.
 */

/** The pieces' buffers, by their memory, with the length each was lent out with. */
const lent = new WeakMap<ArrayBufferLike, { pieces: RecycledPieces; length: number }>();

/** Buffers of one size for the pieces of one upload's body. */
export class RecycledPieces {
  readonly #size: number;
  readonly #free: Buffer[] = [];

  constructor(size: number) {
    this.#size = size;
  }

  /**
   * A buffer of the pieces' size to read `length` bytes into: one handed back before, or a new one. The answer is the
   * view of those bytes; only that view, whole, can be handed back.
   */
  take(length: number): Buffer {
    if (length > this.#size) throw new RangeError(`A piece of ${length} bytes does not fit a buffer of ${this.#size}.`);
    const buffer = this.#free.pop() ?? Buffer.allocUnsafeSlow(this.#size);
    const piece = buffer.subarray(0, length);
    lent.set(buffer.buffer, { pieces: this, length });
    return piece;
  }

  /** Marks a piece `take` answered as one whose bytes may be overwritten now. */
  #give(memory: ArrayBufferLike): void {
    lent.delete(memory);
    this.#free.push(Buffer.from(memory, 0, this.#size));
  }

  /**
   * Gives a piece back once its bytes are gone: `chunk` must be a piece `take` answered, whole. Anything else (a chunk
   * of other memory, a part of a piece, a piece given back before) is left alone, so a layer that split or copied a
   * piece on its way can never have its bytes overwritten.
   */
  static handBack(chunk: Uint8Array): void {
    const owner = lent.get(chunk.buffer);
    if (owner === undefined || chunk.byteOffset !== 0 || chunk.byteLength !== owner.length) return;
    owner.pieces.#give(chunk.buffer);
  }
}
