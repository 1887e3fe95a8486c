/**
 * The source files of the active connection whose import failed, read from the cache with their latest known status:
 * the Activity screen lists them under "Needs you", since only the user can fix the file or upload a better one.
 */
import { BuildingFileType } from '../../../shared/api/enums';
import type { CacheDb } from '../../db/cache-db';
import { liveStatusOf } from '../buildings/file-progress';
import { isFailure } from '../buildings/file-timeline';

/** A source file whose import failed, and the building that holds it. */
export interface FailedImport {
  fileId: string;
  buildingId: string;
  fileName: string;
}

/** Every failed source file in the cache, by file name. */
export async function failedImports(db: CacheDb): Promise<FailedImport[]> {
  const [files, statuses] = await Promise.all([db.files.toArray(), db.fileStatuses.toArray()]);
  const statusOf = new Map(statuses.map((status) => [status.id, status]));
  return files
    .filter((file) => file.type === BuildingFileType.Source && isFailure(liveStatusOf(file, statusOf.get(file.id)).status))
    .map((file) => ({ fileId: file.id, buildingId: file.buildingId, fileName: file.fileName ?? file.id }))
    .sort((a, b) => a.fileName.localeCompare(b.fileName));
}
