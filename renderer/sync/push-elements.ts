/**
 * A file's element entries, each as POST (answered 409: it exists, so PUT), PUT after a merge with the server's row, or
 * DELETE (answered 404: done), kept with the mapping their requests named until the file is refined.
 */
import { assertNever } from '../../shared/api/enums';
import type { BuildingFileElementResponse } from '../../shared/api/schemas';
import type { CacheDb } from '../db/cache-db';
import { applyFields, getRow, mappingTypesOf, requestOf, valuesOf, wireBody, type StoredRow } from '../db/edit-shapes';
import { ENTITIES } from '../db/entities';
import type { OperationId } from '../../shared/api/routes';
import type { OperationCall } from '../api/call-api';
import { isRecord } from '../../shared/is-record';
import { dropUnsentCreate } from './push-deleted-create';
import { sendElementWrite, type FileBatch } from './push-file-status';
import { acknowledge, isStatus, park, refersToLocalRow, type EditEntry, type PushRun, type Step } from './push-run';
import { pushUpdate } from './push-update';

function isElement(value: unknown): value is BuildingFileElementResponse {
  return isRecord(value) && typeof value['id'] === 'string';
}

/**
 * An element written through the API answers `mapping: null` until its file is refined, whatever `materialId` it was
 * sent with; refinement then maps it to that item. So the answer is kept with the mapping its request named, and while
 * the file is Importing an element read without a mapping keeps the one its base knows: a second replace of the same
 * element before the refinement then sends the user's mapping again instead of none.
 */
async function elementAsSent(db: CacheDb, answer: unknown, body: unknown): Promise<unknown> {
  const materialId = isRecord(body) ? body['materialId'] : undefined;
  if (!isElement(answer) || answer.mapping !== null || typeof materialId !== 'string' || materialId === '') return answer;
  return applyFields('elements', answer, { materialId }, await mappingTypesOf(db, [{ materialId }]));
}

/** A lookup list as compared: none and an empty list are the same, values trimmed. */
function lookupOf(value: readonly string[] | null): string {
  return JSON.stringify((value ?? []).map((each) => each.trim()).filter((each) => each !== ''));
}

/**
 * An element written through the API also answers its phase, classification and building layer as null until the file
 * is refined, though what they follow from did not change (a renamed element). The answer keeps the matches the row
 * had for the same lookups (and, for the classification, which the IFC class may give, the same class): a save never
 * blanks them in the grid while the refinement runs. A changed lookup leaves its match to the refinement.
 */
function matchesKept(answer: unknown, before: StoredRow | undefined): unknown {
  if (!isElement(answer) || before === undefined) return answer;
  const known = (before.base ?? valuesOf('elements', before)) as unknown;
  if (!isElement(known)) return answer;
  const kept = { ...answer };
  if (answer.phaseMatch === null && lookupOf(answer.phaseLookup) === lookupOf(known.phaseLookup)) kept.phaseMatch = known.phaseMatch;
  const sameClassification = lookupOf(answer.classificationLookup) === lookupOf(known.classificationLookup) && answer.elementClass === known.elementClass;
  if (answer.classificationMatch === null && answer.brandLayerMatch === null && sameClassification) {
    kept.classificationMatch = known.classificationMatch;
    kept.brandLayerMatch = known.brandLayerMatch;
  }
  return kept;
}

/** The server's element as the merge sees it (see `elementAsSent`). */
function elementSeenDuringImport(batch: FileBatch, server: unknown, base: unknown): unknown {
  if (!batch.importing || !isElement(server) || server.mapping !== null || !isElement(base) || base.mapping === null) return server;
  return { ...server, mapping: base.mapping };
}

/** Pushes one element entry of a file's batch. */
export async function pushElementEntry(run: PushRun, batch: FileBatch, entry: EditEntry): Promise<Step> {
  const { db } = run.options;
  const operations = ENTITIES.elements.push;
  const params = operations.params(entry.key, batch.buildingId);
  const where = (operationId: OperationId): string => `${operationId}:${entry.key}`;
  const replace = (body: unknown): OperationCall => ({ operationId: operations.replace, params, body });
  switch (entry.op) {
    case 'create': {
      const row = await getRow(db, 'elements', entry.key);
      if (row === undefined) return (await dropUnsentCreate(run, entry)) ?? acknowledge(run, entry, undefined);
      const body = wireBody('elements', requestOf('elements', valuesOf('elements', row)));
      if (refersToLocalRow(body)) return { kind: 'blocked' };
      const create: OperationCall = { operationId: operations.create, params: operations.createParams(entry.key, batch.buildingId), body };
      let answer = await sendElementWrite(run, batch, entry, where(operations.create), create);
      if (answer === null) return { kind: 'parked' };
      // The element exists: an earlier attempt was applied and its answer lost, so this becomes a replace.
      if (!answer.ok && isStatus(answer.failure, 409)) answer = await sendElementWrite(run, batch, entry, where(operations.replace), replace(body));
      if (answer === null) return { kind: 'parked' };
      if (!answer.ok) return park(run, entry, where(operations.create), answer.failure);
      return acknowledge(run, entry, await elementAsSent(db, isElement(answer.value) ? answer.value : valuesOf('elements', row), body));
    }
    case 'update':
      if (refersToLocalRow(entry.fields)) return { kind: 'blocked' };
      return pushUpdate(run, entry, {
        get: { operationId: operations.get, params },
        replace,
        write: (at, call) => sendElementWrite(run, batch, entry, at, call),
        view: (server, base) => elementSeenDuringImport(batch, server, base),
        answer: async (answer, body) => matchesKept(await elementAsSent(db, answer, body), await getRow(db, 'elements', entry.key)),
      });
    case 'delete': {
      const answer = await sendElementWrite(run, batch, entry, where(operations.remove), { operationId: operations.remove, params });
      if (answer === null) return { kind: 'parked' };
      if (answer.ok || isStatus(answer.failure, 404)) return acknowledge(run, entry, undefined);
      return park(run, entry, where(operations.remove), answer.failure);
    }
    default:
      return assertNever(entry.op, 'outbox op');
  }
}
