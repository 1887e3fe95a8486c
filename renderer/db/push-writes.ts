/**
 * The push's side of the db layer. An acknowledged entry is removed only in the transaction that writes the server's
 * answer as its row's base (a create's real id replacing the temporary one in every table and later entry); a refused
 * entry is parked with why; and the records that let a stopped push resume (create attempts, file refinements) and
 * show how the last push went.
 */
import type { CacheDb } from './cache-db';
import { removeFileElements } from './element-blocks';
import { deleteRow, getRow, type StoredRow } from './edit-shapes';
import { ENTITY_TABLES, LIST_ENTITIES, type EditedEntity } from './entities';
import { containsString, replaceString } from './field-paths';
import { entriesReferringTo, OUTBOX_TABLES, rebuildRow, removeEntries, updateDetail } from './outbox-rows';
import {
  elementCursorKey,
  fileRefinementKey,
  isLocalId,
  type CreateAttempt,
  type EditConflict,
  type FileRefinementRow,
  type OutboxEntry,
  type PushProgress,
  type PushStateRow,
  type SyncIssue,
} from './schema';

/** Every table an acknowledgement may touch: a real id replaces a temporary one wherever it appears. */
const ACK_TABLES = [...ENTITY_TABLES, 'buildingFigures', 'fileStatuses', 'fileTimelines', ...OUTBOX_TABLES];

// --- acknowledging ----------------------------------------------------------------------------------------------------

/** Replaces a temporary id with the server's in every row that holds it and every entry that names it. */
async function replaceLocalId(db: CacheDb, localId: string, realId: string): Promise<void> {
  const swap = <T>(value: T): T => replaceString(value, localId, realId);
  const isLocal = (text: string): boolean => text === localId;
  await db.buildings.where('portfolioId').equals(localId).modify((row, ref) => {
    ref.value = swap(row);
  });
  const figures = await db.buildingFigures.get(localId);
  if (figures !== undefined) {
    await db.buildingFigures.delete(localId);
    await db.buildingFigures.put({ ...figures, buildingId: realId });
  }
  for (const table of LIST_ENTITIES) {
    const row = await getRow(db, table, localId);
    if (row === undefined) continue;
    await deleteRow(db, table, localId);
    await db.table<StoredRow>(table).put(swap(row));
  }
  for (const entry of await entriesReferringTo(db, localId)) {
    const renamed: OutboxEntry = {
      ...entry,
      key: entry.key.replaceAll(localId, realId),
      aggregate: entry.aggregate.replaceAll(localId, realId),
      fields: swap(entry.fields),
    };
    await db.outbox.put(renamed);
    if (renamed.entity === 'files') continue;
    const row = await getRow(db, renamed.entity, renamed.key);
    if (row !== undefined && containsString(row, isLocal)) await db.table<StoredRow>(renamed.entity).put(swap(row));
  }
  const details = await db.syncState
    .where('key')
    .startsWith('outbox:')
    .filter((row) => containsString(row, isLocal))
    .toArray();
  await db.syncState.bulkPut(details.map(swap));
}

/** Removes what the cache holds under a building the server deleted: its figures and files (elements with entries stay). */
async function removeBuildingData(db: CacheDb, buildingId: string): Promise<void> {
  await db.buildingFigures.delete(buildingId);
  for (const fileId of await db.files.where('buildingId').equals(buildingId).primaryKeys()) {
    await removeFileElements(db, fileId);
    await db.syncState.bulkDelete([elementCursorKey(fileId), fileRefinementKey(fileId)]);
    await db.fileStatuses.delete(fileId);
    await db.fileTimelines.delete(fileId);
    await db.files.delete(fileId);
  }
}

/**
 * Records the server's answer to an entry, in one transaction: the entry and its detail go, and the row becomes the
 * server's values (`server`; undefined for a delete) with the changes of its remaining entries on top. A create of a
 * temporary id moves the row to the server's id everywhere. Answers the row's key from now on.
 */
export async function acknowledgeEntry(db: CacheDb, entry: OutboxEntry & { entity: EditedEntity }, server: unknown, at: string): Promise<string> {
  return db.transaction('rw', ACK_TABLES, async () => {
    await removeEntries(db, [entry.seq]);
    // A delete leaves nothing to write, nor does a create whose row the user deleted again (the delete follows).
    if (entry.op === 'delete' || server === undefined) {
      if (entry.op === 'delete' && entry.entity === 'buildings') await removeBuildingData(db, entry.key);
      return entry.key;
    }
    let key = entry.key;
    const realId = (server as { id?: unknown } | null)?.id;
    if (entry.op === 'create' && isLocalId(key) && typeof realId === 'string') {
      await deleteRow(db, entry.entity, key);
      await replaceLocalId(db, key, realId);
      key = realId;
    }
    await rebuildRow(db, entry.entity, key, server, at);
    return key;
  });
}

/** Removes entries of a row the server never saw (a create and what followed it up to its delete): nothing to send. */
export async function dropUnsentEntries(db: CacheDb, seqs: readonly number[]): Promise<void> {
  await db.transaction('rw', ['outbox', 'syncState'], () => removeEntries(db, seqs));
}

// --- failures ---------------------------------------------------------------------------------------------------------

/** Parks an entry with why the server refused it (and, for a conflict, the fields in conflict). */
export async function parkEntry(db: CacheDb, seq: number, issue: SyncIssue, conflict: EditConflict | null = null): Promise<void> {
  await db.transaction('rw', ['outbox', 'syncState'], async () => {
    const entry = await db.outbox.get(seq);
    if (entry === undefined) return;
    await db.outbox.update(seq, { state: 'parked', lastError: issue, attempts: entry.attempts + 1 });
    if (conflict !== null) await updateDetail(db, seq, { conflict });
  });
}

/** Records a failed attempt of an entry that stays pending (no answer, 5xx, 429, 401/403). */
export async function recordEntryFailure(db: CacheDb, seq: number, issue: SyncIssue): Promise<void> {
  await db.transaction('rw', ['outbox'], async () => {
    const entry = await db.outbox.get(seq);
    if (entry !== undefined) await db.outbox.update(seq, { lastError: issue, attempts: entry.attempts + 1 });
  });
}

/** Records the first attempt of a create with a server id, before its request goes out. */
export async function recordCreateAttempt(db: CacheDb, seq: number, attempt: CreateAttempt): Promise<void> {
  await db.transaction('rw', ['outbox', 'syncState'], async () => {
    if ((await db.outbox.get(seq)) !== undefined) await updateDetail(db, seq, { create: attempt });
  });
}

// --- file refinements -------------------------------------------------------------------------------------------------

/** A file's refinement record, if the push is (or was, before it stopped) changing its elements. */
export async function readFileRefinement(db: CacheDb, fileId: string): Promise<FileRefinementRow | undefined> {
  const row = await db.syncState.get(fileRefinementKey(fileId));
  return row?.kind === 'file-refinement' ? row : undefined;
}

/** Every file with a refinement record: work a stopped push left. */
export async function filesWithRefinement(db: CacheDb): Promise<FileRefinementRow[]> {
  const rows = await db.syncState.where('key').startsWith('refine:').toArray();
  return rows.filter((row): row is FileRefinementRow => row.kind === 'file-refinement');
}

/** Writes a file's refinement record. */
export async function writeFileRefinement(db: CacheDb, row: FileRefinementRow): Promise<void> {
  await db.syncState.put(row);
}

/** Removes a file's refinement record: its elements are refined and pulled again. */
export async function clearFileRefinement(db: CacheDb, fileId: string): Promise<void> {
  await db.syncState.delete(fileRefinementKey(fileId));
}

// --- push state -------------------------------------------------------------------------------------------------------

const EMPTY_PUSH_STATE: PushStateRow = { key: 'push', kind: 'push', lastAttemptAt: null, lastSuccessAt: null, lastError: null, progress: null };

/** The state of the connection's pushes (all empty before the first one). */
export async function readPushState(db: CacheDb): Promise<PushStateRow> {
  const row = await db.syncState.get('push');
  return row?.kind === 'push' ? row : EMPTY_PUSH_STATE;
}

async function updatePushState(db: CacheDb, change: (state: PushStateRow) => PushStateRow): Promise<void> {
  await db.transaction('rw', db.syncState, async () => {
    await db.syncState.put(change(await readPushState(db)));
  });
}

/** Records that a push starts. */
export async function recordPushStart(db: CacheDb, at: string): Promise<void> {
  await updatePushState(db, (state) => ({ ...state, lastAttemptAt: at, progress: null }));
}

/** Records where the running push is. */
export async function recordPushProgress(db: CacheDb, progress: PushProgress): Promise<void> {
  await updatePushState(db, (state) => ({ ...state, progress }));
}

/** Records how a push ended: a success when nothing stopped it (parked entries wait for the user, not the push). */
export async function recordPushEnd(db: CacheDb, end: { at: string; stoppedBy: SyncIssue | null; lastIssue: SyncIssue | null }): Promise<void> {
  await updatePushState(db, (state) => ({
    ...state,
    lastSuccessAt: end.stoppedBy === null ? end.at : state.lastSuccessAt,
    lastError: end.stoppedBy ?? end.lastIssue,
    progress: null,
  }));
}
