/** The rows of the server's own bookkeeping: shared settings, seed data versions, jobs, import turns, idempotency keys. */

/** Settings every process of one server shares (e.g. the secret that signs download addresses). */
export interface ServerSettingsTable {
  name: string;
  value: string;
}

/** Which version of each committed seed data set (platform materials, NL-SfB) the database holds. */
export interface SeedVersionsTable {
  dataset: string;
  version: string;
  appliedAt: string;
}

/** State of a job. */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** Long work (processing, refinement, recalculation, passports) as a claimable row. */
export interface JobsTable {
  id: string;
  kind: string;
  subjectId: string;
  payload: string;
  state: JobState;
  attempts: number;
  runAfter: string;
  leaseUntil: string | null;
  workerId: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** When a portfolio's latest import job was claimed: imports take turns by portfolio (server/jobs/claims.ts). */
export interface ImportTurnsTable {
  portfolioId: string;
  lastClaimedAt: string;
}

/** Whether the first request with an idempotency key is still running, or its successful answer is kept. */
export type IdempotencyState = 'in-progress' | 'completed';

/** One `Idempotency-Key` of one token on one method and path (server/services/idempotency.ts). */
export interface IdempotencyKeysTable {
  /** SHA-256 of the scope: token, method, path and key. */
  id: string;
  tokenId: string;
  /** SHA-256 of the request: method, path with query, canonical JSON body. */
  fingerprint: string;
  state: IdempotencyState;
  /** The attempt that holds an in-progress record, and until when; null once completed. */
  leaseId: string | null;
  leaseUntil: string | null;
  responseStatus: number | null;
  /** JSON object of the answer's Location and Content-Type. */
  responseHeaders: string | null;
  /** The answer's body, sealed with a key derived from the caller's API key; null for an empty body. */
  responseBody: string | null;
  createdAt: string;
  expiresAt: string;
}
