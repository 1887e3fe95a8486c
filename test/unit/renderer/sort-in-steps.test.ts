import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortInSteps } from '../../../renderer/sort-in-steps';

interface Item {
  key: number;
  place: number;
}

const byKey = (a: Item, b: Item): number => a.key - b.key;

describe('sortInSteps', () => {
  it('orders like a stable sort, equal keys in their first order, across many runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 6_000 }), async (keys) => {
        const items = keys.map((key, place): Item => ({ key, place }));
        const sorted = await sortInSteps(items, byKey);
        expect(sorted).toEqual([...items].sort(byKey));
        expect(items.map((item) => item.place)).toEqual(keys.map((_, place) => place));
      }),
      { numRuns: 60 },
    );
  });

  it('sorts a large list in many tasks, leaving the event loop free between them', async () => {
    const items = Array.from({ length: 300_000 }, (_, place): Item => ({ key: (place * 7_919) % 1_000, place }));
    let ticks = 0;
    const ticking = setInterval(() => {
      ticks += 1;
    }, 0);
    const sorted = await sortInSteps(items, byKey);
    clearInterval(ticking);
    expect(sorted).toEqual([...items].sort(byKey));
    expect(ticks).toBeGreaterThan(1);
  });

  it('stops when aborted, answering the items as they were', async () => {
    const items = Array.from({ length: 100_000 }, (_, place): Item => ({ key: -place, place }));
    const controller = new AbortController();
    const sorting = sortInSteps(items, byKey, controller.signal);
    controller.abort();
    expect(await sorting).toEqual(items);
  });
});
