/**
 * The db layer's side of the pull: each function writes one complete answer of the server in one transaction, so a
 * collection is applied entirely or not at all, and reads what the pull needs to decide its next request.
 *
 * Two rules hold in every write here: a row with outbox entries keeps its local values (the pull neither overwrites
 * nor deletes it), and a row whose server values did not change is not written again, so live queries stay quiet on a
 * resync that found nothing new.
 */
import { BuildingFileStatuses, BuildingFileType } from '../../shared/api/enums';
import type {
  BuildingFileElementResponse,
  BuildingFileResponse,
  BuildingFileStatusResponse,
  BuildingResponse,
  ClassificationMethod,
  Material,
  PortfolioResponse,
  Product,
} from '../../shared/api/schemas';
import { newFiguresRow } from './building-figures';
import type { CacheDb } from './cache-db';
import { appendBlocks, ELEMENT_TABLES, removeFileElements, settleBlocks, startBlockSet, type BlockTarget } from './element-blocks';
import { CATALOGUE_DETAILS, isOutboxEntity, listsOwnedBy, type CatalogueListTable, type OutboxEntity } from './entities';
import { listedStatuses, noteFileStatuses } from './file-timelines';
import { hasPendingEntries, pendingKeys } from './outbox';
import {
  elementCursorKey,
  isLocalId,
  type BuildingFiguresRow,
  type CatalogueListRow,
  type ElementCursorRow,
  type FileRow,
  type PullProgress,
  type RowRef,
} from './schema';

// --- comparing --------------------------------------------------------------------------------------------------------

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** Whether a cached row holds exactly these server values (and no local edit); `localFields` are the cache's own. */
function holdsServerValues(row: object | undefined, server: object, localFields: readonly string[] = []): boolean {
  if (row === undefined || (row as { base?: unknown }).base !== undefined) return false;
  const own = Object.keys(row).filter((key) => !localFields.includes(key));
  const serverKeys = Object.keys(server);
  if (own.length !== serverKeys.length) return false;
  return serverKeys.every((key) => sameJson((row as Record<string, unknown>)[key], (server as Record<string, unknown>)[key]));
}

async function pendingIn(db: CacheDb, table: string, prefix = ''): Promise<Set<string>> {
  return isOutboxEntity(table) ? pendingKeys(db, table, prefix) : new Set();
}

/** A kept row the user is told about: one the server knew (a locally created row is naturally missing). */
function keptRef(table: OutboxEntity, key: string): RowRef[] {
  return isLocalId(key) ? [] : [{ table, key }];
}

// --- catalogue tables ------------------------------------------------------------------------------------------------

// The catalogue tables and their lists are described in `entities.ts`; the sync engine and the stores name them here.

/** One sub-resource list of a catalogue item as the server answered it. */
export interface CatalogueList {
  table: CatalogueListTable;
  ownerId: string;
  items: readonly unknown[];
}

// --- removing ---------------------------------------------------------------------------------------------------------

const FILE_TABLES = ['files', 'fileStatuses', 'fileTimelines', ...ELEMENT_TABLES, 'syncState', 'outbox'] as const;

/** Removes a file and what hangs on it, except elements with outbox entries. Runs inside a transaction over FILE_TABLES. */
async function removeFileData(db: CacheDb, fileId: string): Promise<void> {
  await removeFileElements(db, fileId);
  await db.syncState.delete(elementCursorKey(fileId));
  await db.fileStatuses.delete(fileId);
  await db.fileTimelines.delete(fileId);
  await db.files.delete(fileId);
}

/** Removes a building's figures and its files without local changes. Runs inside a transaction over BUILDING_TABLES. */
async function removeBuildingData(db: CacheDb, buildingId: string): Promise<void> {
  await db.buildingFigures.delete(buildingId);
  const pendingFiles = await pendingKeys(db, 'files');
  const fileIds = await db.files.where('buildingId').equals(buildingId).primaryKeys();
  for (const fileId of fileIds) {
    if (!pendingFiles.has(fileId)) await removeFileData(db, fileId);
  }
}

// --- lists ------------------------------------------------------------------------------------------------------------

/** The server shape of the rows of each list the pull replaces as a whole (buildings have their own function). */
export interface PlainLists {
  portfolios: PortfolioResponse;
  classificationMethods: ClassificationMethod;
  materials: Material;
  products: Product;
}

/** A table the pull fills from one list request. */
export type PlainListTable = keyof PlainLists;

/** What applying a list did that the user must hear of. */
export interface ListApplied {
  /** Rows the server no longer lists, kept because they hold local changes. */
  keptMissing: RowRef[];
}

/**
 * Makes a table equal to a complete list of the server: new and changed rows written, rows the list lacks removed
 * (with their catalogue sub-resources), rows with outbox entries left as they are.
 */
export async function applyServerList<T extends PlainListTable>(
  db: CacheDb,
  table: T,
  rows: readonly PlainLists[T][],
): Promise<ListApplied> {
  // An item's sub-resource lists go with it.
  const details = listsOwnedBy(table);
  return db.transaction('rw', [table, 'outbox', ...details], async () => {
    const store = db.table<PlainLists[T], string>(table);
    const pending = await pendingIn(db, table);
    const cached = new Map((await store.toArray()).map((row) => [row.id, row]));
    await store.bulkPut(rows.filter((row) => !pending.has(row.id) && !holdsServerValues(cached.get(row.id), row)));
    const listed = new Set(rows.map((row) => row.id));
    const missing = [...cached.keys()].filter((id) => !listed.has(id));
    const removed = missing.filter((id) => !pending.has(id));
    await store.bulkDelete(removed);
    for (const detail of details) {
      const pendingDetails = await pendingKeys(db, detail);
      await db.table(detail).bulkDelete(removed.filter((id) => !pendingDetails.has(id)));
    }
    const kept = missing.filter((id) => pending.has(id));
    return { keptMissing: isOutboxEntity(table) ? kept.flatMap((id) => keptRef(table, id)) : [] };
  });
}

const BUILDING_TABLES = ['buildings', 'buildingFigures', ...FILE_TABLES] as const;

/**
 * Writes the server's rows of buildings (but not over local changes) and what their figures saw of them: due when
 * `isDirty` went from true to false or `mostRecentBimInfo` moved. Runs in the caller's transaction.
 */
async function writeSeenBuildings(
  db: CacheDb,
  rows: readonly BuildingResponse[],
  pending: ReadonlySet<string>,
  cached: ReadonlyMap<string, object>,
): Promise<void> {
  await db.buildings.bulkPut(rows.filter((row) => !pending.has(row.id) && !holdsServerValues(cached.get(row.id), row)));
  const figures = await db.buildingFigures.bulkGet(rows.map((row) => row.id));
  const seen: BuildingFiguresRow[] = [];
  rows.forEach((row, index) => {
    const before = figures[index];
    const known = before ?? newFiguresRow(row.id);
    const cleaned = known.seenIsDirty && !row.isDirty;
    const moved = known.seenMostRecentBimInfo !== row.mostRecentBimInfo;
    const next = { ...known, stale: known.stale || cleaned || moved, seenIsDirty: row.isDirty, seenMostRecentBimInfo: row.mostRecentBimInfo };
    if (before === undefined || !sameJson(before, next)) seen.push(next);
  });
  await db.buildingFigures.bulkPut(seen);
}

/** Applies one building as the server answered it (a building being followed), as the list applies each of its rows. */
export async function applyServerBuilding(db: CacheDb, row: BuildingResponse): Promise<void> {
  await db.transaction('rw', BUILDING_TABLES, async () => {
    const cached = await db.buildings.get(row.id);
    await writeSeenBuildings(db, [row], await pendingKeys(db, 'buildings'), new Map(cached === undefined ? [] : [[row.id, cached]]));
  });
}

/**
 * Applies the complete building list like `applyServerList`, removing the files and figures of removed buildings,
 * and records what it saw of each building: its figures become due when `isDirty` went from true to false or
 * `mostRecentBimInfo` moved.
 */
export async function applyServerBuildings(db: CacheDb, rows: readonly BuildingResponse[]): Promise<ListApplied> {
  return db.transaction('rw', BUILDING_TABLES, async () => {
    const pending = await pendingKeys(db, 'buildings');
    const cached = new Map((await db.buildings.toArray()).map((row) => [row.id, row]));
    await writeSeenBuildings(db, rows, pending, cached);

    const listed = new Set(rows.map((row) => row.id));
    const missing = [...cached.keys()].filter((id) => !listed.has(id));
    for (const id of missing) {
      if (pending.has(id)) continue;
      await db.buildings.delete(id);
      await removeBuildingData(db, id);
    }
    return { keptMissing: missing.filter((id) => pending.has(id)).flatMap((id) => keptRef('buildings', id)) };
  });
}

// --- files and elements -----------------------------------------------------------------------------------------------

/** A file whose elements the cache must pull, at the stamp the server listed. */
export interface ElementsDue {
  buildingId: string;
  fileId: string;
  stamp: string;
}

/** What applying a building's file list did. */
export interface FilesApplied extends ListApplied {
  /** Files whose elements are missing or older than the server's, and settled enough to pull. */
  due: ElementsDue[];
}

/** Statuses in which the server is rewriting a file's elements; they are pulled once it has finished. */
const UNSETTLED_STATUSES: ReadonlySet<number> = new Set([
  BuildingFileStatuses.Uploaded,
  BuildingFileStatuses.Refining,
  BuildingFileStatuses.Mapping,
]);

function filesSignature(files: readonly BuildingFileResponse[]): string {
  return files
    .map((file) => `${file.id}@${file.lastModifiedDate}@${String(file.isActive)}`)
    .sort()
    .join(',');
}

/**
 * Makes a building's files equal to the server's complete list (removing the elements of removed files, except those
 * with local changes), marks the building's figures due when its files changed, and answers which files' elements
 * must be pulled.
 */
export async function applyServerFiles(
  db: CacheDb,
  buildingId: string,
  files: readonly BuildingFileResponse[],
  at = new Date().toISOString(),
): Promise<FilesApplied> {
  return db.transaction('rw', ['buildingFigures', ...FILE_TABLES], async () => {
    const pending = await pendingKeys(db, 'files');
    const cached = new Map((await db.files.where('buildingId').equals(buildingId).toArray()).map((row) => [row.id, row]));
    const writes: FileRow[] = [];
    const due: ElementsDue[] = [];
    for (const file of files) {
      const before = cached.get(file.id);
      const elementsStamp = before?.elementsStamp ?? null;
      if (!pending.has(file.id) && !holdsServerValues(before, file, ['elementsStamp'])) writes.push({ ...file, elementsStamp });
      const holdsElements = file.type === BuildingFileType.Source && !UNSETTLED_STATUSES.has(file.status);
      if (holdsElements && file.lastModifiedDate !== elementsStamp) due.push({ buildingId, fileId: file.id, stamp: file.lastModifiedDate });
    }
    await db.files.bulkPut(writes);
    await noteFileStatuses(db, listedStatuses(buildingId, files, await db.fileStatuses.bulkGet(files.map((file) => file.id))), at);

    const listed = new Set(files.map((file) => file.id));
    const missing = [...cached.keys()].filter((id) => !listed.has(id));
    for (const id of missing) {
      if (!pending.has(id)) await removeFileData(db, id);
    }

    const signature = filesSignature(files);
    const figures = (await db.buildingFigures.get(buildingId)) ?? newFiguresRow(buildingId);
    if (figures.filesSignature !== signature) {
      await db.buildingFigures.put({ ...figures, stale: true, filesSignature: signature });
    }
    return { due, keptMissing: missing.filter((id) => pending.has(id)).flatMap((id) => keptRef('files', id)) };
  });
}

/**
 * Writes one file as the server answered an action on it (its activation), as the list writes each of its rows: not
 * over local changes, keeping the stamp of the elements the cache holds. A file the cache does not hold waits for the
 * list.
 */
export async function applyServerFile(db: CacheDb, file: BuildingFileResponse): Promise<void> {
  await db.transaction('rw', ['files', 'outbox'], async () => {
    const before = await db.files.get(file.id);
    if (before === undefined || (await pendingKeys(db, 'files')).has(file.id) || holdsServerValues(before, file, ['elementsStamp'])) return;
    await db.files.put({ ...file, elementsStamp: before.elementsStamp });
  });
}

/** Writes a file's status as `/status` answered it, and notes it in the file's timeline. */
export async function writeFileStatus(db: CacheDb, buildingId: string, status: BuildingFileStatusResponse, at: string): Promise<void> {
  await db.transaction('rw', ['fileStatuses', 'fileTimelines'], async () => {
    await db.fileStatuses.put({ ...status, buildingId, fetchedAt: at });
    await noteFileStatuses(db, [{ fileId: status.id, buildingId, status: status.status }], at);
  });
}

async function putProgress(db: CacheDb, progress: PullProgress): Promise<void> {
  const state = await db.syncState.get('pull');
  if (state?.kind === 'pull') await db.syncState.put({ ...state, progress });
}

/** The block set a cursor's pages go to. */
function blockTarget(cursor: ElementCursorRow): BlockTarget {
  return cursor.target === 'elements' ? 'shown' : 'staged';
}

/**
 * Begins a file's element pull from its first page and decides where its pages go (`ElementCursorRow['target']`):
 * a new generation of blocks, staged, or for a file never held completely, shown at once in place of the partial
 * pages of an older stamp.
 */
export async function beginElementPull(
  db: CacheDb,
  start: Omit<ElementCursorRow, 'target'>,
  status: BuildingFileStatusResponse | null,
): Promise<ElementCursorRow> {
  return db.transaction('rw', ['files', ...ELEMENT_TABLES, 'syncState', 'fileStatuses', 'fileTimelines', 'outbox'], async () => {
    const held = (await db.files.get(start.fileId))?.elementsStamp ?? null;
    const cursor: ElementCursorRow = { ...start, target: held === null ? 'elements' : 'staging' };
    await startBlockSet(db, start.fileId, start.stamp, blockTarget(cursor));
    await db.syncState.put(cursor);
    if (status !== null) await writeFileStatus(db, cursor.buildingId, status, cursor.startedAt);
    return cursor;
  });
}

/**
 * Writes one page of a file's elements as blocks of the cursor's set, together with the cursor that points past it, so
 * a pull stopped or killed after this resumes at the next page. The user's rows in `elements` stay over them.
 */
export async function writeElementPage(
  db: CacheDb,
  cursor: ElementCursorRow,
  page: readonly BuildingFileElementResponse[],
  progress: PullProgress,
): Promise<void> {
  await db.transaction('rw', ['elementSets', 'elementBlocks', 'elementBlockIds', 'syncState'], async () => {
    // The record's file is the one the page was asked for, whatever the answer said.
    await appendBlocks(db, cursor.fileId, blockTarget(cursor), page);
    await db.syncState.put(cursor);
    await putProgress(db, progress);
  });
}

/**
 * Ends a file's element pull after its last page: a staged block set replaces the file's shown one in one
 * transaction, and the user's rows without outbox entries go (elements with entries keep their local values, and stay
 * even when the server no longer has them); then the file holds the elements of the cursor's stamp.
 */
export async function finishElementPull(db: CacheDb, cursor: ElementCursorRow): Promise<void> {
  await db.transaction('rw', [...ELEMENT_TABLES, 'files', 'syncState', 'outbox'], async () => {
    await settleBlocks(db, cursor.fileId, blockTarget(cursor));
    await db.files.update(cursor.fileId, { elementsStamp: cursor.stamp });
    await db.syncState.delete(cursor.key);
  });
}

// --- catalogue sub-resources ------------------------------------------------------------------------------------------

/** Writes an item's sub-resource lists together; a list with outbox entries keeps its local values. */
export async function writeCatalogueLists(db: CacheDb, lists: readonly CatalogueList[], at: string): Promise<void> {
  const tables = [...new Set(lists.map((list) => list.table))];
  await db.transaction('rw', [...tables, 'outbox'], async () => {
    for (const list of lists) {
      if (await hasPendingEntries(db, list.table, list.ownerId)) continue;
      await db.table<CatalogueListRow<unknown>, string>(list.table).put({ ownerId: list.ownerId, items: [...list.items], fetchedAt: at });
    }
  });
}

/** Catalogue items (server ids) that lack one of their sub-resource lists, for the background fill. */
export async function catalogueItemsMissingDetails(db: CacheDb): Promise<{ materials: string[]; products: string[] }> {
  async function missing(table: 'materials' | 'products'): Promise<string[]> {
    const ids = (await db.table<unknown, string>(table).toCollection().primaryKeys()).filter((id) => !isLocalId(id));
    const present = await Promise.all(
      CATALOGUE_DETAILS[table].map(async (detail) => new Set(await db.table<unknown, string>(detail).toCollection().primaryKeys())),
    );
    return ids.filter((id) => present.some((keys) => !keys.has(id)));
  }
  return { materials: await missing('materials'), products: await missing('products') };
}

