/** A first-come, first-served limit on how many calls of one client run at once. */

/** How many calls wait for a slot and how many hold one. */
export interface QueueActivity {
  queued: number;
  running: number;
}

/** Gives a slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant(release: ReleaseSlot): void;
  refuse(): void;
}

/** Hands out at most `limit` slots at a time, in the order they were asked for. */
export class SlotQueue {
  readonly #limit: number;
  readonly #onChange: ((activity: QueueActivity) => void) | undefined;
  readonly #waiting: Waiter[] = [];
  readonly #idleWaiters: (() => void)[] = [];
  #running = 0;
  #closed = false;

  constructor(limit: number, onChange?: (activity: QueueActivity) => void) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`A queue needs at least one slot, not ${limit}.`);
    this.#limit = limit;
    this.#onChange = onChange;
  }

  /** The current counts. */
  get activity(): QueueActivity {
    return { queued: this.#waiting.length, running: this.#running };
  }

  /** Waits for a slot; undefined when `signal` aborts or the queue closes first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot | undefined> {
    if (this.#closed || signal?.aborted === true) return Promise.resolve(undefined);
    // A free slot goes to the newcomer only when nobody waits, so the order of arrival holds.
    if (this.#running < this.#limit && this.#waiting.length === 0) {
      this.#running += 1;
      this.#report();
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        this.#report();
        this.#checkIdle();
        resolve(undefined);
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        refuse: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(undefined);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#report();
    });
  }

  /** Refuses every waiting and every later `acquire`; slots already held stay until released. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const refused = this.#waiting.splice(0);
    for (const waiter of refused) waiter.refuse();
    if (refused.length > 0) this.#report();
    this.#checkIdle();
  }

  /** Resolves once no slot is held and nobody waits. */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so `running` stays the same and nobody can jump the queue.
      if (next === undefined) this.#running -= 1;
      else next.grant(this.#releaser());
      this.#report();
      this.#checkIdle();
    };
  }

  #isIdle(): boolean {
    return this.#running === 0 && this.#waiting.length === 0;
  }

  #checkIdle(): void {
    if (!this.#isIdle()) return;
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  #report(): void {
    this.#onChange?.(this.activity);
  }
}
