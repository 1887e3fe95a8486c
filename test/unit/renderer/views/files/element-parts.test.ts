import { describe, expect, it } from 'vitest';
import { PartKind, partKindIn, partNumberIn } from '../../../../../renderer/views/files/element-parts';

const WALL = '2O2Fr$t4X7Zf8NOew3FLOH';
const SLAB = '0K7w7JxKn2Bx5dM9vhT_Qa';

function kindOf(id: string): PartKind {
  return partKindIn(id, 0, id.length);
}

describe('part ids', () => {
  it('reads a layer and a constituent of an element with an IFC GlobalId, with their n', () => {
    expect(kindOf(`${WALL}-L1`)).toBe(PartKind.Layer);
    expect(kindOf(`${SLAB}-C12`)).toBe(PartKind.Constituent);
    expect(partNumberIn(`${SLAB}-C12`, 0, WALL.length + 4)).toBe(12);
  });

  it('reads no part in free-text ids of spreadsheets, in GlobalIds alone, or in other suffixes', () => {
    for (const id of ['W-L1', 'Wall-2-L3', WALL, `${WALL}-L`, `${WALL}-L0`, `${WALL}-L01`, `${WALL}-X1`, `${WALL}-L1a`, `${WALL}-l1`, `${WALL.slice(1)}-L1`, `x${WALL}-L1`]) {
      expect(kindOf(id), id).toBe(PartKind.None);
    }
    // The 22 characters before the suffix must be a GlobalId's: no '-', no space, no other sign.
    expect(kindOf(`${WALL.slice(0, 21)}--L1`)).toBe(PartKind.None);
    expect(kindOf(`${WALL.slice(0, 21)} -L1`)).toBe(PartKind.None);
  });

  it('reads an id inside a longer text, as packed ids hold them', () => {
    const text = `E1${WALL}-L2${SLAB}-C3W-L1`;
    const wallStart = 2;
    const slabStart = wallStart + WALL.length + 3;
    const sheetStart = slabStart + SLAB.length + 3;
    expect(partKindIn(text, wallStart, slabStart)).toBe(PartKind.Layer);
    expect(partNumberIn(text, wallStart, slabStart)).toBe(2);
    expect(partKindIn(text, slabStart, sheetStart)).toBe(PartKind.Constituent);
    expect(partKindIn(text, sheetStart, text.length)).toBe(PartKind.None);
    expect(partKindIn(text, 0, wallStart)).toBe(PartKind.None);
  });
});
