/**
 * How fast an upload goes and how long the rest takes: the rate over the last few seconds (so a stall shows at once and
 * a fast start does not promise too much), from the byte counts the queued client reports as fetch takes the bytes.
 */

/** The rate is measured over this much of the recent past. */
export const RATE_WINDOW_MS = 5_000;

/** Below this span of samples a rate says nothing yet. */
const MIN_SPAN_MS = 200;

interface Sample {
  atMs: number;
  bytes: number;
}

/** The recent byte counts of one transfer. */
export class TransferRate {
  readonly #windowMs: number;
  #samples: Sample[] = [];

  constructor(windowMs = RATE_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  /** Notes that `bytes` had gone out in all at `atMs`; a lower count than the last starts over (the call was tried again). */
  record(atMs: number, bytes: number): void {
    const last = this.#samples.at(-1);
    if (last !== undefined && bytes < last.bytes) this.#samples = [];
    this.#samples.push({ atMs, bytes });
    // One sample older than the window is kept, so the window is always covered from its start.
    const start = atMs - this.#windowMs;
    let drop = 0;
    while (drop + 1 < this.#samples.length && (this.#samples[drop + 1]?.atMs ?? Infinity) <= start) drop += 1;
    if (drop > 0) this.#samples.splice(0, drop);
  }

  /** Bytes per second over the window; null until the samples span long enough to tell. */
  bytesPerSecond(): number | null {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (first === undefined || last === undefined || last.atMs - first.atMs < MIN_SPAN_MS) return null;
    return ((last.bytes - first.bytes) * 1000) / (last.atMs - first.atMs);
  }

  /** Seconds until `total` bytes are out at the current rate; null while the rate is unknown or nothing moves. */
  secondsLeft(total: number): number | null {
    const rate = this.bytesPerSecond();
    const last = this.#samples.at(-1);
    if (rate === null || rate <= 0 || last === undefined) return null;
    return Math.max(0, total - last.bytes) / rate;
  }
}
