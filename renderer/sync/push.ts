/**
 * The push: drains the outbox through the spec's endpoints (design: docs/sync.md, Push).
 *
 * Entries go in `seq` order per aggregate (a building, a portfolio, a catalogue item with its lists, a file's
 * elements); aggregates are independent. An update of a resource whose PUT replaces it entirely first reads the
 * server's row and merges (`conflict-policy.ts`): a field changed on both sides parks the entry as a conflict. A file's
 * element entries go as one batch: `setimporting` (unless Importing), each element as POST / PUT / DELETE,
 * `startrefinement`, the status polled until the file is settled, then the file's elements (and, once the building is
 * recalculated, its figures) pulled again. A record written before the first element request makes a push that stopped
 * anywhere resume from the file's server status.
 *
 * Retries are harmless: element ids are the client's, so a POST answered 409 becomes a PUT and a DELETE answered 404
 * is done; a create with a server id sends `Idempotency-Key: <opId>` with the body of its first attempt, and before
 * trying again lists the collection and takes a row of the same name the server made since, so even a server that
 * ignores the header makes no duplicate.
 *
 * Failures: no answer, 408, 429, 5xx, a host that cannot call, or 401/403 stop the push with the entry pending (the
 * host's queued client has already retried); any other refusal parks the entry with the server's problem details, and
 * the later entries of its aggregate wait while other aggregates go on. Nothing is dropped: an entry is removed only
 * in the transaction that writes the server's answer as its row's base.
 */
import { assertNever, BuildingFileStatuses } from '../../shared/api/enums';
import type { BuildingFileElementResponse, BuildingFileResponse, BuildingFileStatusResponse } from '../../shared/api/schemas';
import { applyServerFiles } from '../db/apply-pull';
import type { CacheDb } from '../db/cache-db';
import { applyFields, getRow, isListEntity, mappingTypesOf, replaceBody, requestOf, valuesOf, wireBody, type EditedEntity } from '../db/edit-shapes';
import { containsString, sameValue } from '../db/field-paths';
import { isRecord } from '../../shared/is-record';
import { aggregateEntries, EDIT_CONFLICT_PROBLEM_TYPE, pendingAggregates } from '../db/outbox';
import { readDetail } from '../db/outbox-rows';
import {
  acknowledgeEntry,
  clearFileRefinement,
  dropUnsentEntries,
  filesWithRefinement,
  parkEntry,
  readFileRefinement,
  recordCreateAttempt,
  recordEntryFailure,
  recordPushEnd,
  recordPushProgress,
  recordPushStart,
  writeFileRefinement,
} from '../db/push-writes';
import {
  fileRefinementKey,
  isLocalId,
  splitElementKey,
  type CreateAttempt,
  type EditConflict,
  type FieldConflict,
  type FileRefinementRow,
  type OutboxEntry,
  type PushProgress,
  type SyncIssue,
} from '../db/schema';
import type { OperationId } from '../../shared/api/routes';
import { callOperation, type OperationCall } from '../api/call-api';
import { classifyFailure, type ApiFailure } from '../api/failure';
import type { ApiOutcome } from '../api/outcome';
import { planMerge } from './conflict-policy';
import { DEFAULT_PAGE_SIZE, pullBuildingFigures, pullFileElements, type SyncOptions } from './pull';
import { abortableSleep } from '../../shared/abortable-sleep';

/** How a push runs. */
export interface PushOptions extends SyncOptions {
  /** Stops the push before its next request; what was acknowledged stays, the rest stays pending. */
  signal?: AbortSignal;
  /** Hears where the push is; file steps are also written to `syncState`. */
  onProgress?: (progress: PushProgress) => void;
  /** The wait between two status requests of a file the server is processing (default 1 s). */
  pollIntervalMs?: number;
  /** How long one file's processing is followed before the push leaves it to the next one (default 10 min). */
  pollTimeoutMs?: number;
  /** Elements per page when a file is pulled again (default 1000). */
  pageSize?: number;
  /** Waits between status requests (default: a timer that ends early when `signal` aborts). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * How a push ended. `done`: nothing stopped it; every entry that could go went, or was parked. `incomplete`: a failure
 * (or the signal) stopped it, and `retryable` says whether trying later may help (no answer, 5xx, 429) or the user must
 * act (401/403, a host that cannot call). `pushed`: entries the server acknowledged in this push; `parked`: entries
 * waiting for the user now. `lastError`: what stopped it, else the last refusal or failed refinement it met.
 */
export interface PushResult {
  status: 'done' | 'incomplete';
  pushed: number;
  parked: number;
  retryable: boolean;
  lastError?: SyncIssue;
}

const DEFAULT_POLL_INTERVAL_MS = 1_000;
const DEFAULT_POLL_TIMEOUT_MS = 600_000;

/** The problem type of a push's report that the server ended a file's refinement in Error (the entries were sent). */
export const REFINEMENT_FAILED_PROBLEM_TYPE = 'urn:circularity-desk:refinement-failed';

/** Statuses in which the server is working on a file's elements: wait until it has finished. */
const PROCESSING: ReadonlySet<number> = new Set([BuildingFileStatuses.Uploaded, BuildingFileStatuses.Refining, BuildingFileStatuses.Mapping]);

// --- one run ----------------------------------------------------------------------------------------------------------

/** Unwinds a push that must stop; carries what stopped it. */
class PushStopped extends Error {
  constructor(
    readonly issue: SyncIssue,
    readonly retryable: boolean,
  ) {
    super(issue.where);
    this.name = 'PushStopped';
  }
}

interface Run {
  options: SyncOptions;
  signal: AbortSignal | undefined;
  onProgress: ((progress: PushProgress) => void) | undefined;
  pollIntervalMs: number;
  maxPolls: number;
  pageSize: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  at: () => string;
  pushed: number;
  lastIssue: SyncIssue | null;
}

/** An entry of a table the edit functions change. */
type EditEntry = OutboxEntry & { entity: EditedEntity };

/** What became of one entry: acknowledged (its key may have become the server's id), parked, or waiting for a new row. */
type Step = { kind: 'acked'; key: string } | { kind: 'parked' } | { kind: 'blocked' };

/** What became of an aggregate: all sent, waiting behind a parked entry, or waiting for another aggregate's create. */
type AggregateOutcome = 'done' | 'waiting' | 'blocked';

function stopIfAborted(run: Run, where: string): void {
  if (run.signal?.aborted === true) {
    throw new PushStopped({ at: run.at(), where, failure: { kind: 'network', reason: 'aborted', message: 'The sync was stopped.' } }, true);
  }
}

/**
 * Runs a call. A failure that is not a refusal stops the push (recorded on `entry`, which stays pending); a refusal is
 * answered for the caller to park or report.
 */
async function send(run: Run, where: string, call: OperationCall, entry?: OutboxEntry): Promise<ApiOutcome<unknown>> {
  stopIfAborted(run, where);
  const outcome = await callOperation(run.options.api, call);
  if (outcome.ok) return outcome;
  const failureClass = classifyFailure(outcome.failure);
  if (failureClass === 'rejected') return outcome;
  const issue: SyncIssue = { at: run.at(), where, failure: outcome.failure };
  if (entry !== undefined) await recordEntryFailure(run.options.db, entry.seq, issue);
  throw new PushStopped(issue, failureClass === 'transient');
}

function isStatus(failure: ApiFailure, status: number): boolean {
  return failure.kind === 'problem' && failure.status === status;
}

function invalid(where: string, what: string): ApiFailure {
  return { kind: 'invalid-answer', message: `The answer of ${where} is not ${what}.` };
}

async function park(run: Run, entry: OutboxEntry, where: string, failure: ApiFailure, conflict: EditConflict | null = null): Promise<Step> {
  const issue: SyncIssue = { at: run.at(), where, failure };
  await parkEntry(run.options.db, entry.seq, issue, conflict);
  run.lastIssue = issue;
  return { kind: 'parked' };
}

async function acknowledge(run: Run, entry: EditEntry, server: unknown): Promise<Step> {
  const key = await acknowledgeEntry(run.options.db, entry, server, run.at());
  run.pushed += 1;
  run.onProgress?.({ phase: 'entries', pushed: run.pushed, remaining: await run.options.db.outbox.where('state').equals('pending').count() });
  return { kind: 'acked', key };
}

async function progress(run: Run, value: PushProgress): Promise<void> {
  await recordPushProgress(run.options.db, value);
  run.onProgress?.(value);
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

/** Whether a request refers to a row the server has not made yet (its entry then waits for that row's create). */
function refersToLocalRow(value: unknown): boolean {
  return containsString(value, isLocalId);
}

// --- the calls of each resource ---------------------------------------------------------------------------------------

/** The operations of a resource other than an element (lists are read and replaced whole). */
interface ResourceOperations {
  get: OperationId;
  replace: OperationId;
  remove?: OperationId;
}

const OPERATIONS: Readonly<Record<Exclude<EditedEntity, 'elements'>, ResourceOperations>> = {
  portfolios: { get: 'getPortfolio', replace: 'replacePortfolio', remove: 'deletePortfolio' },
  buildings: { get: 'getBuilding', replace: 'replaceBuilding', remove: 'deleteBuilding' },
  materials: { get: 'getMaterial', replace: 'replaceMaterial' },
  products: { get: 'getProduct', replace: 'replaceProduct' },
  materialMatches: { get: 'listMaterialMatches', replace: 'replaceMaterialMatches' },
  materialFinancialValues: { get: 'listMaterialFinancialValues', replace: 'replaceMaterialFinancialValues' },
  productMatches: { get: 'listProductMatches', replace: 'replaceProductMatches' },
  productChildren: { get: 'listProductChildren', replace: 'replaceProductChildren' },
  productFinancialValues: { get: 'listProductFinancialValues', replace: 'replaceProductFinancialValues' },
};

/** The resources whose ids the server gives. */
type CreatedEntity = 'portfolios' | 'buildings' | 'materials' | 'products';

/**
 * How a resource with a server id is created, listed, and recognised in its list (the fields a create is found by).
 * Catalogue items are made in the key's own database, which their list shows only when asked by its id.
 */
const CREATES: Readonly<Record<CreatedEntity, { create: OperationId; list: OperationId; identity: readonly string[]; ownDatabase: boolean }>> = {
  portfolios: { create: 'createPortfolio', list: 'listPortfolios', identity: ['name'], ownDatabase: false },
  buildings: { create: 'createBuilding', list: 'listBuildings', identity: ['name', 'portfolioId'], ownDatabase: false },
  materials: { create: 'createMaterial', list: 'listMaterials', identity: ['name'], ownDatabase: true },
  products: { create: 'createProduct', list: 'listProducts', identity: ['name', 'type'], ownDatabase: true },
};

function isCreatedEntity(entity: EditedEntity): entity is CreatedEntity {
  return entity in CREATES;
}

function sameIdentity(entity: CreatedEntity, item: Record<string, unknown>, body: unknown): boolean {
  const request = isRecord(body) ? body : {};
  return CREATES[entity].identity.every((field) => sameValue(item[field], request[field]));
}

/** Whether an answer has the shape of the entity's server values (a list for lists, an object with an id else). */
function isServerValues(entity: EditedEntity, value: unknown): boolean {
  if (isListEntity(entity)) return Array.isArray(value) && value.every(isRecord);
  return isRecord(value) && typeof value['id'] === 'string';
}

// --- resources other than elements ------------------------------------------------------------------------------------

/** How an update reaches its resource. */
interface UpdateCalls {
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
async function pushUpdate(run: Run, entry: EditEntry, calls: UpdateCalls): Promise<Step> {
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

/**
 * A create whose row is gone: the user deleted it again. An element's create and edits are dropped and its delete is
 * sent. A create with a server id that was never sent is dropped with everything up to its delete; one sent before
 * (the answer was lost) goes on with the body of that attempt, and the delete follows.
 */
async function dropUnsentCreate(run: Run, entry: EditEntry): Promise<Step | null> {
  const { db } = run.options;
  const ofRow = await db.outbox.where('[entity+key]').equals([entry.entity, entry.key]).sortBy('seq');
  const end = ofRow.findIndex((each) => each.op === 'delete');
  if (end < 0) return null;
  if (entry.entity === 'elements') {
    // An element create may have reached the server even with no attempt recorded (the app can die between sending
    // it and hearing the answer): the create and the edits after it are dropped, the delete is kept and sent (a 404
    // when the create never arrived costs one request; a skipped DELETE would lose the user's delete).
    await dropUnsentEntries(db, ofRow.slice(0, end).map((each) => each.seq));
    return { kind: 'acked', key: entry.key };
  }
  // A create with a server id records its first send before it goes out: one that may have been sent is reconciled.
  if ((await readDetail(db, entry.seq))?.create != null) return null;
  await dropUnsentEntries(
    db,
    ofRow.slice(0, end + 1).map((each) => each.seq),
  );
  return { kind: 'acked', key: entry.key };
}

/** Creates a row whose id the server gives, without a duplicate whatever happened to earlier attempts. */
async function pushCreate(run: Run, entry: EditEntry & { entity: CreatedEntity }): Promise<Step> {
  const { db } = run.options;
  const operations = CREATES[entry.entity];
  const where = `${operations.create}:${entry.key}`;
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
  const call: OperationCall = { operationId: operations.create, headers: { 'Idempotency-Key': entry.opId }, body: attempt.body };
  const created = await send(run, where, call, entry);
  if (!created.ok) return park(run, entry, where, created.failure);
  if (!isServerValues(entry.entity, created.value)) return park(run, entry, where, invalid(where, 'the created row'));
  return acknowledge(run, entry, created.value);
}

/** Pushes the first entry of an aggregate of a resource other than an element. */
async function pushResourceEntry(run: Run, entry: EditEntry & { entity: Exclude<EditedEntity, 'elements'> }): Promise<Step> {
  const operations = OPERATIONS[entry.entity];
  const params = { id: entry.key };
  switch (entry.op) {
    case 'create':
      if (isCreatedEntity(entry.entity)) return pushCreate(run, { ...entry, entity: entry.entity });
      return park(run, entry, `create:${entry.key}`, { kind: 'internal', message: `The API has no create of one ${entry.entity} list.` });
    case 'update':
      if (refersToLocalRow(entry.key) || refersToLocalRow(entry.fields)) return { kind: 'blocked' };
      return pushUpdate(run, entry, {
        get: { operationId: operations.get, params },
        replace: (body) => ({ operationId: operations.replace, params, body }),
        write: (where, call) => send(run, where, call, entry),
      });
    case 'delete': {
      const where = `${operations.remove ?? 'delete'}:${entry.key}`;
      if (operations.remove === undefined) return park(run, entry, where, { kind: 'internal', message: `The API cannot delete ${entry.entity}.` });
      if (refersToLocalRow(entry.key)) return { kind: 'blocked' };
      const removed = await send(run, where, { operationId: operations.remove, params }, entry);
      // Already gone is what the delete wanted.
      if (removed.ok || isStatus(removed.failure, 404)) return acknowledge(run, entry, undefined);
      return park(run, entry, where, removed.failure);
    }
    default:
      return assertNever(entry.op, 'outbox op');
  }
}

/** Pushes an aggregate's entries in order until it is empty, or an entry is parked or waits for another create. */
async function pushAggregate(run: Run, aggregate: string): Promise<AggregateOutcome> {
  let name = aggregate;
  for (;;) {
    const [head] = await aggregateEntries(run.options.db, name);
    if (head === undefined) return 'done';
    if (head.state === 'parked') return 'waiting';
    if (head.entity === 'files' || head.entity === 'elements') {
      await park(run, head, `push:${head.key}`, { kind: 'internal', message: `An entry of ${head.entity} belongs to a file's batch.` });
      return 'waiting';
    }
    const step = await pushResourceEntry(run, head as EditEntry & { entity: Exclude<EditedEntity, 'elements'> });
    if (step.kind !== 'acked') return step.kind === 'parked' ? 'waiting' : 'blocked';
    // A create's real id renames its aggregate.
    if (step.key !== head.key) name = name.replaceAll(head.key, step.key);
  }
}

// --- a file's elements ------------------------------------------------------------------------------------------------

interface FileBatch {
  buildingId: string;
  fileId: string;
  record: FileRefinementRow | undefined;
  /** Whether the server has the file Importing, as far as this push knows. */
  importing: boolean;
}

function isFileStatus(value: unknown): value is BuildingFileStatusResponse {
  return isRecord(value) && typeof value['status'] === 'number';
}

function fileParams(batch: FileBatch): Record<string, string> {
  return { buildingId: batch.buildingId, fileId: batch.fileId };
}

async function fileProgress(run: Run, batch: FileBatch, step: 'importing' | 'refining' | 'pulling', status: number | null): Promise<void> {
  await progress(run, { phase: 'file', buildingId: batch.buildingId, fileId: batch.fileId, step, status });
}

/** The file's status now; a refusal (the file is gone, …) is answered as a failure. */
async function fileStatus(run: Run, batch: FileBatch, entry?: OutboxEntry): Promise<BuildingFileStatusResponse | ApiFailure> {
  const where = `getBuildingFileStatus:${batch.fileId}`;
  const got = await send(run, where, { operationId: 'getBuildingFileStatus', params: fileParams(batch) }, entry);
  if (!got.ok) return got.failure;
  return isFileStatus(got.value) ? got.value : invalid(where, 'a file status');
}

/** Polls the file's status until the server is no longer processing it. */
async function waitSettled(run: Run, batch: FileBatch, step: 'importing' | 'refining', entry?: OutboxEntry): Promise<BuildingFileStatusResponse | ApiFailure> {
  for (let polls = 0; ; polls += 1) {
    const status = await fileStatus(run, batch, entry);
    if ('kind' in status) return status;
    await fileProgress(run, batch, step, status.status);
    if (!PROCESSING.has(status.status)) return status;
    if (polls >= run.maxPolls) {
      const message = `The server is still processing file ${batch.fileId} (status ${status.status}); the next sync goes on.`;
      throw new PushStopped({ at: run.at(), where: `getBuildingFileStatus:${batch.fileId}`, failure: { kind: 'network', reason: 'processing', message } }, true);
    }
    await run.sleep(run.pollIntervalMs, run.signal);
    stopIfAborted(run, `getBuildingFileStatus:${batch.fileId}`);
  }
}

/**
 * Makes sure the file is Importing before an element request: writes the refinement record first (a push stopped
 * after `setimporting` then still starts the refinement), then `setimporting` unless the file already is. Answers
 * false after parking `entry` when the server refuses.
 */
async function ensureImporting(run: Run, batch: FileBatch, entry: OutboxEntry): Promise<boolean> {
  const { db } = run.options;
  if (batch.record === undefined) {
    batch.record = {
      key: fileRefinementKey(batch.fileId),
      kind: 'file-refinement',
      buildingId: batch.buildingId,
      fileId: batch.fileId,
      step: 'importing',
      opId: crypto.randomUUID(),
      startedAt: run.at(),
    };
    await writeFileRefinement(db, batch.record);
  }
  if (batch.importing) return true;
  const where = `setBuildingFileImporting:${batch.fileId}`;
  const call: OperationCall = { operationId: 'setBuildingFileImporting', params: fileParams(batch) };
  let answer = await send(run, where, call, entry);
  if (!answer.ok && isStatus(answer.failure, 409)) {
    // The server is processing the file (or it just changed): once it has settled, ask again.
    const settled = await waitSettled(run, batch, 'importing', entry);
    if ('kind' in settled) answer = { ok: false, failure: settled };
    else answer = settled.status === BuildingFileStatuses.Importing ? { ok: true, status: 204, value: null, location: null } : await send(run, where, call, entry);
  }
  if (!answer.ok) {
    await park(run, entry, where, answer.failure);
    return false;
  }
  batch.importing = true;
  await fileProgress(run, batch, 'importing', BuildingFileStatuses.Importing);
  return true;
}

/** Sends an element write; a 409 because the file left Importing meanwhile sets it Importing again, once. */
async function sendElementWrite(run: Run, batch: FileBatch, entry: OutboxEntry, where: string, call: OperationCall): Promise<ApiOutcome<unknown> | null> {
  if (!(await ensureImporting(run, batch, entry))) return null;
  const answer = await send(run, where, call, entry);
  if (answer.ok || !isStatus(answer.failure, 409)) return answer;
  const status = await fileStatus(run, batch, entry);
  if ('kind' in status || status.status === BuildingFileStatuses.Importing) return answer;
  batch.importing = false;
  if (!(await ensureImporting(run, batch, entry))) return null;
  return send(run, where, call, entry);
}

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

/** The server's element as the merge sees it (see `elementAsSent`). */
function elementSeenDuringImport(batch: FileBatch, server: unknown, base: unknown): unknown {
  if (!batch.importing || !isElement(server) || server.mapping !== null || !isElement(base) || base.mapping === null) return server;
  return { ...server, mapping: base.mapping };
}

/** Pushes one element entry of a file's batch. */
async function pushElementEntry(run: Run, batch: FileBatch, entry: EditEntry): Promise<Step> {
  const { db } = run.options;
  const { elementId } = splitElementKey(entry.key);
  const params = { ...fileParams(batch), elementId };
  const where = (operationId: OperationId): string => `${operationId}:${entry.key}`;
  const replace = (body: unknown): OperationCall => ({ operationId: 'replaceElement', params, body });
  switch (entry.op) {
    case 'create': {
      const row = await getRow(db, 'elements', entry.key);
      if (row === undefined) return (await dropUnsentCreate(run, entry)) ?? acknowledge(run, entry, undefined);
      const body = wireBody('elements', requestOf('elements', valuesOf('elements', row)));
      if (refersToLocalRow(body)) return { kind: 'blocked' };
      let answer = await sendElementWrite(run, batch, entry, where('createElement'), { operationId: 'createElement', params: fileParams(batch), body });
      if (answer === null) return { kind: 'parked' };
      // The element exists: an earlier attempt was applied and its answer lost, so this becomes a replace.
      if (!answer.ok && isStatus(answer.failure, 409)) answer = await sendElementWrite(run, batch, entry, where('replaceElement'), replace(body));
      if (answer === null) return { kind: 'parked' };
      if (!answer.ok) return park(run, entry, where('createElement'), answer.failure);
      return acknowledge(run, entry, await elementAsSent(db, isElement(answer.value) ? answer.value : valuesOf('elements', row), body));
    }
    case 'update':
      if (refersToLocalRow(entry.fields)) return { kind: 'blocked' };
      return pushUpdate(run, entry, {
        get: { operationId: 'getElement', params },
        replace,
        write: (at, call) => sendElementWrite(run, batch, entry, at, call),
        view: (server, base) => elementSeenDuringImport(batch, server, base),
        answer: (answer, body) => elementAsSent(db, answer, body),
      });
    case 'delete': {
      const answer = await sendElementWrite(run, batch, entry, where('deleteElement'), { operationId: 'deleteElement', params });
      if (answer === null) return { kind: 'parked' };
      if (answer.ok || isStatus(answer.failure, 404)) return acknowledge(run, entry, undefined);
      return park(run, entry, where('deleteElement'), answer.failure);
    }
    default:
      return assertNever(entry.op, 'outbox op');
  }
}

/** Pulls one file's elements again (the rows without outbox entries take the server's values) and its figures. */
async function repullFile(run: Run, batch: FileBatch, status: BuildingFileStatusResponse): Promise<void> {
  const { db, api } = run.options;
  await fileProgress(run, batch, 'pulling', status.status);
  const listed = await send(run, `listBuildingFiles:${batch.buildingId}`, { operationId: 'listBuildingFiles', params: { buildingId: batch.buildingId } });
  if (!listed.ok || !Array.isArray(listed.value) || !listed.value.every((file) => isRecord(file) && typeof file['id'] === 'string')) {
    run.lastIssue = { at: run.at(), where: `listBuildingFiles:${batch.buildingId}`, failure: listed.ok ? invalid('listBuildingFiles', 'a list of files') : listed.failure };
    return;
  }
  const applied = await applyServerFiles(db, batch.buildingId, listed.value as BuildingFileResponse[]);
  const due = applied.due.find((each) => each.fileId === batch.fileId);
  if (due !== undefined) {
    const issue = await pullFileElements({ db, api, pageSize: run.pageSize, signal: run.signal, now: run.options.now }, due);
    // A file whose pages did not all arrive keeps its cursor: the next pull goes on from there.
    if (issue !== null) {
      run.lastIssue = issue;
      return;
    }
  }
  // Figures fetched while the server recalculates would be old; the pull fetches them once it has finished.
  const building = await send(run, `getBuilding:${batch.buildingId}`, { operationId: 'getBuilding', params: { id: batch.buildingId } });
  if (building.ok && isRecord(building.value) && building.value['isDirty'] === false) {
    await pullBuildingFigures({ db, api, now: run.options.now }, batch.buildingId);
  }
}

/**
 * Sends `startrefinement`. A 409 (the file is not Importing) needs nothing more: an earlier start was applied with its
 * answer lost, or no element is left to refine; the status followed next says which.
 */
async function startRefinement(run: Run, batch: FileBatch, record: FileRefinementRow): Promise<void> {
  const where = `startBuildingFileRefinement:${batch.fileId}`;
  const call: OperationCall = { operationId: 'startBuildingFileRefinement', params: fileParams(batch), headers: { 'Idempotency-Key': record.opId } };
  const started = await send(run, where, call);
  if (!started.ok && !isStatus(started.failure, 409)) run.lastIssue = { at: run.at(), where, failure: started.failure };
}

/** Starts the refinement of what the batch sent (unless the server already has), waits for it and pulls the file again. */
async function refineFile(run: Run, batch: FileBatch): Promise<void> {
  const { db } = run.options;
  let record = batch.record ?? (await readFileRefinement(db, batch.fileId));
  if (record === undefined) return;
  if (record.step === 'importing') {
    // Resuming, the file's status says where the server is: still Importing (start), or already past it.
    const current = batch.importing ? null : await fileStatus(run, batch);
    if (current !== null && 'kind' in current) {
      run.lastIssue = { at: run.at(), where: `getBuildingFileStatus:${batch.fileId}`, failure: current };
      await clearFileRefinement(db, batch.fileId);
      return;
    }
    if (current === null || current.status === BuildingFileStatuses.Importing) await startRefinement(run, batch, record);
    record = { ...record, step: 'refining' };
    await writeFileRefinement(db, record);
    batch.record = record;
  }
  const status = await waitSettled(run, batch, 'refining');
  if ('kind' in status) {
    run.lastIssue = { at: run.at(), where: `getBuildingFileStatus:${batch.fileId}`, failure: status };
  } else {
    if (status.status === BuildingFileStatuses.Error) {
      const detail = status.statusMessage ?? 'The server could not refine the file.';
      run.lastIssue = {
        at: run.at(),
        where: `refinement:${batch.fileId}`,
        failure: { kind: 'problem', status: 422, problem: { type: REFINEMENT_FAILED_PROBLEM_TYPE, title: 'Refinement failed', status: 422, detail, instance: '', errors: [], message: detail } },
      };
    }
    await repullFile(run, batch, status);
  }
  await clearFileRefinement(db, batch.fileId);
  batch.record = undefined;
  batch.importing = false;
}

/** Pushes a file's element entries as one batch, then refines and pulls the file; also resumes a stopped one. */
async function pushFile(run: Run, fileId: string): Promise<AggregateOutcome> {
  const { db } = run.options;
  const aggregate = `file:${fileId}`;
  const record = await readFileRefinement(db, fileId);
  const entries = await aggregateEntries(db, aggregate);
  const buildingId = (await db.files.get(fileId))?.buildingId ?? record?.buildingId;
  const [head] = entries;
  if (buildingId === undefined) {
    if (head?.state !== 'pending') return 'waiting';
    await park(run, head, `${aggregate}`, { kind: 'internal', message: 'The file of this element is no longer in the cache.' });
    return 'waiting';
  }
  const batch: FileBatch = { buildingId, fileId, record, importing: false };
  // A refinement a stopped push had started is finished first: its elements are the server's to write.
  if (record?.step === 'refining') await refineFile(run, batch);
  if (head?.state !== 'pending') {
    if (batch.record !== undefined) await refineFile(run, batch);
    return head === undefined ? 'done' : 'waiting';
  }

  // With a record, what the server is processing is most likely this client's own refinement: it is followed.
  const status = batch.record === undefined ? await fileStatus(run, batch, head) : await waitSettled(run, batch, 'importing', head);
  if ('kind' in status) {
    await park(run, head, `getBuildingFileStatus:${fileId}`, status);
    return 'waiting';
  }
  // Busy with other work (an upload's import, another client's refinement): the entries go with a later push.
  if (PROCESSING.has(status.status)) return 'waiting';
  // Importing: a stopped push (or someone's import) left it so; the element requests go on from here.
  batch.importing = status.status === BuildingFileStatuses.Importing;
  let outcome: AggregateOutcome = 'done';
  for (const listed of entries) {
    const entry = await db.outbox.get(listed.seq);
    if (entry === undefined) continue;
    if (entry.state === 'parked') {
      outcome = 'waiting';
      break;
    }
    if (entry.entity !== 'elements') {
      await park(run, entry, `push:${entry.key}`, { kind: 'internal', message: `Edits never change ${entry.entity}; this entry cannot be sent.` });
      outcome = 'waiting';
      break;
    }
    const step = await pushElementEntry(run, batch, { ...entry, entity: entry.entity });
    if (step.kind !== 'acked') {
      outcome = step.kind === 'parked' ? 'waiting' : 'blocked';
      break;
    }
  }
  if (batch.record !== undefined) await refineFile(run, batch);
  return outcome;
}

// --- the push ---------------------------------------------------------------------------------------------------------

/**
 * Pushes the outbox to the server. Resolves with how it ended; rejects only when the port throws something other than
 * `ApiPortError` or the cache fails (what was acknowledged before stays acknowledged).
 */
export async function push(options: PushOptions): Promise<PushResult> {
  const now = options.now ?? (() => new Date());
  const pollIntervalMs = Math.max(0, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const run: Run = {
    options: { db: options.db, api: options.api, now: options.now },
    signal: options.signal,
    onProgress: options.onProgress,
    pollIntervalMs,
    maxPolls: Math.ceil((options.pollTimeoutMs ?? DEFAULT_POLL_TIMEOUT_MS) / Math.max(1, pollIntervalMs)),
    pageSize: Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE)),
    sleep: options.sleep ?? abortableSleep,
    at: () => now().toISOString(),
    pushed: 0,
    lastIssue: null,
  };
  const { db } = options;
  await recordPushStart(db, run.at());
  const parkedNow = (): Promise<number> => db.outbox.where('state').equals('parked').count();
  try {
    for (;;) {
      const before = run.pushed;
      let blocked = false;
      const leftRefinements = new Set((await filesWithRefinement(db)).map((row) => row.fileId));
      for (const aggregate of await pendingAggregates(db)) {
        const isFile = aggregate.startsWith('file:');
        const fileId = aggregate.slice('file:'.length);
        if (isFile) leftRefinements.delete(fileId);
        const outcome = isFile ? await pushFile(run, fileId) : await pushAggregate(run, aggregate);
        if (outcome === 'blocked') blocked = true;
      }
      for (const fileId of leftRefinements) await pushFile(run, fileId);
      // Entries waiting for a row another aggregate created in this pass can go now.
      if (!blocked || run.pushed === before) break;
    }
  } catch (error) {
    const stopped = error instanceof PushStopped;
    const stoppedBy: SyncIssue = stopped
      ? error.issue
      : { at: run.at(), where: 'push', failure: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
    await recordPushEnd(db, { at: run.at(), stoppedBy, lastIssue: run.lastIssue });
    if (!stopped) throw error;
    return { status: 'incomplete', pushed: run.pushed, parked: await parkedNow(), retryable: error.retryable, lastError: stoppedBy };
  }
  await recordPushEnd(db, { at: run.at(), stoppedBy: null, lastIssue: run.lastIssue });
  const result: PushResult = { status: 'done', pushed: run.pushed, parked: await parkedNow(), retryable: false };
  if (run.lastIssue !== null) result.lastError = run.lastIssue;
  return result;
}
