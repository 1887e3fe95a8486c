/**
 * How an upload waits for a server it cannot reach: a wait that doubles with each failure (jittered, so uploads that
 * failed together do not come back together), cut short when there is a sign the server is back for its connection —
 * a call to it succeeded, or its address changed — also when that sign came after the failure but before the wait.
 */
import { abortableSleep } from '../../shared/abortable-sleep';

/** The wait after the `failures`-th failure in a row: from `baseMs`, doubling up to `maxMs`, between half and all of it. */
export function offlineDelayMs(failures: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The waits of uploads per connection, each of which a wake-up of its connection ends. */
export class OfflineWaits {
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #waiting = new Map<string, Set<AbortController>>();
  readonly #wakeUps = new Map<string, number>();

  constructor(sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep) {
    this.#sleep = sleep;
  }

  /** How many wake-ups the connection had so far: taken when a failure is known, and given to `wait`. */
  wakeUps(connectionId: string): number {
    return this.#wakeUps.get(connectionId) ?? 0;
  }

  /**
   * Waits `ms`, or less when `signal` aborts or the connection is woken; not at all when it was woken since it had
   * `since` wake-ups.
   */
  async wait(connectionId: string, ms: number, signal: AbortSignal, since: number): Promise<void> {
    if (this.wakeUps(connectionId) !== since) return;
    const woken = new AbortController();
    const waiting = this.#waiting.get(connectionId) ?? new Set();
    this.#waiting.set(connectionId, waiting);
    waiting.add(woken);
    try {
      await this.#sleep(ms, AbortSignal.any([signal, woken.signal]));
    } finally {
      waiting.delete(woken);
      if (waiting.size === 0) this.#waiting.delete(connectionId);
    }
  }

  /** Ends every wait of the connection now. */
  wake(connectionId: string): void {
    this.#wakeUps.set(connectionId, this.wakeUps(connectionId) + 1);
    for (const woken of this.#waiting.get(connectionId) ?? []) woken.abort();
  }
}
