/**
 * What the page gives the sync scheduler: its Web Locks, so one cycle runs at a time per connection across windows,
 * and for the Local workspace its focus without its network events.
 */
import type { SyncEventSource, SyncLocks } from '../sync/scheduler';

/** The Web Locks of the page, or (where the page has none: tests, insecure origins) an exclusive lock per name in this page. */
function pageLocks(): SyncLocks {
  // Absent outside secure contexts, and null in some test DOMs, whatever the DOM types say.
  const manager: LockManager | null | undefined = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (manager !== null && manager !== undefined) {
    return { request: (name, callback) => manager.request(name, () => callback()) };
  }
  const tails = new Map<string, Promise<unknown>>();
  return {
    request: (name, callback) => {
      const run = (tails.get(name) ?? Promise.resolve()).then(callback);
      tails.set(name, run.catch(() => undefined));
      return run;
    },
  };
}

export const locks = pageLocks();

/** The window's focus, without its network events. */
export const focusOnly: SyncEventSource = {
  addEventListener: (type, listener) => {
    if (type === 'focus') window.addEventListener(type, listener);
  },
  removeEventListener: (type, listener) => {
    if (type === 'focus') window.removeEventListener(type, listener);
  },
};
