import { tmpdir } from 'node:os';
import path from 'node:path';
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
  /** How long a client may take to send a request's headers, in milliseconds: a slow client cannot hold a socket forever. */
  headersTimeoutMs: number;
  /** How long a connection may sit without a byte moving either way before it is closed, in milliseconds. */
  idleTimeoutMs: number;
  /** How long one request may take in all (an upload of 2 GiB at 0.6 MB/s), in milliseconds. */
  requestTimeoutMs: number;
  /**
   * Requests per key (or per address, without one) within `windowMs`; beyond it 429 with Retry-After. Null: no limit
   * (a server built in a process of its own, as tests do; `serve` sets the limit).
   */
  rateLimit: { max: number; windowMs: number } | null;
  /**
   * Requests without a key or with an unknown or expired one, per client address within `windowMs`; beyond them every
   * request of that address answers 429 with Retry-After, before its key is looked up. Null: no limit.
   */
  failedAuthenticationLimit: { max: number; windowMs: number } | null;
  /** Images one building may hold, and their bytes in all. */
  maxBuildingImages: number;
  maxBuildingImageBytes: number;
  /** The folder under which each import gets a temporary folder of its own (server/imports/import-temp.ts). */
  importTempDir: string;
  /** How long one import may run before its worker is stopped and the file goes to Error, in milliseconds. */
  importTimeLimitMs: number;
  /** Pixels an uploaded image or logo may have, by its header (width × height); more is 400. */
  maxImagePixels: number;
}

/** Default limits. */
export const defaultServerConfig: ServerConfig = {
  maxUploadBytes: 2 * 1024 ** 3,
  maxJsonBytes: 16 * 1024 ** 2,
  downloadTtlMs: 15 * 60 * 1000,
  publicBaseUrl: undefined,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  idempotencyLeaseMs: 60 * 1000,
  headersTimeoutMs: 30 * 1000,
  idleTimeoutMs: 2 * 60 * 1000,
  requestTimeoutMs: 60 * 60 * 1000,
  rateLimit: null,
  failedAuthenticationLimit: { max: 20, windowMs: 60 * 1000 },
  maxBuildingImages: 50,
  maxBuildingImageBytes: 200 * 1024 ** 2,
  // A server with a data folder keeps them there instead (server.ts).
  importTempDir: path.join(tmpdir(), 'circularity-desk-imports'),
  // The largest IFC model the server takes, with every volume from geometry, reads in well under this.
  importTimeLimitMs: 30 * 60 * 1000,
  maxImagePixels: 40_000_000,
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
