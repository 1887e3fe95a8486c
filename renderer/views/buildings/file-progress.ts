/**
 * Where a building file is in its processing, from the cache: the status the last file list gave, or a later answer
 * of `/status` (written by the pull and by the building screen while the server works on the file), with the elements
 * processed so far.
 */
import { BuildingFileStatuses, BuildingFileType } from '../../../shared/api/enums';
import type { FileRow, FileStatusRow } from '../../db/schema';
import { dateOf } from '../portfolios/building-format';

/** Statuses of a source file while the server works on it (decisions §3). */
const SOURCE_BUSY: ReadonlySet<number> = new Set<number>([
  BuildingFileStatuses.Uploaded,
  BuildingFileStatuses.Importing,
  BuildingFileStatuses.Imported,
  BuildingFileStatuses.Refining,
  BuildingFileStatuses.Refined,
  BuildingFileStatuses.Mapping,
]);

/**
 * Whether the server is working on a file in this status: a source file between its upload and Mapped (or Error), a
 * passport while it is being generated. An information file and a source file still Creating wait for an upload,
 * which is not the server's work.
 */
export function isBusy(type: number, status: number): boolean {
  if (type === BuildingFileType.PassportPdf || type === BuildingFileType.PassportExcel) return status === BuildingFileStatuses.Creating;
  return type === BuildingFileType.Source && SOURCE_BUSY.has(status);
}

/** A file's latest known status and, while the server works on it, how many of its elements are done. */
export interface LiveStatus {
  status: number;
  busy: boolean;
  processed: number | null;
  total: number | null;
  message: string | null;
}

/**
 * The latest of the list's status and `/status`'s: the latter when it was read after the file's last change, else the
 * file as listed. Counts only show while the file is busy and the server gave a total.
 */
export function liveStatusOf(file: Pick<FileRow, 'type' | 'status' | 'lastModifiedDate'>, status: FileStatusRow | undefined): LiveStatus {
  const fetched = dateOf(status?.fetchedAt)?.getTime();
  const modified = dateOf(file.lastModifiedDate)?.getTime() ?? 0;
  if (status === undefined || fetched === undefined || fetched < modified) {
    return { status: file.status, busy: isBusy(file.type, file.status), processed: null, total: null, message: null };
  }
  const busy = isBusy(file.type, status.status);
  const counted = busy && status.elementCount > 0;
  return {
    status: status.status,
    busy,
    processed: counted ? Math.min(status.elementProcessedCount, status.elementCount) : null,
    total: counted ? status.elementCount : null,
    message: status.statusMessage,
  };
}

/** The share done, 0 to 100; null when there is no total to measure against. */
export function progressPercent(live: LiveStatus): number | null {
  if (live.processed === null || live.total === null || live.total === 0) return null;
  return Math.round((live.processed / live.total) * 100);
}

/**
 * How many elements a file's row shows: those the cache holds once they are the file's current ones (pulled for its
 * last change, with nothing newer heard of it); until then, as a file just mapped whose elements are on their way, the
 * count of the server's status read since that change, when it has settled.
 */
export function shownElementCount(
  file: Pick<FileRow, 'type' | 'status' | 'lastModifiedDate' | 'elementsStamp'>,
  status: FileStatusRow | undefined,
  cached: number,
): number {
  const live = liveStatusOf(file, status);
  const current = file.elementsStamp === file.lastModifiedDate && live.status === file.status;
  if (current || status === undefined || file.type !== BuildingFileType.Source) return cached;
  const heard = dateOf(status.fetchedAt)?.getTime() ?? 0;
  const settled = status.status === BuildingFileStatuses.Mapped && heard >= (dateOf(file.lastModifiedDate)?.getTime() ?? 0);
  return settled ? status.elementCount : cached;
}
