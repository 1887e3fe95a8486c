/**
 * A file's bytes read in aligned blocks, the few last used kept. The extraction reads a batch's element lines, then
 * their property sets, then the sets' entries, each pass in file order over the same stretch of the file, with a few
 * lines shared by the whole model (a common property, the owner history) far from it: with one block kept, each pass
 * and each jump read the stretch again (about eleven times the file for a model of walls with their quantities).
 */
import { closeSync, readSync } from 'node:fs';
import { UnknownImportFileError } from '../imported-element';

const BLOCK_BYTES = 1024 * 1024;
const BLOCKS_KEPT = 4;
/** The least the buffer for a stretch across two blocks holds: lines are short, a few are long lists. */
const STRADDLING_BYTES = 64 * 1024;

interface Block {
  /** Which block of the file: it holds bytes [index × BLOCK_BYTES, + filled). */
  index: number;
  buffer: Buffer;
  filled: number;
}

/** Where `FileBlocks.at` found the bytes asked for: valid until the next call. */
export interface FoundBytes {
  bytes: Buffer;
  offset: number;
}

export class FileBlocks {
  /** Most recently used first. */
  private readonly blocks: Block[] = [];
  /** For a stretch that crosses a block's end: read on its own, not kept. */
  private straddling = Buffer.allocUnsafe(0);
  private readonly found: FoundBytes = { bytes: this.straddling, offset: 0 };

  constructor(private descriptor: number | null) {}

  /** The file's bytes [start, start + length): the answer is reused by the next call. */
  at(start: number, length: number): FoundBytes {
    const index = Math.floor(start / BLOCK_BYTES);
    const offset = start - index * BLOCK_BYTES;
    if (offset + length > BLOCK_BYTES) return this.readStraddling(start, length);
    const block = this.block(index);
    if (offset + length > block.filled) throw new UnknownImportFileError('The file changed while it was read.');
    this.found.bytes = block.buffer;
    this.found.offset = offset;
    return this.found;
  }

  close(): void {
    if (this.descriptor !== null) closeSync(this.descriptor);
    this.descriptor = null;
    this.blocks.length = 0;
  }

  private block(index: number): Block {
    const at = this.blocks.findIndex((block) => block.index === index);
    if (at === 0) return this.blocks[0] as Block;
    if (at > 0) {
      const [used] = this.blocks.splice(at, 1) as [Block];
      this.blocks.unshift(used);
      return used;
    }
    const reused = this.blocks.length < BLOCKS_KEPT ? { index, buffer: Buffer.allocUnsafe(BLOCK_BYTES), filled: 0 } : (this.blocks.pop() as Block);
    reused.index = index;
    reused.filled = readSync(this.open(), reused.buffer, 0, BLOCK_BYTES, index * BLOCK_BYTES);
    this.blocks.unshift(reused);
    return reused;
  }

  private readStraddling(start: number, length: number): FoundBytes {
    if (this.straddling.length < length) this.straddling = Buffer.allocUnsafe(Math.max(length, STRADDLING_BYTES));
    if (readSync(this.open(), this.straddling, 0, length, start) < length) throw new UnknownImportFileError('The file changed while it was read.');
    this.found.bytes = this.straddling;
    this.found.offset = 0;
    return this.found;
  }

  private open(): number {
    if (this.descriptor === null) throw new Error('The STEP reader is closed.');
    return this.descriptor;
  }
}
