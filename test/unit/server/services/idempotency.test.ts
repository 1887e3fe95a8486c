import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Level } from '../../../../server/auth/principal';
import { createToken } from '../../../../server/auth/tokens';
import { defaultServerConfig } from '../../../../server/context';
import {
  canonicalJson,
  completeIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
  type IdempotencyContext,
  type IdempotencyHold,
  type IdempotentRequest,
  type Reservation,
} from '../../../../server/services/idempotency';
import { openDatabase, type Database } from '../../../../server/store/store';

const accountId = '00000000-0000-4000-8000-000000000001';
const leaseMs = defaultServerConfig.idempotencyLeaseMs;
const ttlMs = defaultServerConfig.idempotencyTtlMs;

let database: Database;
let clock: Date;
let ctx: IdempotencyContext;
let request: IdempotentRequest;

beforeEach(async () => {
  database = await openDatabase(':memory:');
  await database.db
    .insertInto('accounts')
    .values({ id: accountId, name: 'Account', accountType: 3, createdAt: new Date().toISOString() })
    .execute();
  const token = await createToken(database.db, {
    accountId,
    name: 'Writer',
    scopeKind: 'account',
    scopeId: null,
    level: Level.Write,
    expiresAt: null,
  });
  clock = new Date('2030-01-01T00:00:00.000Z');
  ctx = { db: database.db, config: defaultServerConfig, now: () => clock };
  request = {
    tokenId: token.id,
    apiKey: token.key,
    method: 'POST',
    path: '/api/v2.3/portfolios',
    target: '/api/v2.3/portfolios',
    key: 'key-1',
    body: { name: 'North', logo: null },
  };
});

afterEach(async () => {
  await database.close();
});

/** Moves the clock on. */
function advance(ms: number): void {
  clock = new Date(clock.getTime() + ms);
}

/** The hold of a reservation that must have been granted. */
function holdOf(reservation: Reservation): IdempotencyHold {
  if (reservation.kind !== 'proceed') throw new Error(`expected proceed, got ${reservation.kind}`);
  return reservation.hold;
}

const answer = { status: 201, headers: { location: '/api/v2.3/portfolios/1', 'content-type': 'application/json; charset=utf-8' } };

describe('reserveIdempotencyKey', () => {
  it('grants a key to exactly one of many concurrent requests', async () => {
    const reservations = await Promise.all(Array.from({ length: 5 }, () => reserveIdempotencyKey(ctx, request)));
    expect(reservations.filter((r) => r.kind === 'proceed')).toHaveLength(1);
    expect(reservations.filter((r) => r.kind === 'in-progress')).toHaveLength(4);
  });

  it('replays a completed answer byte for byte, and keeps the body sealed', async () => {
    const body = Buffer.from('{"id":"1","name":"North","key":"secret-key-in-the-answer"}', 'utf8');
    await completeIdempotencyKey(ctx, holdOf(await reserveIdempotencyKey(ctx, request)), { ...answer, body });
    const replay = await reserveIdempotencyKey(ctx, { ...request, body: { logo: null, name: 'North' } });
    expect(replay).toEqual({ kind: 'replay', response: { ...answer, body } });
    const rows = await database.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain('secret-key-in-the-answer');
  });

  it('replays an empty answer as empty', async () => {
    await completeIdempotencyKey(ctx, holdOf(await reserveIdempotencyKey(ctx, request)), { status: 202, headers: {}, body: undefined });
    expect(await reserveIdempotencyKey(ctx, request)).toEqual({ kind: 'replay', response: { status: 202, headers: {}, body: undefined } });
  });

  it('answers mismatch for another body, another query, finished or still running', async () => {
    await reserveIdempotencyKey(ctx, request);
    expect((await reserveIdempotencyKey(ctx, { ...request, body: { name: 'South' } })).kind).toBe('mismatch');
    expect((await reserveIdempotencyKey(ctx, { ...request, target: `${request.path}?x=1` })).kind).toBe('mismatch');
  });

  it('keeps tokens, methods, paths and keys apart', async () => {
    await reserveIdempotencyKey(ctx, request);
    const other = await createToken(database.db, { accountId, name: 'Other', scopeKind: 'account', scopeId: null, level: Level.Write, expiresAt: null });
    for (const variant of [
      { ...request, tokenId: other.id, apiKey: other.key },
      { ...request, path: '/api/v2.1/portfolios', target: '/api/v2.1/portfolios' },
      { ...request, method: 'PUT' },
      { ...request, key: 'key-2' },
    ]) {
      expect((await reserveIdempotencyKey(ctx, variant)).kind).toBe('proceed');
    }
  });

  it('frees a released key for a corrected retry', async () => {
    await releaseIdempotencyKey(ctx, holdOf(await reserveIdempotencyKey(ctx, { ...request, body: { wrong: true } })));
    expect((await reserveIdempotencyKey(ctx, request)).kind).toBe('proceed');
  });

  it('lets one retry take over a key whose lease ended; the stale attempt can neither complete nor release it', async () => {
    const stale = holdOf(await reserveIdempotencyKey(ctx, request));
    advance(leaseMs - 1);
    expect((await reserveIdempotencyKey(ctx, request)).kind).toBe('in-progress');
    advance(2);
    const retries = await Promise.all([reserveIdempotencyKey(ctx, request), reserveIdempotencyKey(ctx, request)]);
    expect(retries.map((r) => r.kind).sort()).toEqual(['in-progress', 'proceed']);
    const current = holdOf(retries.find((r) => r.kind === 'proceed') as Reservation);

    await releaseIdempotencyKey(ctx, stale);
    await completeIdempotencyKey(ctx, stale, { ...answer, body: Buffer.from('stale') });
    expect((await reserveIdempotencyKey(ctx, request)).kind).toBe('in-progress');

    await completeIdempotencyKey(ctx, current, { ...answer, body: Buffer.from('current') });
    const replay = await reserveIdempotencyKey(ctx, request);
    expect(replay.kind === 'replay' && replay.response.body?.toString()).toBe('current');
  });

  it('starts a key afresh once its record expired', async () => {
    await completeIdempotencyKey(ctx, holdOf(await reserveIdempotencyKey(ctx, request)), { ...answer, body: undefined });
    advance(ttlMs - 1);
    expect((await reserveIdempotencyKey(ctx, { ...request, body: { name: 'South' } })).kind).toBe('mismatch');
    advance(1);
    expect((await reserveIdempotencyKey(ctx, { ...request, body: { name: 'South' } })).kind).toBe('proceed');
  });
});

describe('expiry and deletion', () => {
  it('deletes only records past their expiry', async () => {
    await reserveIdempotencyKey(ctx, request);
    advance(ttlMs / 2);
    await reserveIdempotencyKey(ctx, { ...request, key: 'key-2' });
    advance(ttlMs / 2);
    expect(await deleteExpiredIdempotencyKeys(ctx)).toBe(1);
    expect(await database.db.selectFrom('idempotency_keys').select('id').execute()).toHaveLength(1);
  });

  it('drops a token’s records with the token', async () => {
    await reserveIdempotencyKey(ctx, request);
    await database.db.deleteFrom('tokens').where('id', '=', request.tokenId).execute();
    expect(await database.db.selectFrom('idempotency_keys').select('id').execute()).toHaveLength(0);
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every level and drops undefined properties', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { f: 1, e: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"e":2,"f":1}]},"b":1}');
  });

  it('keeps array order, scalars and null, and gives nothing for no body', () => {
    expect(canonicalJson([2, 1, null, 'x', true])).toBe('[2,1,null,"x",true]');
    expect(canonicalJson(undefined)).toBe('');
    expect(canonicalJson('')).toBe('""');
  });
});
