import { describe, expect, it } from 'vitest';
import { eachInSteps } from '../../../renderer/each-in-steps';

describe('eachInSteps', () => {
  it('visits every index once, in order, in many tasks when the work is long, leaving the event loop free', async () => {
    const visited: number[] = [];
    let ticks = 0;
    const ticking = setInterval(() => {
      ticks += 1;
    }, 0);
    const done = await eachInSteps(200_000, (index) => {
      visited.push(index);
      const until = performance.now() + 0.001;
      while (performance.now() < until);
    });
    clearInterval(ticking);
    expect(done).toBe(true);
    expect(visited).toEqual(Array.from({ length: 200_000 }, (_, index) => index));
    expect(ticks).toBeGreaterThan(1);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    let visits = 0;
    const done = await eachInSteps(10_000_000, () => {
      visits += 1;
      if (visits === 5_000) setTimeout(() => controller.abort(), 0);
      const until = performance.now() + 0.001;
      while (performance.now() < until);
    }, controller.signal);
    expect(done).toBe(false);
    expect(visits).toBeLessThan(10_000_000);
  });
});
