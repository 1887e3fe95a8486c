/** The waits of the upload service, in one place so tests can shorten them. */
import type { SpoolTiming } from './spool';

/** The waits of uploads; tests shorten them. */
export interface UploadTiming extends SpoolTiming {
  /** The first wait after the server could not be reached; it doubles up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Progress of an upload is sent at most this often. */
  progressEveryMs: number;
  /** A failed or cancelled upload keeps its spool this long, for a retry. */
  keepEndedSpoolMs: number;
}

/** The waits of a service that sets none. */
export const DEFAULT_UPLOAD_TIMING: Readonly<UploadTiming> = {
  retryBaseMs: 5_000,
  retryMaxMs: 5 * 60_000,
  progressEveryMs: 250,
  keepEndedSpoolMs: 24 * 60 * 60_000,
  unclaimedMs: 15 * 60_000,
  stalledMs: 30_000,
};
