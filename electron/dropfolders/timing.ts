/** The waits of drop folders, in one place so tests can shorten them. */
/** The waits of drop folders; tests shorten them. */
export interface DropFolderTiming {
  /** How long a file's size and modification time must stay the same before it counts as complete. */
  stableMs: number;
  /** How often the processing status of an uploaded file is read. */
  statusPollMs: number;
  /** The first wait after a failure the queued client gave up on; it doubles up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How often each folder is walked in full, for what the watcher missed. */
  rescanIntervalMs: number;
  /** How often a polled folder (network drive) is looked at. */
  watchPollMs: number;
  /** Progress is sent at most this often. */
  progressEveryMs: number;
}

/** The waits of a service that sets none. */
export const DEFAULT_TIMING: Readonly<DropFolderTiming> = {
  stableMs: 2_000,
  statusPollMs: 2_000,
  retryBaseMs: 5_000,
  retryMaxMs: 5 * 60_000,
  rescanIntervalMs: 10 * 60_000,
  watchPollMs: 2_000,
  progressEveryMs: 250,
};

/** The wait before the next try after `failures` failures in a row: doubling up to `retryMaxMs`, with jitter. */
export function retryDelayMs(timing: DropFolderTiming, failures: number, random: () => number): number {
  const { retryBaseMs, retryMaxMs } = timing;
  const ceiling = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}
