/**
 * A loop over many items that yields to the event loop whenever it has worked for a few milliseconds, however much
 * each item costs: grouping a million elements' ids in one go would freeze the screen for half a second.
 */
import { nextTask } from './next-task';

/** Work between yields. */
const SLICE_MS = 8;
/** Items between looks at the clock. */
const CHECK_EVERY = 1_024;

/** Calls `visit` for 0 … count - 1 in order; answers false when `signal` aborted (and stops). */
export async function eachInSteps(count: number, visit: (index: number) => void, signal?: AbortSignal): Promise<boolean> {
  const aborted = (): boolean => signal?.aborted === true;
  if (aborted()) return false;
  let sliceStart = performance.now();
  for (let index = 0; index < count; index += 1) {
    visit(index);
    if (index % CHECK_EVERY === CHECK_EVERY - 1 && performance.now() - sliceStart >= SLICE_MS && index + 1 < count) {
      await nextTask();
      if (aborted()) return false;
      sliceStart = performance.now();
    }
  }
  return true;
}
