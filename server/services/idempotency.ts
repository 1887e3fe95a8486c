import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { ServerContext } from '../context';

/** What the key's records need of the server: the database, the clock and the expiry and lease settings. */
export type IdempotencyContext = Pick<ServerContext, 'db' | 'now' | 'config'>;

/** One request that carries an `Idempotency-Key`, as far as the key's records need it. */
export interface IdempotentRequest {
  /** The caller's token: keys of different tokens never meet. */
  tokenId: string;
  /** The caller's API key, from which the key sealing the stored answer is derived; never stored. */
  apiKey: string;
  method: string;
  /** The path without the query: part of the key's scope. */
  path: string;
  /** The path with the query: part of the fingerprint. */
  target: string;
  key: string;
  /** The parsed JSON body (undefined without one). */
  body: unknown;
}

/** A stored successful answer, replayed as it was sent. */
export interface StoredResponse {
  status: number;
  /** The headers that matter to a replay (Location, Content-Type), lower-case names. */
  headers: Record<string, string>;
  /** The exact bytes sent; undefined for an empty answer. */
  body: Buffer | undefined;
}

/** The claim of one attempt on an in-progress record, needed to complete or release it. */
export interface IdempotencyHold {
  readonly recordId: string;
  readonly leaseId: string;
  readonly apiKey: string;
}

/** What to do with a request that carries a key. */
export type Reservation =
  /** The key is this attempt's: run the request, then complete or release the hold. */
  | { kind: 'proceed'; hold: IdempotencyHold }
  /** The key's first request succeeded with this same request: answer what it answered. */
  | { kind: 'replay'; response: StoredResponse }
  /** The key was used for another request. */
  | { kind: 'mismatch' }
  /** The key's first request is still running. */
  | { kind: 'in-progress' };

/** Headers of an answer that a replay repeats. */
export const REPLAYED_HEADERS = ['location', 'content-type'] as const;

/** Rounds of insert-or-read before a key contended by takeovers and expiries answers "in progress". */
const maxReserveRounds = 3;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** JSON with object keys sorted at every level, so a retry that orders or spaces its body differently still matches. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item) || 'null').join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The record id of a key: its scope hashed, so any length of path and key fits one indexed column. */
function scopeId(request: IdempotentRequest): string {
  return sha256(JSON.stringify([request.tokenId, request.method, request.path, request.key]));
}

/** What makes two requests the same request. */
function fingerprint(request: IdempotentRequest): string {
  return sha256(JSON.stringify([request.method, request.target, canonicalJson(request.body)]));
}

/**
 * The key sealing a stored answer. A token create's answer holds the new key in clear, and the store keeps no key in
 * clear (only hashes): so answers are kept encrypted under the caller's own key, which the store does not have.
 */
function sealingKey(apiKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', apiKey, '', 'circularity-desk idempotency answer', 32));
}

/** AES-256-GCM with the record id as associated data, so a sealed body cannot be moved to another record. */
function seal(apiKey: string, recordId: string, body: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(apiKey), iv);
  cipher.setAAD(Buffer.from(recordId, 'utf8'));
  const sealed = Buffer.concat([iv, cipher.update(body), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString('base64');
}

/** Opens what `seal` sealed; throws when the key or the record differs. */
function unseal(apiKey: string, recordId: string, sealed: string): Buffer {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(apiKey), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(recordId, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
}

/**
 * Reserves a key for a request (IETF draft "The Idempotency-Key HTTP Header Field"). The in-progress record is
 * inserted first and the primary key decides: of two concurrent requests exactly one inserts and runs, the other
 * reads the record. A record past its expiry is removed and the key starts afresh; an in-progress record past its
 * lease (its request died) is taken over by a conditional update that only one retry can win.
 */
export async function reserveIdempotencyKey(ctx: IdempotencyContext, request: IdempotentRequest): Promise<Reservation> {
  const recordId = scopeId(request);
  const requestFingerprint = fingerprint(request);
  for (let round = 0; round < maxReserveRounds; round++) {
    const now = ctx.now();
    const at = now.toISOString();
    const leaseId = randomUUID();
    const leaseUntil = new Date(now.getTime() + ctx.config.idempotencyLeaseMs).toISOString();
    const inserted = await ctx.db
      .insertInto('idempotency_keys')
      .values({
        id: recordId,
        tokenId: request.tokenId,
        fingerprint: requestFingerprint,
        state: 'in-progress',
        leaseId,
        leaseUntil,
        responseStatus: null,
        responseHeaders: null,
        responseBody: null,
        createdAt: at,
        expiresAt: new Date(now.getTime() + ctx.config.idempotencyTtlMs).toISOString(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 1n) return { kind: 'proceed', hold: { recordId, leaseId, apiKey: request.apiKey } };

    const record = await ctx.db.selectFrom('idempotency_keys').selectAll().where('id', '=', recordId).executeTakeFirst();
    if (record === undefined) continue;
    if (record.expiresAt <= at) {
      await ctx.db.deleteFrom('idempotency_keys').where('id', '=', recordId).where('expiresAt', '=', record.expiresAt).execute();
      continue;
    }
    // A different request never gets another's answer, finished or not.
    if (record.fingerprint !== requestFingerprint) return { kind: 'mismatch' };
    if (record.state === 'completed') {
      return {
        kind: 'replay',
        response: {
          status: record.responseStatus ?? 200,
          headers: JSON.parse(record.responseHeaders ?? '{}') as Record<string, string>,
          body: record.responseBody === null ? undefined : unseal(request.apiKey, recordId, record.responseBody),
        },
      };
    }
    if (record.leaseUntil !== null && record.leaseUntil > at) return { kind: 'in-progress' };
    const takenOver = await ctx.db
      .updateTable('idempotency_keys')
      .set({ leaseId, leaseUntil })
      .where('id', '=', recordId)
      .where('state', '=', 'in-progress')
      .where((eb) => (record.leaseId === null ? eb('leaseId', 'is', null) : eb('leaseId', '=', record.leaseId)))
      .executeTakeFirst();
    if (takenOver.numUpdatedRows === 1n) return { kind: 'proceed', hold: { recordId, leaseId, apiKey: request.apiKey } };
  }
  return { kind: 'in-progress' };
}

/**
 * Keeps a successful answer for replays. Conditional on the hold: an attempt that outlived its lease and was taken
 * over leaves the record to the attempt that holds it now.
 */
export async function completeIdempotencyKey(ctx: IdempotencyContext, hold: IdempotencyHold, response: StoredResponse): Promise<void> {
  await ctx.db
    .updateTable('idempotency_keys')
    .set({
      state: 'completed',
      leaseId: null,
      leaseUntil: null,
      responseStatus: response.status,
      responseHeaders: JSON.stringify(response.headers),
      responseBody: response.body === undefined ? null : seal(hold.apiKey, hold.recordId, response.body),
    })
    .where('id', '=', hold.recordId)
    .where('leaseId', '=', hold.leaseId)
    .execute();
}

/** Frees a key whose request did not succeed, so a corrected retry with the same key runs. */
export async function releaseIdempotencyKey(ctx: IdempotencyContext, hold: IdempotencyHold): Promise<void> {
  await ctx.db.deleteFrom('idempotency_keys').where('id', '=', hold.recordId).where('leaseId', '=', hold.leaseId).execute();
}

/** Deletes every record past its expiry; returns how many. */
export async function deleteExpiredIdempotencyKeys(ctx: IdempotencyContext): Promise<number> {
  const result = await ctx.db.deleteFrom('idempotency_keys').where('expiresAt', '<=', ctx.now().toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
