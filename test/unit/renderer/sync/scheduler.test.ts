import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  startSyncScheduler,
  type SchedulerTimers,
  type SyncCycleOutcome,
  type SyncEventSource,
  type SyncLocks,
  type SyncTrigger,
} from '../../../../renderer/sync/scheduler';

/** Timers the test fires by hand. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  const timers: SchedulerTimers = {
    setTimeout: (callback, ms) => {
      pending.set(next, { callback, ms });
      return next++;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    waits: () => [...pending.values()].map((timer) => timer.ms),
    fireAll: () => {
      const due = [...pending.entries()];
      pending.clear();
      for (const [, timer] of due) timer.callback();
    },
    fireWaiting: (ms: number) => {
      for (const [handle, timer] of [...pending.entries()].filter(([, each]) => each.ms === ms)) {
        pending.delete(handle);
        timer.callback();
      }
    },
  };
}

/** A lock manager like the Web Locks API's exclusive mode, in memory. */
function memoryLocks(): SyncLocks & { maxHeld: () => number } {
  const tails = new Map<string, Promise<unknown>>();
  let held = 0;
  let maxHeld = 0;
  return {
    request: <T>(name: string, callback: () => Promise<T>): Promise<T> => {
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(async () => {
        held += 1;
        maxHeld = Math.max(maxHeld, held);
        try {
          return await callback();
        } finally {
          held -= 1;
        }
      });
      tails.set(name, run.catch(() => undefined));
      return run;
    },
    maxHeld: () => maxHeld,
  };
}

function eventSource() {
  const listeners = new Map<string, Set<() => void>>();
  const source: SyncEventSource = {
    addEventListener: (type, listener) => {
      const set = listeners.get(type) ?? new Set();
      set.add(listener);
      listeners.set(type, set);
    },
    removeEventListener: (type, listener) => listeners.get(type)?.delete(listener),
  };
  return { source, emit: (type: 'online' | 'offline' | 'focus') => listeners.get(type)?.forEach((listener) => listener()) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the sync scheduler', () => {
  it('runs a first cycle at once, then one per interval', async () => {
    const { timers, waits, fireAll } = manualTimers();
    const triggers: SyncTrigger[] = [];
    const scheduler = startSyncScheduler({
      connectionId: 'c',
      cycle: async (trigger) => {
        triggers.push(trigger);
        return { kind: 'ok' };
      },
      locks: memoryLocks(),
      timers,
      intervalMs: 60_000,
    });
    await flush();
    expect(triggers).toEqual(['start']);
    expect(waits()).toEqual([60_000]);
    fireAll();
    await flush();
    expect(triggers).toEqual(['start', 'interval']);
    scheduler.stop();
  });

  it('never runs two cycles at once: a request during a cycle is one more cycle after it', async () => {
    const locks = memoryLocks();
    const { timers } = manualTimers();
    const releases: (() => void)[] = [];
    const triggers: SyncTrigger[] = [];
    const scheduler = startSyncScheduler({
      connectionId: 'c',
      cycle: (trigger) => {
        triggers.push(trigger);
        return new Promise<SyncCycleOutcome>((resolve) => releases.push(() => resolve({ kind: 'ok' })));
      },
      locks,
      timers,
    });
    await flush();
    void scheduler.requestSync('user');
    void scheduler.requestSync('focus');
    expect(scheduler.state().running).toBe(true);
    releases.shift()?.();
    await flush();
    releases.shift()?.();
    await flush();
    expect(triggers).toEqual(['start', 'focus']);
    expect(locks.maxHeld()).toBe(1);
    scheduler.stop();
  });

  it('debounces edits into one cycle', async () => {
    const { timers, waits, fireWaiting } = manualTimers();
    const triggers: SyncTrigger[] = [];
    const scheduler = startSyncScheduler({
      connectionId: 'c',
      cycle: async (trigger) => {
        triggers.push(trigger);
        return { kind: 'ok' };
      },
      locks: memoryLocks(),
      timers,
      intervalMs: 60_000,
      editDebounceMs: 1_000,
    });
    await flush();
    scheduler.notifyEdit();
    scheduler.notifyEdit();
    scheduler.notifyEdit();
    expect(waits().filter((ms) => ms === 1_000)).toHaveLength(1);
    fireWaiting(1_000);
    await flush();
    expect(triggers).toEqual(['start', 'edit']);
    scheduler.stop();
  });

  it('backs off after retryable failures, and syncs at once when the network comes back', async () => {
    const { timers, waits } = manualTimers();
    const { source, emit } = eventSource();
    let online = true;
    const triggers: SyncTrigger[] = [];
    const scheduler = startSyncScheduler({
      connectionId: 'c',
      cycle: async (trigger) => {
        triggers.push(trigger);
        return online ? { kind: 'ok' } : { kind: 'failed', retryable: true, message: 'offline' };
      },
      locks: memoryLocks(),
      events: source,
      isOnline: () => online,
      timers,
      random: () => 1,
      intervalMs: 60_000,
    });
    await flush();
    online = false;
    await scheduler.requestSync('user');
    expect(scheduler.state().failures).toBe(1);
    expect(waits()).toEqual([2_000]);
    emit('offline');
    expect(waits()).toEqual([]);
    online = true;
    emit('online');
    await flush();
    expect(triggers.at(-1)).toBe('online');
    expect(scheduler.state()).toMatchObject({ failures: 0, online: true });
    scheduler.stop();
  });
});

describe('a failure waiting cannot mend', () => {
  it('stops automatic cycles until the user asks again', async () => {
    const { timers, waits } = manualTimers();
    let refused = true;
    const triggers: SyncTrigger[] = [];
    const scheduler = startSyncScheduler({
      connectionId: 'c',
      cycle: async (trigger) => {
        triggers.push(trigger);
        return refused ? { kind: 'failed', retryable: false, message: 'The server did not accept the key.' } : { kind: 'ok' };
      },
      locks: memoryLocks(),
      timers,
    });
    await flush();
    expect(scheduler.state().halted).toBe(true);
    expect(waits()).toEqual([]);
    refused = false;
    await scheduler.requestSync('user');
    expect(scheduler.state()).toMatchObject({ halted: false, failures: 0 });
    expect(waits()).toEqual([60_000]);
    expect(triggers).toEqual(['start', 'user']);
    scheduler.stop();
  });
});

describe('backoffMs', () => {
  it('is the interval after success and grows to the cap after failures', () => {
    expect(backoffMs(0, 60_000, 300_000, () => 0.5)).toBe(60_000);
    expect(backoffMs(1, 60_000, 300_000, () => 1)).toBe(2_000);
    expect(backoffMs(3, 60_000, 300_000, () => 1)).toBe(8_000);
    expect(backoffMs(30, 60_000, 300_000, () => 1)).toBe(300_000);
    expect(backoffMs(5, 60_000, 300_000, () => 0)).toBe(1_000);
  });
});
