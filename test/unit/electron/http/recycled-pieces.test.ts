import { describe, expect, it } from 'vitest';
import { RecycledPieces } from '../../../../electron/http/recycled-pieces';

describe('recycled pieces', () => {
  it('lends a buffer handed back whole to the next piece, and a new one while none is back', () => {
    const pieces = new RecycledPieces(1024);
    const first = pieces.take(1024);
    const second = pieces.take(1024);
    expect(second.buffer).not.toBe(first.buffer);
    RecycledPieces.handBack(first);
    const third = pieces.take(512);
    expect(third.buffer).toBe(first.buffer);
    expect(third.byteLength).toBe(512);
  });

  it('keeps a piece of which only a part or a copy came back, so bytes still on their way are never overwritten', () => {
    const pieces = new RecycledPieces(1024);
    const piece = pieces.take(1024);
    RecycledPieces.handBack(piece.subarray(0, 512));
    RecycledPieces.handBack(piece.subarray(512));
    RecycledPieces.handBack(Buffer.from(piece));
    expect(pieces.take(1024).buffer).not.toBe(piece.buffer);
  });

  it('takes a piece back once, however often it is handed back', () => {
    const pieces = new RecycledPieces(64);
    const piece = pieces.take(64);
    RecycledPieces.handBack(piece);
    RecycledPieces.handBack(piece);
    const again = pieces.take(64);
    const fresh = pieces.take(64);
    expect(again.buffer).toBe(piece.buffer);
    expect(fresh.buffer).not.toBe(piece.buffer);
  });

  it('ignores bytes it never lent', () => {
    const pieces = new RecycledPieces(64);
    RecycledPieces.handBack(new Uint8Array(64));
    RecycledPieces.handBack(Buffer.alloc(64));
    expect(pieces.take(64).byteLength).toBe(64);
  });

  it('refuses a piece longer than its buffers', () => {
    expect(() => new RecycledPieces(64).take(65)).toThrow(RangeError);
  });
});
