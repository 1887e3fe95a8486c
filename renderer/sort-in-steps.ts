/**
 * A stable sort that yields to the event loop whenever it has worked for a few milliseconds: sorting a million
 * elements by a text column takes about half a second, which in one task would freeze the screen. Runs of
 * `RUN` items are sorted by `Array.prototype.sort` (stable), then merged pairwise, the left run winning ties.
 */
import { nextTask } from './next-task';

/** Items sorted in one go before merging: a fraction of a millisecond each. */
const RUN = 1_024;
/** Work between yields. */
const SLICE_MS = 8;
/** Merge steps between looks at the clock. */
const CHECK_EVERY = 2_048;

/** `items` in the order of `compare`, equal ones as they were; stops early (answering unsorted) when `signal` aborts. */
export async function sortInSteps<T>(items: readonly T[], compare: (a: T, b: T) => number, signal?: AbortSignal): Promise<T[]> {
  const count = items.length;
  let from: T[] = [];
  let sliceStart = performance.now();
  const pause = async (): Promise<boolean> => {
    if (performance.now() - sliceStart < SLICE_MS) return signal?.aborted === true;
    await nextTask();
    sliceStart = performance.now();
    return signal?.aborted === true;
  };
  for (let start = 0; start < count; start += RUN) {
    for (const item of items.slice(start, start + RUN).sort(compare)) from.push(item);
    if (await pause()) return [...items];
  }
  let to = new Array<T>(count);
  for (let width = RUN; width < count; width *= 2) {
    let steps = 0;
    for (let left = 0; left < count; left += 2 * width) {
      const middle = Math.min(left + width, count);
      const right = Math.min(left + 2 * width, count);
      let a = left;
      let b = middle;
      for (let out = left; out < right; out += 1) {
        // `a` wins ties: it came first.
        if (b >= right || (a < middle && compare(from[a] as T, from[b] as T) <= 0)) {
          to[out] = from[a] as T;
          a += 1;
        } else {
          to[out] = from[b] as T;
          b += 1;
        }
        steps += 1;
        if (steps % CHECK_EVERY === 0 && (await pause())) return [...items];
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
