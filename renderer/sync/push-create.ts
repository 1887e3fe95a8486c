/**
 * A create of a resource whose id the server gives (portfolio, building, material, product), without a duplicate
 * whatever happened to earlier attempts: the collection is listed before the first send, and again before a retry.
 * Which collection, and the fields a create is found by in it, is each entity's `serverId` in `../db/entities.ts`.
 */
import { getRow, requestOf, valuesOf, wireBody } from '../db/edit-shapes';
import { ENTITIES, type CreatedEntity } from '../db/entities';
import { sameValue } from '../db/field-paths';
import { readDetail } from '../db/outbox-rows';
import { recordCreateAttempt } from '../db/push-writes';
import type { CreateAttempt } from '../db/schema';
import type { OperationCall } from '../api/call-api';
import { isRecord } from '../../shared/is-record';
import { invalid } from './answers';
import { dropUnsentCreate } from './push-deleted-create';
import { acknowledge, park, refersToLocalRow, send, type EditEntry, type PushRun, type Step } from './push-run';
import { isServerValues } from './push-update';

function sameIdentity(entity: CreatedEntity, item: Record<string, unknown>, body: unknown): boolean {
  const request = isRecord(body) ? body : {};
  return ENTITIES[entity].push.serverId.identity.every((field) => sameValue(item[field], request[field]));
}

/** Creates a row whose id the server gives, without a duplicate whatever happened to earlier attempts. */
export async function pushCreate(run: PushRun, entry: EditEntry & { entity: CreatedEntity }): Promise<Step> {
  const { db } = run.options;
  const { create, serverId: operations } = ENTITIES[entry.entity].push;
  const where = `${create}:${entry.key}`;
  const row = await getRow(db, entry.entity, entry.key);
  if (row === undefined) {
    const dropped = await dropUnsentCreate(run, entry);
    if (dropped !== null) return dropped;
  }
  let attempt: CreateAttempt | null = (await readDetail(db, entry.seq))?.create ?? null;
  const body = attempt?.body ?? (row === undefined ? null : wireBody(entry.entity, requestOf(entry.entity, valuesOf(entry.entity, row))));
  if (body === null) return park(run, entry, where, { kind: 'internal', message: 'The row to create is no longer in the cache.' });
  if (refersToLocalRow(body)) return { kind: 'blocked' };

  let query: OperationCall['query'];
  if (operations.ownDatabase) {
    const account = await send(run, 'getCurrentAccount', { operationId: 'getCurrentAccount' }, entry);
    const accountId = account.ok && isRecord(account.value) ? account.value['id'] : undefined;
    if (typeof accountId !== 'string') return park(run, entry, where, account.ok ? invalid('getCurrentAccount', 'an account') : account.failure);
    query = { databaseId: accountId };
  }
  const listed = await send(run, `${operations.list}:${entry.key}`, { operationId: operations.list, ...(query === undefined ? {} : { query }) }, entry);
  if (!listed.ok) return park(run, entry, where, listed.failure);
  if (!Array.isArray(listed.value) || !listed.value.every((item) => isServerValues(entry.entity, item))) {
    return park(run, entry, where, invalid(operations.list, 'a list of rows'));
  }
  const same = (listed.value as Record<string, unknown>[]).filter((item) => sameIdentity(entry.entity, item, body));
  if (attempt !== null) {
    // An earlier attempt may have been applied with its answer lost: a row of the same name that was not there
    // before it, and that no other create here has taken, is the one it made.
    const preexisting = new Set(attempt.preexistingIds);
    const known = new Set(await db.table(entry.entity).toCollection().primaryKeys());
    const made = same.find((item) => !preexisting.has(item['id'] as string) && !known.has(item['id'] as string));
    if (made !== undefined) return acknowledge(run, entry, made);
  } else {
    attempt = { body, preexistingIds: same.map((item) => item['id'] as string), firstSentAt: run.at() };
    await recordCreateAttempt(db, entry.seq, attempt);
  }
  const call: OperationCall = { operationId: create, headers: { 'Idempotency-Key': entry.opId }, body: attempt.body };
  const created = await send(run, where, call, entry);
  if (!created.ok) return park(run, entry, where, created.failure);
  if (!isServerValues(entry.entity, created.value)) return park(run, entry, where, invalid(where, 'the created row'));
  return acknowledge(run, entry, created.value);
}
