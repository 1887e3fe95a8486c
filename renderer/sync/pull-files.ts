/** The pull's building files: each building's list applied whole, answering the files whose elements are due. */
import type { BuildingFileResponse } from '../../shared/api/schemas';
import { applyServerFiles, type ElementsDue } from '../db/apply-pull';
import type { OperationCall } from '../api/call-api';
import { fetchList, progress, type PullRun } from './pull-run';

function isFileListItem(item: Record<string, unknown>): boolean {
  return typeof item['lastModifiedDate'] === 'string' && typeof item['type'] === 'number' && typeof item['status'] === 'number';
}

/** Lists the files of each building; answers the files whose elements are due. */
export async function pullFiles(run: PullRun, buildingIds: readonly string[]): Promise<ElementsDue[]> {
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
