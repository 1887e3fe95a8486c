/**
 * When sync runs: one cycle at a time per connection (across every window of the app, through the Web Locks API),
 * started by an edit (debounced), an interval, the network coming back, the window getting focus, or the user's
 * "Sync now"; after a failed cycle the next automatic one waits longer (backoff with jitter).
 */

/** Why a cycle was asked for (`host`: the host reported a change on the server, such as a drop folder's upload). */
export type SyncTrigger = 'edit' | 'interval' | 'online' | 'focus' | 'user' | 'start' | 'host';

/** The part of the Web Locks API the scheduler uses; `navigator.locks` in the page. */
export interface SyncLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The events the scheduler listens to; `window` in the page. */
export interface SyncEventSource {
  addEventListener(type: 'online' | 'offline' | 'focus', listener: () => void): void;
  removeEventListener(type: 'online' | 'offline' | 'focus', listener: () => void): void;
}

/** What a cycle reports back: ok, or failed (and whether retrying later can help). */
export type SyncCycleOutcome = { kind: 'ok' } | { kind: 'failed'; retryable: boolean; message: string };

/** Timers, injectable so tests run without waiting. */
export interface SchedulerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How the scheduler runs. */
export interface SyncSchedulerOptions {
  connectionId: string;
  /** One sync cycle: push, then pull. It must not throw; failures are its outcome. */
  cycle: (trigger: SyncTrigger) => Promise<SyncCycleOutcome>;
  locks: SyncLocks;
  events?: SyncEventSource;
  /** Whether the network is up now (`navigator.onLine`). */
  isOnline?: () => boolean;
  intervalMs?: number;
  editDebounceMs?: number;
  /** The longest wait after failures. */
  maxBackoffMs?: number;
  timers?: SchedulerTimers;
  random?: () => number;
  /** Called when a cycle starts, ends, or the network state changes. */
  onChange?: (state: SchedulerState) => void;
}

/** What the scheduler is doing. */
export interface SchedulerState {
  running: boolean;
  online: boolean;
  /** Failed cycles in a row; 0 after a success. */
  failures: number;
  /**
   * A cycle failed in a way waiting cannot mend (a refused key, a broken answer): no automatic cycles follow until
   * the user syncs, edits, or the window gets focus again.
   */
  halted: boolean;
  /** When the next automatic cycle is due (ms since epoch), if one is planned. */
  nextAt: number | undefined;
}

/** A running scheduler. */
export interface SyncScheduler {
  /** Asks for a cycle now (a cycle already running is followed by one more, not run twice at once). */
  requestSync(trigger: SyncTrigger): Promise<void>;
  /** Tells the scheduler the user edited something; a cycle follows after a quiet moment. */
  notifyEdit(): void;
  state(): SchedulerState;
  stop(): void;
}

/** The wait before the next automatic cycle after `failures` failed ones: exponential, full jitter, capped. */
export function backoffMs(failures: number, intervalMs: number, maxMs: number, random: () => number): number {
  if (failures === 0) return intervalMs;
  const ceiling = Math.min(maxMs, 2_000 * 2 ** Math.min(failures - 1, 20));
  return Math.max(1_000, Math.round(random() * ceiling));
}

/** Starts scheduling sync for one connection; a first cycle runs at once. */
export function startSyncScheduler(options: SyncSchedulerOptions): SyncScheduler {
  const timers: SchedulerTimers = options.timers ?? {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
  const intervalMs = options.intervalMs ?? 60_000;
  const editDebounceMs = options.editDebounceMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 5 * 60_000;
  const random = options.random ?? Math.random;
  const isOnline = options.isOnline ?? (() => true);

  let stopped = false;
  let running: Promise<void> | undefined;
  let again: SyncTrigger | undefined;
  let nextTimer: unknown;
  let editTimer: unknown;
  const current: SchedulerState = { running: false, online: isOnline(), failures: 0, halted: false, nextAt: undefined };

  const changed = (): void => options.onChange?.({ ...current });

  function planNext(): void {
    if (nextTimer !== undefined) timers.clearTimeout(nextTimer);
    nextTimer = undefined;
    current.nextAt = undefined;
    if (stopped || !current.online || current.halted) return;
    const wait = backoffMs(current.failures, intervalMs, maxBackoffMs, random);
    current.nextAt = Date.now() + wait;
    nextTimer = timers.setTimeout(() => void requestSync('interval'), wait);
  }

  async function runCycles(trigger: SyncTrigger): Promise<void> {
    let next: SyncTrigger | undefined = trigger;
    while (next !== undefined && !stopped) {
      const cycleTrigger = next;
      again = undefined;
      current.running = true;
      changed();
      // Another window of the app may hold the lock: then this cycle waits for it, and never runs beside it.
      const outcome = await options.locks.request(`sync:${options.connectionId}`, () => options.cycle(cycleTrigger));
      current.running = false;
      current.failures = outcome.kind === 'ok' || !outcome.retryable ? 0 : current.failures + 1;
      current.halted = outcome.kind === 'failed' && !outcome.retryable;
      next = again;
    }
    planNext();
    changed();
  }

  function requestSync(trigger: SyncTrigger): Promise<void> {
    if (stopped) return Promise.resolve();
    if (trigger === 'interval' && current.halted) return Promise.resolve();
    if (running !== undefined) {
      again = trigger;
      return running;
    }
    running = runCycles(trigger).finally(() => {
      running = undefined;
    });
    return running;
  }

  const onOnline = (): void => {
    current.online = true;
    current.failures = 0;
    changed();
    void requestSync('online');
  };
  const onOffline = (): void => {
    current.online = false;
    planNext();
    changed();
  };
  const onFocus = (): void => void requestSync('focus');
  options.events?.addEventListener('online', onOnline);
  options.events?.addEventListener('offline', onOffline);
  options.events?.addEventListener('focus', onFocus);

  void requestSync('start');

  return {
    requestSync,
    notifyEdit() {
      if (stopped) return;
      if (editTimer !== undefined) timers.clearTimeout(editTimer);
      editTimer = timers.setTimeout(() => {
        editTimer = undefined;
        void requestSync('edit');
      }, editDebounceMs);
    },
    state: () => ({ ...current }),
    stop() {
      stopped = true;
      if (nextTimer !== undefined) timers.clearTimeout(nextTimer);
      if (editTimer !== undefined) timers.clearTimeout(editTimer);
      options.events?.removeEventListener('online', onOnline);
      options.events?.removeEventListener('offline', onOffline);
      options.events?.removeEventListener('focus', onFocus);
    },
  };
}
