import type { Kysely } from 'kysely';
import type { StoreDialect } from './store/dialect';
import type { BlobStore } from './store/blobs';
import type { DatabaseSchema } from './store/tables';
import type { DownloadSigner } from './downloads';

/** Limits and settings of a running server. */
export interface ServerConfig {
  /** Largest accepted upload, in bytes (decisions §11: 2 GiB). */
  maxUploadBytes: number;
  /** Largest accepted JSON body, in bytes. */
  maxJsonBytes: number;
  /** How long a signed download address stays valid, in milliseconds (decisions §11: 15 minutes). */
  downloadTtlMs: number;
  /** Base address put in front of download paths; when absent, taken from the request's Host. */
  publicBaseUrl: string | undefined;
  /** How long an `Idempotency-Key` and its answer are kept, in milliseconds (24 hours). */
  idempotencyTtlMs: number;
  /** How long a request holds its key in progress before a retry may take it over, in milliseconds (60 seconds). */
  idempotencyLeaseMs: number;
}

/** Default limits. */
export const defaultServerConfig: ServerConfig = {
  maxUploadBytes: 2 * 1024 ** 3,
  maxJsonBytes: 16 * 1024 ** 2,
  downloadTtlMs: 15 * 60 * 1000,
  publicBaseUrl: undefined,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  idempotencyLeaseMs: 60 * 1000,
};

/** What every service works with: the store (database + blobs) and the server's settings. */
export interface ServerContext {
  readonly db: Kysely<DatabaseSchema>;
  readonly dialect: StoreDialect;
  readonly blobs: BlobStore;
  readonly signer: DownloadSigner;
  readonly config: ServerConfig;
  /** The clock, so expiry can be tested without waiting. */
  now(): Date;
}
