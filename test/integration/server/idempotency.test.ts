import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Level } from '../../../server/auth/principal';
import { principalForKey } from '../../../server/auth/tokens';
import { reserveIdempotencyKey } from '../../../server/services/idempotency';
import { tinyPng } from '../../fixtures/images';
import { ADMIN_KEY, createPortfolioWithBuilding, startTestServer, type TestServer } from './harness';

const api = '/api/v2.3';
const dayMs = 24 * 60 * 60 * 1000;

let test: TestServer;
/** How far the server's clock runs ahead of the real one; tests that move it use keys of their own. */
let clockOffsetMs = 0;

beforeAll(async () => {
  test = await startTestServer({ now: () => new Date(Date.now() + clockOffsetMs) });
});

afterAll(async () => {
  await test.close();
});

/** A POST with an Idempotency-Key (and the administrator key unless another is given). */
function post(url: string, key: string, payload?: unknown, apiKey?: string): Promise<LightMyRequestResponse> {
  return test.request({
    method: 'POST',
    url,
    headers: { 'idempotency-key': key },
    ...(payload === undefined ? {} : { payload: payload as object }),
    ...(apiKey === undefined ? {} : { key: apiKey }),
  });
}

/** How many portfolios have this name. */
async function portfoliosNamed(name: string): Promise<number> {
  const rows = await test.server.context.db.selectFrom('portfolios').select('id').where('name', '=', name).execute();
  return rows.length;
}

describe('Idempotency-Key on creates', () => {
  it('answers a repeat with the first answer, byte for byte, and creates once', async () => {
    const key = randomUUID();
    const name = `Replayed ${key}`;
    const first = await post(`${api}/portfolios`, key, { name });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await post(`${api}/portfolios`, key, { name });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await portfoliosNamed(name)).toBe(1);
  });

  it('takes a body with other key order and spacing as the same request', async () => {
    const key = randomUUID();
    const { portfolioId } = await createPortfolioWithBuilding(test);
    const first = await post(`${api}/buildings`, key, { portfolioId, name: 'Same' });
    const reordered = await test.request({
      method: 'POST',
      url: `${api}/buildings`,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      payload: `{ "name": "Same",\n  "portfolioId": "${portfolioId}" }`,
    });
    expect(first.statusCode).toBe(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.json()).toEqual(first.json());
  });

  it('answers 422 for the same key with another body, and creates nothing', async () => {
    const key = randomUUID();
    expect((await post(`${api}/portfolios`, key, { name: `First ${key}` })).statusCode).toBe(201);
    const other = await post(`${api}/portfolios`, key, { name: `Other ${key}` });
    expect(other.statusCode).toBe(422);
    expect(other.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(other.json()).toMatchObject({
      status: 422,
      detail: expect.stringContaining('Idempotency-Key was used for another request'),
      errors: [{ path: 'headers.idempotency-key' }],
    });
    expect(await portfoliosNamed(`Other ${key}`)).toBe(0);
  });

  it('creates exactly once when identical requests arrive together', async () => {
    const key = randomUUID();
    const name = `Concurrent ${key}`;
    const answers = await Promise.all(Array.from({ length: 4 }, () => post(`${api}/portfolios`, key, { name })));
    const created = answers.filter((a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(created).toHaveLength(1);
    const createdId = (created[0]?.json() as { id: string }).id;
    for (const answer of answers) {
      if (answer === created[0]) continue;
      if (answer.statusCode === 409) {
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.json()).toMatchObject({ status: 409 });
      } else {
        expect(answer.statusCode).toBe(201);
        expect(answer.headers['idempotent-replayed']).toBe('true');
        expect((answer.json() as { id: string }).id).toBe(createdId);
      }
    }
    expect(await portfoliosNamed(name)).toBe(1);
  });

  it('keeps no failed answer: a corrected retry with the same key runs', async () => {
    const key = randomUUID();
    const invalid = await post(`${api}/portfolios`, key, { title: 'no name' });
    expect(invalid.statusCode).toBe(400);
    const fixed = await post(`${api}/portfolios`, key, { name: `Fixed ${key}` });
    expect(fixed.statusCode).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();

    // A failure inside the handler, after the key was reserved (an unknown portfolio), frees the key as well.
    const buildingKey = randomUUID();
    const missing = await post(`${api}/buildings`, buildingKey, { portfolioId: randomUUID(), name: 'Nowhere' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errors: [{ path: 'portfolioId' }] });
    const portfolioId = (fixed.json() as { id: string }).id;
    const found = await post(`${api}/buildings`, buildingKey, { portfolioId, name: 'Somewhere' });
    expect(found.statusCode).toBe(201);
    expect(found.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps keys apart per token', async () => {
    const key = randomUUID();
    const name = `Per token ${key}`;
    const otherKey = await test.key('account', null, Level.Administrator);
    const mine = await post(`${api}/portfolios`, key, { name });
    const theirs = await post(`${api}/portfolios`, key, { name }, otherKey);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect((theirs.json() as { id: string }).id).not.toBe((mine.json() as { id: string }).id);
    expect(await portfoliosNamed(name)).toBe(2);
  });

  it('keeps keys apart per path', async () => {
    const key = randomUUID();
    const [first, second] = [await createPortfolioWithBuilding(test), await createPortfolioWithBuilding(test)];
    const token = { name: `Path ${key}`, level: Level.Read };
    const one = await post(`${api}/portfolios/${first.portfolioId}/tokens`, key, token);
    const other = await post(`${api}/portfolios/${second.portfolioId}/tokens`, key, token);
    expect(one.statusCode).toBe(201);
    expect(other.statusCode).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect((other.json() as { id: string }).id).not.toBe((one.json() as { id: string }).id);
  });

  it('replays an empty 202 and schedules the work once', async () => {
    const { buildingId } = await createPortfolioWithBuilding(test);
    const jobsBefore = await test.server.context.db.selectFrom('jobs').select('id').where('subjectId', '=', buildingId).execute();
    const key = randomUUID();
    const first = await post(`${api}/buildings/${buildingId}/process`, key);
    const again = await post(`${api}/buildings/${buildingId}/process`, key);
    expect(first.statusCode).toBe(202);
    expect(first.body).toBe('');
    expect(again.statusCode).toBe(202);
    expect(again.body).toBe('');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.location).toBe(first.headers.location);
    const jobsAfter = await test.server.context.db.selectFrom('jobs').select('id').where('subjectId', '=', buildingId).execute();
    expect(jobsAfter.length - jobsBefore.length).toBe(1);
  });

  it('replays a created token with its key, and keeps no key in clear', async () => {
    const key = randomUUID();
    const first = await post(`${api}/accounts/current/tokens`, key, { name: 'Replayed token', level: Level.Read });
    expect(first.statusCode).toBe(201);
    const again = await post(`${api}/accounts/current/tokens`, key, { name: 'Replayed token', level: Level.Read });
    expect(again.headers['idempotent-replayed']).toBe('true');
    const token = again.json() as { id: string; key: string };
    expect(token).toEqual(first.json());
    const records = await test.server.context.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(JSON.stringify(record)).not.toContain(token.key);
    expect(await test.server.context.db.selectFrom('tokens').select('id').where('name', '=', 'Replayed token').execute()).toHaveLength(1);
  });

  it('honours the key on the v2.1 routes too', async () => {
    const key = randomUUID();
    const name = `v2.1 ${key}`;
    await post('/api/v2.1/portfolios', key, { name });
    const again = await post('/api/v2.1/portfolios', key, { name });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await portfoliosNamed(name)).toBe(1);
  });

  it.each([
    ['a space', 'has space'],
    ['too long a key', 'k'.repeat(256)],
    ['a control character', 'tab\there'],
  ])('answers 400 naming the header for %s', async (_case, key) => {
    const name = `Invalid key ${randomUUID()}`;
    const response = await post(`${api}/portfolios`, key, { name });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ path: 'headers.idempotency-key' }] });
    expect(await portfoliosNamed(name)).toBe(0);
  });

  it('takes 255 visible characters as a key', async () => {
    const key = `${randomUUID()}!"#~`.padEnd(255, 'x');
    const name = `Long key ${key}`;
    expect((await post(`${api}/portfolios`, key, { name })).statusCode).toBe(201);
    expect((await post(`${api}/portfolios`, key, { name })).headers['idempotent-replayed']).toBe('true');
  });

  it('leaves uploads of file content alone: the header is neither checked nor honoured there', async () => {
    const key = randomUUID();
    const { portfolioId } = await createPortfolioWithBuilding(test);
    const png = Buffer.from(tinyPng());
    const upload = (idempotencyKey: string) =>
      test.request({
        method: 'POST',
        url: `${api}/portfolios/${portfolioId}/logo/logo.png`,
        headers: { 'idempotency-key': idempotencyKey, 'content-type': 'image/png' },
        payload: png,
      });
    for (const answer of [await upload(key), await upload(key), await upload('not checked here')]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('ignores the header on reads', async () => {
    const response = await test.request({ method: 'GET', url: `${api}/portfolios`, headers: { 'idempotency-key': 'has space' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('Idempotency-Key over time', () => {
  it('takes over a key whose request died in progress once its lease ends', async () => {
    const key = randomUUID();
    const name = `Lease ${key}`;
    const principal = await principalForKey(test.server.context.db, ADMIN_KEY, test.server.context.now());
    const path = `${api}/portfolios`;
    // A request that reserved the key and never finished: its process died.
    const crashed = await reserveIdempotencyKey(test.server.context, {
      tokenId: principal?.tokenId ?? '',
      apiKey: ADMIN_KEY,
      method: 'POST',
      path,
      target: path,
      key,
      body: { name },
    });
    expect(crashed.kind).toBe('proceed');

    const meanwhile = await post(path, key, { name });
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.headers['retry-after']).toBe('1');
    expect(await portfoliosNamed(name)).toBe(0);

    clockOffsetMs += test.server.context.config.idempotencyLeaseMs + 1;
    const retried = await post(path, key, { name });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await post(path, key, { name })).headers['idempotent-replayed']).toBe('true');
    expect(await portfoliosNamed(name)).toBe(1);
  });

  it('forgets a key after 24 hours and sweeps expired records', async () => {
    const key = randomUUID();
    const name = `Expiring ${key}`;
    expect((await post(`${api}/portfolios`, key, { name })).statusCode).toBe(201);
    clockOffsetMs += dayMs - 1000;
    expect((await post(`${api}/portfolios`, key, { name })).headers['idempotent-replayed']).toBe('true');

    clockOffsetMs += 2000;
    // Past its expiry the key is free: another body is a new request, not a 422.
    const later = await post(`${api}/portfolios`, key, { name: `${name} later` });
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();

    // Records of keys that never come back are swept (at most an hour apart).
    clockOffsetMs += dayMs + 60 * 60 * 1000;
    await post(`${api}/portfolios`, randomUUID(), { name: `Sweeper ${key}` });
    const at = test.server.context.now().toISOString();
    const stale = await test.server.context.db.selectFrom('idempotency_keys').select('id').where('expiresAt', '<=', at).execute();
    expect(stale).toHaveLength(0);
    expect(await test.server.context.db.selectFrom('idempotency_keys').select('id').execute()).toHaveLength(1);
  });
});
