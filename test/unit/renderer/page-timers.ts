/**
 * Under happy-dom, vitest makes `window` the Node global, so a page's `window.setTimeout` is Node's own and outlives
 * the file's environment: a naive-ui message's 3 s hide timer that fires after teardown throws "window is not
 * defined" and fails the run. The timers the tests' pages leave are cleared once a file's tests end, as closing a tab
 * clears its timers. vitest's own timers are taken before this file runs and are not affected.
 */
import { afterAll } from 'vitest';

type Timer = ReturnType<typeof setTimeout>;
const pending = new Set<Timer>();
const { setTimeout: startTimeout, clearTimeout: stopTimeout, setInterval: startInterval, clearInterval: stopInterval } = globalThis;

globalThis.setTimeout = Object.assign((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
  const timer = startTimeout(
    (...given: unknown[]) => {
      pending.delete(timer);
      callback(...given);
    },
    delay,
    ...args,
  );
  pending.add(timer);
  return timer;
}, startTimeout) as typeof setTimeout;

globalThis.setInterval = Object.assign((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
  const timer = startInterval(callback, delay, ...args);
  pending.add(timer);
  return timer;
}, startInterval) as typeof setInterval;

globalThis.clearTimeout = ((timer?: Timer) => {
  if (timer !== undefined) pending.delete(timer);
  stopTimeout(timer);
}) as typeof clearTimeout;

globalThis.clearInterval = ((timer?: Timer) => {
  if (timer !== undefined) pending.delete(timer);
  stopInterval(timer);
}) as typeof clearInterval;

afterAll(() => {
  for (const timer of pending) stopTimeout(timer);
  pending.clear();
});
