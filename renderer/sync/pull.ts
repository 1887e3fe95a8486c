/**
 * The pull: makes the cache equal to the server using only the spec's endpoints (design: docs/sync.md).
 *
 * Lists first (portfolios, buildings, classification methods, materials, products, then each building's files), each
 * applied whole in one transaction. Then the elements of each file that is new or whose `lastModifiedDate` moved, in
 * pages of `$orderby=id&$top&$skip` staged with their cursor, swapped in when the last page arrived. The next pages
 * are asked for while one is written; pages are written one at a time and in order, so the cursor only moves over
 * written pages. Then the figures of buildings whose files, `isDirty` or `mostRecentBimInfo` say they changed. A resync
 * that finds nothing new costs one request per collection and one per building.
 *
 * Failures: no answer, 408, 429, 5xx, a host that cannot call, or 401/403 stop the pull (cursors and everything applied
 * so far stay; the result says it is incomplete). Any other refusal or an answer of the wrong shape skips that one
 * collection, which is reported and never half-applied. A page asked for ahead counts only in its turn: its failure
 * stops or skips once the pages before it are written, and its answer is dropped unread when the pull stopped first.
 */
import type {
  BuildingFileElementResponse,
  BuildingFileResponse,
  BuildingFileStatusResponse,
  BuildingResponse,
} from '../../shared/api/schemas';
import {
  applyServerBuildings,
  applyServerFiles,
  applyServerList,
  beginElementPull,
  buildingsWithFiguresDue,
  CATALOGUE_DETAILS,
  catalogueItemsMissingDetails,
  dropFiguresDue,
  finishElementPull,
  writeBuildingFigures,
  writeCatalogueLists,
  writeElementPage,
  writeFileStatus,
  type BuildingFigures,
  type CatalogueList,
  type CatalogueListTable,
  type ElementsDue,
  type PlainLists,
  type PlainListTable,
} from '../db/apply-pull';
import type { CacheDb } from '../db/cache-db';
import { elementCursorKey, isLocalId, type ElementCursorRow, type PullProgress, type RowRef, type SyncIssue } from '../db/schema';
import { readElementCursor, recordPullEnd, recordPullProgress, recordPullStart } from '../db/sync-state';
import type { OperationId } from '../../shared/api/routes';
import { callApi, callOperation, type OperationCall } from '../api/call-api';
import { classifyFailure, type ApiFailure, type FailureClass } from '../api/failure';
import type { ApiOutcome } from '../api/outcome';
import type { ApiPort } from '../api/port';
import { elementPages } from './element-pages';
import { isRecord } from '../../shared/is-record';

/** Elements per page: fewer, larger pages cost the server fewer deep `$skip` walks (test/bench/initial-sync.bench.ts). */
export const DEFAULT_PAGE_SIZE = 2000;

/** What every sync operation works with. */
export interface SyncOptions {
  db: CacheDb;
  api: ApiPort;
  /** The clock of the timestamps written (default: the system's). */
  now?: () => Date;
}

/** How a pull runs. */
export interface PullOptions extends SyncOptions {
  /** Elements per page (default `DEFAULT_PAGE_SIZE`). A changed size restarts unfinished files from their first page. */
  pageSize?: number;
  /** Hears where the pull is; the same progress is written to `syncState`. */
  onProgress?: (progress: PullProgress) => void;
  /** Stops the pull before its next request, as an incomplete pull that can be resumed. */
  signal?: AbortSignal;
}

/** How a pull ended. `issues`: the collections it skipped; `keptMissing`: rows kept for their local changes. */
export type PullResult =
  | { status: 'complete'; issues: SyncIssue[]; keptMissing: RowRef[] }
  | {
      status: 'incomplete';
      stoppedBy: SyncIssue;
      /** True when trying again later may succeed (no answer, 5xx, 429); false when the user must act (401/403, host). */
      retryable: boolean;
      issues: SyncIssue[];
      keptMissing: RowRef[];
    };

/** The outcome of an on-demand fetch. */
export type FetchOutcome<T = undefined> = { ok: true; value: T } | { ok: false; failure: ApiFailure; class: FailureClass };

// --- one run ----------------------------------------------------------------------------------------------------------

/** Unwinds a pull that must stop; carries what stopped it. */
class PullStopped extends Error {
  constructor(readonly issue: SyncIssue) {
    super(issue.where);
    this.name = 'PullStopped';
  }
}

interface Run {
  db: CacheDb;
  api: ApiPort;
  pageSize: number;
  signal: AbortSignal | undefined;
  onProgress: ((progress: PullProgress) => void) | undefined;
  at: () => string;
  issues: SyncIssue[];
  keptMissing: RowRef[];
}

function newRun(options: PullOptions): Run {
  return {
    db: options.db,
    api: options.api,
    pageSize: Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE)),
    signal: options.signal,
    onProgress: options.onProgress,
    at: clockOf(options),
    issues: [],
    keptMissing: [],
  };
}

function clockOf(options: SyncOptions): () => string {
  const now = options.now ?? (() => new Date());
  return () => now().toISOString();
}

/** Records a failure: a refusal is an issue and the caller skips its part; anything else stops the pull. */
function fail(run: Run, where: string, failure: ApiFailure): void {
  const issue: SyncIssue = { at: run.at(), where, failure };
  if (classifyFailure(failure) !== 'rejected') throw new PullStopped(issue);
  run.issues.push(issue);
}

/** Stops the pull when its signal was aborted, before it makes another request. */
function stopIfAborted(run: Run, where: string): void {
  if (run.signal?.aborted === true) {
    throw new PullStopped({ at: run.at(), where, failure: { kind: 'network', reason: 'aborted', message: 'The sync was stopped.' } });
  }
}

/** Runs a call of the pull; answers its value, or undefined when the server refused it (recorded by `fail`). */
async function request(run: Run, where: string, call: OperationCall): Promise<unknown> {
  stopIfAborted(run, where);
  const outcome = await callOperation(run.api, call);
  if (outcome.ok) return outcome.value;
  fail(run, where, outcome.failure);
  return undefined;
}

async function progress(run: Run, value: PullProgress, persist = true): Promise<void> {
  if (persist) await recordPullProgress(run.db, value);
  run.onProgress?.(value);
}

// --- answers ----------------------------------------------------------------------------------------------------------

/**
 * The answer as a list whose items have a string field `key` (and pass `check`), or undefined. Items are taken as the
 * contract's type beyond that: checking every field of every element would reject a server that adds a field, and
 * the cache stores what the server said.
 */
function listOf<T>(value: unknown, key: string | null, check: (item: Record<string, unknown>) => boolean = () => true): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const valid = value.every((item) => isRecord(item) && (key === null || typeof item[key] === 'string') && check(item));
  return valid ? (value as T[]) : undefined;
}

function invalid(where: string, what: string): ApiFailure {
  return { kind: 'invalid-answer', message: `The answer of ${where} is not ${what}.` };
}

/** A list answer, or undefined after recording why there is none. */
async function fetchList<T>(
  run: Run,
  where: string,
  call: OperationCall,
  key: string | null,
  check?: (item: Record<string, unknown>) => boolean,
): Promise<T[] | undefined> {
  const value = await request(run, where, call);
  if (value === undefined) return undefined;
  const list = listOf<T>(value, key, check);
  if (list === undefined) fail(run, where, invalid(where, `a list of ${key === null ? 'objects' : `objects with a string ${key}`}`));
  return list;
}

// --- lists ------------------------------------------------------------------------------------------------------------

const PLAIN_LISTS: ReadonlyArray<{ table: PlainListTable; operationId: OperationId; catalogue: boolean }> = [
  { table: 'portfolios', operationId: 'listPortfolios', catalogue: false },
  { table: 'classificationMethods', operationId: 'listClassificationMethods', catalogue: false },
  { table: 'materials', operationId: 'listMaterials', catalogue: true },
  { table: 'products', operationId: 'listProducts', catalogue: true },
];

/** The id of the key's own account, whose database holds the catalogue items its users created. */
async function ownDatabaseId(run: Run): Promise<string | undefined> {
  const account = await request(run, 'getCurrentAccount', { operationId: 'getCurrentAccount' });
  const id = isRecord(account) ? account['id'] : undefined;
  if (account !== undefined && typeof id !== 'string') fail(run, 'getCurrentAccount', invalid('getCurrentAccount', 'an account'));
  return typeof id === 'string' ? id : undefined;
}

/**
 * A catalogue is the platform's database (the list without `databaseId`) and the account's own one, where items its
 * users create are kept: both lists make the complete one, so an item created here is not taken for deleted.
 */
async function fetchCatalogue<T extends { id: string }>(run: Run, operationId: OperationId, databaseId: string | undefined): Promise<T[] | undefined> {
  const platform = await fetchList<T>(run, operationId, { operationId }, 'id');
  if (platform === undefined || databaseId === undefined) return undefined;
  const own = await fetchList<T>(run, `${operationId}:${databaseId}`, { operationId, query: { databaseId } }, 'id');
  if (own === undefined) return undefined;
  const byId = new Map<string, T>();
  for (const item of [...platform, ...own]) byId.set(item.id, item);
  return [...byId.values()];
}

/** Pulls the complete lists; answers the buildings whose files are to be listed. */
async function pullLists(run: Run): Promise<string[]> {
  await progress(run, { phase: 'lists', collection: 'buildings' });
  const buildings = await fetchList<BuildingResponse>(run, 'listBuildings', { operationId: 'listBuildings' }, 'id');
  if (buildings !== undefined) run.keptMissing.push(...(await applyServerBuildings(run.db, buildings)).keptMissing);

  let databaseId: string | undefined;
  for (const { table, operationId, catalogue } of PLAIN_LISTS) {
    await progress(run, { phase: 'lists', collection: table });
    if (catalogue) databaseId ??= await ownDatabaseId(run);
    const rows = catalogue
      ? await fetchCatalogue<PlainLists[typeof table]>(run, operationId, databaseId)
      : await fetchList<PlainLists[typeof table]>(run, operationId, { operationId }, 'id');
    if (rows !== undefined) run.keptMissing.push(...(await applyServerList(run.db, table, rows)).keptMissing);
  }
  // Without the server's list, the cached buildings are the best guess of what to list files for.
  const ids = buildings?.map((building) => building.id) ?? (await run.db.buildings.toCollection().primaryKeys());
  return ids.filter((id) => !isLocalId(id));
}

function isFileListItem(item: Record<string, unknown>): boolean {
  return typeof item['lastModifiedDate'] === 'string' && typeof item['type'] === 'number' && typeof item['status'] === 'number';
}

/** Lists the files of each building; answers the files whose elements are due. */
async function pullFiles(run: Run, buildingIds: readonly string[]): Promise<ElementsDue[]> {
  const due: ElementsDue[] = [];
  for (const [index, buildingId] of buildingIds.entries()) {
    await progress(run, { phase: 'files', buildingsDone: index, buildingsTotal: buildingIds.length });
    const call: OperationCall = { operationId: 'listBuildingFiles', params: { buildingId } };
    const files = await fetchList<BuildingFileResponse>(run, `listBuildingFiles:${buildingId}`, call, 'id', isFileListItem);
    if (files === undefined) continue;
    const applied = await applyServerFiles(run.db, buildingId, files);
    run.keptMissing.push(...applied.keptMissing);
    due.push(...applied.due);
  }
  return due;
}

// --- elements ---------------------------------------------------------------------------------------------------------

function isStatus(value: unknown): value is BuildingFileStatusResponse {
  return isRecord(value) && typeof value['id'] === 'string' && typeof value['status'] === 'number' && typeof value['elementCount'] === 'number';
}

/** The cursor to go on from: the stored one if it belongs to this stamp and page size, else a new one at page 0. */
async function cursorFor(run: Run, due: ElementsDue): Promise<ElementCursorRow> {
  const stored = await readElementCursor(run.db, due.fileId);
  if (stored !== undefined && stored.stamp === due.stamp && stored.pageSize === run.pageSize) return stored;
  stopIfAborted(run, `getBuildingFileStatus:${due.fileId}`);
  // The status's element count only feeds the progress display, so a refusal of it is no reason to skip the file.
  const outcome = await callApi(run.api, 'getBuildingFileStatus', { params: { buildingId: due.buildingId, fileId: due.fileId } });
  if (!outcome.ok && classifyFailure(outcome.failure) !== 'rejected') fail(run, `getBuildingFileStatus:${due.fileId}`, outcome.failure);
  const status = outcome.ok && isStatus(outcome.value) ? outcome.value : null;
  return beginElementPull(
    run.db,
    {
      key: elementCursorKey(due.fileId),
      kind: 'element-cursor',
      buildingId: due.buildingId,
      fileId: due.fileId,
      stamp: due.stamp,
      pageSize: run.pageSize,
      nextSkip: 0,
      pagesDone: 0,
      expectedCount: status?.elementCount ?? null,
      startedAt: run.at(),
    },
    status,
  );
}

function elementsProgress(cursor: ElementCursorRow): PullProgress {
  // Servers do not all count elements made through the element endpoints: a count of 0, or one the pages already
  // passed, says nothing about the total.
  const { expectedCount } = cursor;
  const known = expectedCount !== null && expectedCount > 0 && cursor.nextSkip <= expectedCount;
  const totalPages = known ? Math.max(cursor.pagesDone, Math.ceil(expectedCount / cursor.pageSize)) : null;
  return { phase: 'elements', buildingId: cursor.buildingId, fileId: cursor.fileId, pagesDone: cursor.pagesDone, totalPages };
}

/** The answer as a page of elements, or undefined after recording why there is none (`fail`). */
function pageOf(run: Run, where: string, outcome: ApiOutcome<unknown>): BuildingFileElementResponse[] | undefined {
  if (!outcome.ok) {
    fail(run, where, outcome.failure);
    return undefined;
  }
  const page = listOf<BuildingFileElementResponse>(outcome.value, 'id');
  if (page === undefined) fail(run, where, invalid(where, 'a list of objects with a string id'));
  return page;
}

/**
 * Pulls a file's elements page by page from its cursor, then ends the file's pull (`finishElementPull`). The next
 * pages are asked for while one is written (`element-pages.ts`); pages are written one at a time and in order, each
 * with the cursor past it, so wherever the pull stops the cursor points at the first page not written. Answers that
 * arrive for pages beyond a stop are dropped.
 */
async function pullElements(run: Run, due: ElementsDue): Promise<void> {
  let cursor = await cursorFor(run, due);
  await progress(run, elementsProgress(cursor));
  const where = `listElements:${due.fileId}`;
  const { expectedCount } = cursor;
  const pages = elementPages(
    run.api,
    // A stable order is what makes `$skip` meaningful across requests.
    (skip) => ({ operationId: 'listElements', params: { buildingId: due.buildingId, fileId: due.fileId }, query: { $orderby: 'id', $top: run.pageSize, $skip: skip } }),
    {
      firstSkip: cursor.nextSkip,
      pageSize: run.pageSize,
      // A known count spares the requests past the file's end; without one, the short page ends the file.
      mayAsk: (skip) => run.signal?.aborted !== true && (expectedCount === null || expectedCount <= 0 || skip < expectedCount),
    },
  );
  try {
    for (;;) {
      stopIfAborted(run, where);
      const outcome = await pages.next();
      // A stop while the page was on its way: it is not written, so the cursor stays where the cache is.
      stopIfAborted(run, where);
      const page = pageOf(run, where, outcome);
      if (page === undefined) return;
      // A short page is the last; a long one means the server ignored `$top` and answered the rest at once.
      const last = page.length !== run.pageSize;
      cursor = { ...cursor, nextSkip: cursor.nextSkip + page.length, pagesDone: cursor.pagesDone + 1 };
      const current = elementsProgress(cursor);
      // The page, its cursor and the progress are written in one transaction; the progress is not written twice.
      await writeElementPage(run.db, cursor, page, current);
      await progress(run, current, false);
      if (last) break;
    }
  } finally {
    pages.close();
  }
  await finishElementPull(run.db, cursor);
}

// --- figures ----------------------------------------------------------------------------------------------------------

/** Fetches a building's three figures; all or none. */
async function fetchFigures(api: ApiPort, buildingId: string): Promise<FetchOutcome<BuildingFigures>> {
  const values: Record<string, unknown> = {};
  for (const [name, operationId] of [
    ['circular', 'getBuildingCircular'],
    ['financial', 'getBuildingFinancial'],
    ['validation', 'getBuildingValidation'],
  ] as const) {
    const outcome = await callApi(api, operationId, { params: { id: buildingId } });
    if (!outcome.ok) return { ok: false, failure: outcome.failure, class: classifyFailure(outcome.failure) };
    if (!isRecord(outcome.value)) {
      const failure = invalid(operationId, 'an object');
      return { ok: false, failure, class: classifyFailure(failure) };
    }
    values[name] = outcome.value;
  }
  return { ok: true, value: values as unknown as BuildingFigures };
}

async function pullDueFigures(run: Run): Promise<void> {
  for (const buildingId of await buildingsWithFiguresDue(run.db)) {
    stopIfAborted(run, `figures:${buildingId}`);
    await progress(run, { phase: 'figures', buildingId });
    const outcome = await fetchFigures(run.api, buildingId);
    if (outcome.ok) {
      await writeBuildingFigures(run.db, buildingId, outcome.value, run.at());
      continue;
    }
    fail(run, `figures:${buildingId}`, outcome.failure);
    await dropFiguresDue(run.db, buildingId);
  }
}

// --- the pull ---------------------------------------------------------------------------------------------------------

/**
 * Pulls everything the connection's key sees into the cache. Resolves with how it ended; rejects only when the port
 * throws something other than `ApiPortError` or the cache fails (what was applied before stays, cursors included).
 */
export async function pull(options: PullOptions): Promise<PullResult> {
  const run = newRun(options);
  await recordPullStart(run.db, run.at());
  try {
    const buildingIds = await pullLists(run);
    const due = await pullFiles(run, buildingIds);
    for (const each of due) await pullElements(run, each);
    await pullDueFigures(run);
  } catch (error) {
    const stoppedBy: SyncIssue =
      error instanceof PullStopped
        ? error.issue
        : { at: run.at(), where: 'pull', failure: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
    await recordPullEnd(run.db, { at: run.at(), stoppedBy, issues: run.issues, keptMissing: run.keptMissing });
    if (!(error instanceof PullStopped)) throw error;
    const retryable = classifyFailure(stoppedBy.failure) === 'transient';
    return { status: 'incomplete', stoppedBy, retryable, issues: run.issues, keptMissing: run.keptMissing };
  }
  await recordPullEnd(run.db, { at: run.at(), stoppedBy: null, issues: run.issues, keptMissing: run.keptMissing });
  return { status: 'complete', issues: run.issues, keptMissing: run.keptMissing };
}

/**
 * Pulls one file's elements now, as the pull does (a cursor of the same stamp is resumed); the push calls it after its
 * changes to a file were refined. Answers what stopped or skipped it, or null when the file's elements are in place.
 */
export async function pullFileElements(options: PullOptions, due: ElementsDue): Promise<SyncIssue | null> {
  const run = newRun(options);
  try {
    await pullElements(run, due);
  } catch (error) {
    if (error instanceof PullStopped) return error.issue;
    throw error;
  }
  return run.issues[0] ?? null;
}

// --- on demand --------------------------------------------------------------------------------------------------------

/** Fetches a building's circular, financial and validation figures now and writes them (all three or none). */
export async function pullBuildingFigures(options: SyncOptions, buildingId: string): Promise<FetchOutcome> {
  const outcome = await fetchFigures(options.api, buildingId);
  if (!outcome.ok) return outcome;
  await writeBuildingFigures(options.db, buildingId, outcome.value, clockOf(options)());
  return { ok: true, value: undefined };
}

/** Fetches a file's processing status now and writes it. */
export async function pullFileStatus(options: SyncOptions, buildingId: string, fileId: string): Promise<FetchOutcome<BuildingFileStatusResponse>> {
  const outcome = await callApi(options.api, 'getBuildingFileStatus', { params: { buildingId, fileId } });
  if (!outcome.ok) return { ok: false, failure: outcome.failure, class: classifyFailure(outcome.failure) };
  if (!isStatus(outcome.value)) {
    const failure = invalid('getBuildingFileStatus', 'a file status');
    return { ok: false, failure, class: classifyFailure(failure) };
  }
  await writeFileStatus(options.db, buildingId, outcome.value, clockOf(options)());
  return { ok: true, value: outcome.value };
}

/** The sub-resource lists of each catalogue table, with the operation that lists them. */
const DETAIL_OPERATIONS: Readonly<Record<CatalogueListTable, OperationId>> = {
  materialMatches: 'listMaterialMatches',
  materialFinancialValues: 'listMaterialFinancialValues',
  productMatches: 'listProductMatches',
  productChildren: 'listProductChildren',
  productFinancialValues: 'listProductFinancialValues',
};

async function pullCatalogueDetails(options: SyncOptions, table: keyof typeof CATALOGUE_DETAILS, id: string): Promise<FetchOutcome> {
  const lists: CatalogueList[] = [];
  for (const detail of CATALOGUE_DETAILS[table]) {
    const operationId = DETAIL_OPERATIONS[detail];
    const outcome = await callOperation(options.api, { operationId, params: { id } });
    const items = outcome.ok ? listOf<unknown>(outcome.value, null) : undefined;
    if (!outcome.ok || items === undefined) {
      const failure = outcome.ok ? invalid(operationId, 'a list of objects') : outcome.failure;
      return { ok: false, failure, class: classifyFailure(failure) };
    }
    lists.push({ table: detail, ownerId: id, items });
  }
  // All of an item's lists are written together, or none when one of them failed.
  await writeCatalogueLists(options.db, lists, clockOf(options)());
  return { ok: true, value: undefined };
}

/** Fetches a material's matches and financial values now (when the user opens it) and writes them. */
export function pullMaterialDetails(options: SyncOptions, materialId: string): Promise<FetchOutcome> {
  return pullCatalogueDetails(options, 'materials', materialId);
}

/** Fetches a product's matches, children and financial values now and writes them. */
export function pullProductDetails(options: SyncOptions, productId: string): Promise<FetchOutcome> {
  return pullCatalogueDetails(options, 'products', productId);
}

/** How a background fill ended. */
export interface FillResult {
  /** Items whose sub-resources were written. */
  filled: number;
  /** Items the server refused, skipped. */
  issues: SyncIssue[];
  /** What stopped the fill (no answer, 5xx, 401 …), if something did; the rest is filled by a later run. */
  stoppedBy: SyncIssue | null;
}

/**
 * Fetches the sub-resources of every catalogue item that lacks them, `concurrency` items at a time (default 2), so
 * the user's own requests keep most of the host's queue. Stops at the first failure that is not a refusal.
 */
export async function fillCatalogueDetails(
  options: SyncOptions & { concurrency?: number; signal?: AbortSignal },
): Promise<FillResult> {
  const at = clockOf(options);
  const missing = await catalogueItemsMissingDetails(options.db);
  const work = [
    ...missing.materials.map((id) => ({ table: 'materials' as const, id })),
    ...missing.products.map((id) => ({ table: 'products' as const, id })),
  ];
  const result: FillResult = { filled: 0, issues: [], stoppedBy: null };
  const worker = async (): Promise<void> => {
    for (let item = work.shift(); item !== undefined; item = work.shift()) {
      if (result.stoppedBy !== null || options.signal?.aborted === true) return;
      const outcome = await pullCatalogueDetails(options, item.table, item.id);
      if (outcome.ok) {
        result.filled += 1;
        continue;
      }
      const issue: SyncIssue = { at: at(), where: `${item.table}:${item.id}`, failure: outcome.failure };
      if (outcome.class === 'rejected') result.issues.push(issue);
      else result.stoppedBy ??= issue;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return result;
}
