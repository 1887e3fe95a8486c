/**
 * When the app saw each status of a building file's latest processing (`fileTimelines`). The server answers only a
 * file's current status, so these times are the app's own: noted by the pull and by `/status` answers as they are
 * applied, and by an upload of the file as it ends.
 */
import { BuildingFileStatuses } from '../../shared/api/enums';
import type { BuildingFileResponse } from '../../shared/api/schemas';
import type { CacheDb } from './cache-db';
import type { FileStatusRow, SeenStatus } from './schema';

/** Where each status of the processing stands: later statuses rank higher. */
const RANK: ReadonlyMap<number, number> = new Map([
  [BuildingFileStatuses.Creating, 0],
  [BuildingFileStatuses.Uploaded, 1],
  [BuildingFileStatuses.Importing, 2],
  [BuildingFileStatuses.Imported, 3],
  [BuildingFileStatuses.Refining, 4],
  [BuildingFileStatuses.Refined, 5],
  [BuildingFileStatuses.Mapping, 6],
  [BuildingFileStatuses.Mapped, 7],
]);

/** Statuses a processing ends in. */
const ENDS: ReadonlySet<number> = new Set([BuildingFileStatuses.Mapped, BuildingFileStatuses.Error, BuildingFileStatuses.UnknownImportFile]);

/**
 * The statuses seen once `status` is seen at `at`, or null when nothing changes. After an end (Mapped, Error) any
 * other status begins a new processing; during one, a status that goes back is an answer older than the one already
 * seen (a file list read before a `/status` answer but applied after it) and is left out.
 */
export function nextSeen(seen: readonly SeenStatus[], status: number, at: string): SeenStatus[] | null {
  const last = seen.at(-1);
  if (last === undefined) return [{ status, at }];
  if (last.status === status) return null;
  if (ENDS.has(last.status)) return [{ status, at }];
  if (ENDS.has(status)) return [...seen, { status, at }];
  const before = RANK.get(last.status);
  const now = RANK.get(status);
  if (before !== undefined && now !== undefined && now < before) return null;
  return [...seen, { status, at }];
}

/** Notes statuses of files as seen at `at`. Runs inside a transaction over `fileTimelines`, or on its own. */
export async function noteFileStatuses(
  db: CacheDb,
  statuses: readonly { fileId: string; buildingId: string; status: number }[],
  at: string,
): Promise<void> {
  if (statuses.length === 0) return;
  const rows = await db.fileTimelines.bulkGet(statuses.map((each) => each.fileId));
  const writes = statuses.flatMap((each, index) => {
    const seen = nextSeen(rows[index]?.seen ?? [], each.status, at);
    return seen === null ? [] : [{ id: each.fileId, buildingId: each.buildingId, seen }];
  });
  if (writes.length > 0) await db.fileTimelines.bulkPut(writes);
}

/**
 * The statuses a file list tells, for `noteFileStatuses`: a file's listed status unless a `/status` answer read after
 * its last change is cached (the list was then read before it, and the answer is the newer status).
 */
export function listedStatuses(
  buildingId: string,
  files: readonly Pick<BuildingFileResponse, 'id' | 'status' | 'lastModifiedDate'>[],
  answers: readonly (FileStatusRow | undefined)[],
): { fileId: string; buildingId: string; status: number }[] {
  return files.flatMap((file, index) => {
    const answer = answers[index];
    const newer = answer !== undefined && Date.parse(answer.fetchedAt) >= Date.parse(file.lastModifiedDate);
    return newer ? [] : [{ fileId: file.id, buildingId, status: file.status }];
  });
}

/**
 * Notes that an upload of a file ended at `at`: the server took its content, so a new processing begins with
 * Uploaded whatever the file's status was.
 */
export async function noteFileUploaded(db: CacheDb, fileId: string, buildingId: string, at: string): Promise<void> {
  await db.fileTimelines.put({ id: fileId, buildingId, seen: [{ status: BuildingFileStatuses.Uploaded, at }] });
}
