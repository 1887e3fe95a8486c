/**
 * FileBlocks: whatever stretch of a file is asked for, in whatever order — within a block, across two, back to one
 * read long before and pushed out since — the bytes are the file's; a file cut short after it was opened is said to
 * have changed.
 */
import { randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownImportFileError } from '../../../../../server/imports/imported-element';
import { FileBlocks } from '../../../../../server/imports/ifc/file-blocks';

const MIB = 1024 * 1024;

let directory: string;
let content: Buffer;
let filePath: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'file-blocks-'));
  // Six and a half blocks: more than are kept, and a short last one.
  content = randomBytes(6.5 * MIB);
  filePath = path.join(directory, 'model.ifc');
  await writeFile(filePath, content);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function bytesAt(blocks: FileBlocks, start: number, length: number): Buffer {
  const { bytes, offset } = blocks.at(start, length);
  return Buffer.from(bytes.subarray(offset, offset + length));
}

describe('FileBlocks', () => {
  it('answers the file’s bytes for stretches inside a block, across blocks and after jumps that push blocks out', () => {
    const blocks = new FileBlocks(openSync(filePath, 'r'));
    try {
      const stretches: [number, number][] = [
        [0, 100],
        [MIB - 10, 20],
        [3 * MIB + 5, 1000],
        [6 * MIB, 0.5 * MIB],
        [5 * MIB - 1, 2],
        [2 * MIB, 70],
        [4 * MIB + 17, 300],
        [10, 90],
        [MIB - 1, 1],
        [MIB, 1],
        [2 * MIB - 40_000, 100_000],
      ];
      // A seeded walk over the whole file: jumps far apart and back.
      let seed = 7;
      for (let step = 0; step < 2_000; step++) {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        const length = 1 + (seed % 3_000);
        stretches.push([seed % (content.length - length), length]);
      }
      for (const [start, length] of stretches) {
        expect(bytesAt(blocks, start, length).equals(content.subarray(start, start + length)), `${start}+${length}`).toBe(true);
      }
    } finally {
      blocks.close();
    }
  });

  it('says the file changed when it was cut short after it was opened', async () => {
    const shortened = path.join(directory, 'shortened.ifc');
    await writeFile(shortened, content.subarray(0, 3 * MIB));
    const blocks = new FileBlocks(openSync(shortened, 'r'));
    try {
      expect(bytesAt(blocks, 10, 10).equals(content.subarray(10, 20))).toBe(true);
      await truncate(shortened, 1.5 * MIB);
      expect(() => blocks.at(2.5 * MIB, 10)).toThrow(UnknownImportFileError);
      expect(() => blocks.at(1.5 * MIB - 5, 10)).toThrow(/changed while it was read/);
    } finally {
      blocks.close();
    }
  });

  it('refuses to read once closed', () => {
    const blocks = new FileBlocks(openSync(filePath, 'r'));
    blocks.close();
    expect(() => blocks.at(0, 10)).toThrow(/closed/);
  });
});
