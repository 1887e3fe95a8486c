/**
 * An update of a resource whose PUT replaces it entirely: the server's row is read first and the entry's fields are
 * merged into it (`conflict-policy.ts`); a field changed on both sides differently parks the entry as a conflict.
 */
import { getRow, replaceBody, requestOf } from '../db/edit-shapes';
import { isListEntity, type EditedEntity } from '../db/entities';
import { EDIT_CONFLICT_PROBLEM_TYPE } from '../db/outbox';
import type { FieldConflict } from '../db/schema';
import type { OperationCall } from '../api/call-api';
import type { ApiFailure } from '../api/failure';
import type { ApiOutcome } from '../api/outcome';
import { isRecord } from '../../shared/is-record';
import { invalid } from './answers';
import { planMerge } from './conflict-policy';
import { acknowledge, park, send, type EditEntry, type PushRun, type Step } from './push-run';

/** Whether an answer has the shape of the entity's server values (a list for lists, an object with an id else). */
export function isServerValues(entity: EditedEntity, value: unknown): boolean {
  if (isListEntity(entity)) return Array.isArray(value) && value.every(isRecord);
  return isRecord(value) && typeof value['id'] === 'string';
}

function conflictFailure(where: string, fields: readonly FieldConflict[]): ApiFailure {
  const detail = `Changed here and on the server since: ${fields.map((field) => field.path).join(', ')}.`;
  return {
    kind: 'problem',
    status: 409,
    problem: {
      type: EDIT_CONFLICT_PROBLEM_TYPE,
      title: 'Edit conflict',
      status: 409,
      detail,
      instance: where,
      errors: fields.map((field) => ({
        path: field.path,
        message: `here ${JSON.stringify(field.mine)}, on the server ${JSON.stringify(field.theirs)}`,
      })),
      message: detail,
    },
  };
}

/** How an update reaches its resource. */
export interface UpdateCalls {
  get: OperationCall;
  replace: (body: unknown) => OperationCall;
  /** Sends the replace; null when it could not be sent and the entry was parked. */
  write: (where: string, call: OperationCall) => Promise<ApiOutcome<unknown> | null>;
  /** The server's values as the merge is to see them (default: as read). */
  view?: (server: unknown, base: unknown) => unknown;
  /** The server's answer to a replace as the row's new base (default: as answered). */
  answer?: (answer: unknown, body: unknown) => Promise<unknown>;
}

/** Reads the server's row, merges the entry's fields into it and sends it back when anything is left to send. */
export async function pushUpdate(run: PushRun, entry: EditEntry, calls: UpdateCalls): Promise<Step> {
  const { db } = run.options;
  const where = `${calls.replace(null).operationId}:${entry.key}`;
  const got = await send(run, `${calls.get.operationId}:${entry.key}`, calls.get, entry);
  if (!got.ok) return park(run, entry, where, got.failure);
  if (!isServerValues(entry.entity, got.value)) return park(run, entry, where, invalid(calls.get.operationId, 'the row asked for'));
  const row = await getRow(db, entry.entity, entry.key);
  // Without a known base (a list edited before it was fetched) the server's values are the base: the user's apply.
  const base = row?.base ?? got.value;
  const server = calls.view?.(got.value, base) ?? got.value;
  const plan = planMerge(requestOf(entry.entity, base), requestOf(entry.entity, server), entry.fields ?? {});
  if (plan.conflicts.length > 0) {
    return park(run, entry, where, conflictFailure(where, plan.conflicts), { fields: plan.conflicts, server, at: run.at() });
  }
  if (Object.keys(plan.apply).length === 0) return acknowledge(run, entry, server);
  const body = replaceBody(entry.entity, server, plan.apply);
  const put = await calls.write(where, calls.replace(body));
  if (put === null) return { kind: 'parked' };
  if (!put.ok) return park(run, entry, where, put.failure);
  const answer = isServerValues(entry.entity, put.value) ? put.value : server;
  return acknowledge(run, entry, calls.answer === undefined ? answer : await calls.answer(answer, body));
}
