import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedIds, PackedIdsBuilder } from '../../../../renderer/db/packed-ids';

/** Ids as servers give them: short, long, non-ASCII, some sharing a prefix with others. */
const id = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.uuid(), fc.constantFrom('E-1', 'E-10', 'E-100', 'é', 'ä-1'));
const distinctIds = fc.uniqueArray(id, { maxLength: 300 });

function packedOf(ids: Iterable<string>): PackedIds {
  const builder = new PackedIdsBuilder();
  for (const each of ids) builder.add(each);
  return builder.build();
}

describe('PackedIds', () => {
  it('answers like the array it was built from, in any order', () => {
    fc.assert(
      fc.property(distinctIds, fc.boolean(), fc.integer({ min: -5, max: 310 }), fc.integer({ min: -5, max: 310 }), (ids, sort, start, end) => {
        const list = sort ? [...ids].sort() : ids;
        const packed = packedOf(list);
        expect(packed.length).toBe(list.length);
        expect([...packed]).toEqual(list);
        expect(packed.slice(start, end)).toEqual(list.slice(start, end));
        expect(packed.slice()).toEqual(list);
        expect(packed.at(start)).toBe(list.at(start));
        list.forEach((each, index) => expect(packed.indexOf(each)).toBe(index));
        for (const other of ['', 'missing', `${list[0] ?? 'x'}0`, (list[0] ?? 'xy').slice(0, -1)]) {
          expect(packed.includes(other)).toBe(list.includes(other));
        }
      }),
    );
  });

  it('finds ids by binary search when they are in key order, and by hash when not', () => {
    const ordered = Array.from({ length: 5_000 }, (_, index) => `E-${String(index).padStart(6, '0')}`);
    const sorted = packedOf(ordered);
    const shuffled = packedOf([...ordered].reverse());
    expect(sorted.sorted).toBe(true);
    expect(shuffled.sorted).toBe(false);
    expect(sorted.indexOf('E-004321')).toBe(4321);
    expect(shuffled.indexOf('E-004321')).toBe(5_000 - 1 - 4321);
    expect(sorted.indexOf('E-0043210')).toBe(-1);
    expect(shuffled.indexOf('E-00432')).toBe(-1);
  });

  it('takes runs of another list without making their ids, keeping whether the whole is in key order', () => {
    fc.assert(
      fc.property(distinctIds, fc.array(fc.nat(), { maxLength: 6 }), (ids, cuts) => {
        const source = packedOf([...ids].sort());
        const bounds = [...new Set([0, source.length, ...cuts.map((cut) => cut % (source.length + 1))])].sort((a, b) => a - b);
        const builder = new PackedIdsBuilder();
        const expected: string[] = [];
        // Every other run: the ids between the cuts, some left out, then one id after them.
        for (let index = 0; index + 1 < bounds.length; index += 2) {
          builder.addRun(source, bounds[index] ?? 0, bounds[index + 1] ?? 0);
          expected.push(...source.slice(bounds[index], bounds[index + 1]));
        }
        builder.add('\uffff');
        expected.push('\uffff');
        const built = builder.build();
        expect([...built]).toEqual(expected);
        expect(built.sorted).toBe(expected.every((each, index) => index === 0 || each > (expected[index - 1] ?? '')));
        expected.forEach((each, index) => expect(built.indexOf(each)).toBe(index));
      }),
    );
  });

  it('tells equal lists apart from lists of the same text cut differently', () => {
    expect(packedOf(['ab', 'c']).equals(packedOf(['ab', 'c']))).toBe(true);
    expect(packedOf(['ab', 'c']).equals(packedOf(['a', 'bc']))).toBe(false);
    expect(packedOf(['ab']).equals(packedOf(['ab', 'c']))).toBe(false);
    expect(PackedIds.EMPTY.equals(packedOf([]))).toBe(true);
  });
});
