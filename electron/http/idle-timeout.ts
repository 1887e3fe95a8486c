/**
 * Aborts its signal once nothing happened for `limitMs`. One timer per attempt that re-arms for the remainder, rather
 * than a new timer per chunk.
 */
export class IdleTimeout {
  readonly #controller = new AbortController();
  readonly #limitMs: number;
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout>;

  constructor(limitMs: number) {
    this.#limitMs = limitMs;
    this.#timer = this.#arm(limitMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get fired(): boolean {
    return this.#controller.signal.aborted;
  }

  /** A signal that aborts on this timeout or on the caller's `signal`. */
  joined(signal: AbortSignal | undefined): AbortSignal {
    return signal === undefined ? this.#controller.signal : AbortSignal.any([signal, this.#controller.signal]);
  }

  touch(): void {
    this.#last = performance.now();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #arm(ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => {
      const idle = performance.now() - this.#last;
      if (idle >= this.#limitMs) this.#controller.abort();
      else this.#timer = this.#arm(Math.max(1, this.#limitMs - idle));
    }, ms);
  }
}
