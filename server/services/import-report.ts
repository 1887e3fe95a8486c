import type { BuildingFileImportReport, ImportPartsFindings } from '../../shared/api';
import { BuildingFileStatuses, BuildingFileType } from '../../shared/api';
import type { Principal } from '../auth/principal';
import { importReportFigures } from '../calc/import-report';
import type { ServerContext } from '../context';
import { NO_PARTS } from '../imports/imported-element';
import { fileElementsForCalc } from '../jobs/handlers/calc-inputs';
import { parseJsonColumn } from '../store/repositories/json';
import { getBuildingFileRow, type BuildingFileRow } from './building-files';

/** Whether a file's elements count in its building's figures: an active source file that is Mapped (decisions §6). */
export function fileCountsInFigures(file: Pick<BuildingFileRow, 'type' | 'status' | 'isActive'>): boolean {
  return file.type === BuildingFileType.Source && file.status === BuildingFileStatuses.Mapped && file.isActive === 1;
}

/** The import report of a file row (server/calc/import-report.ts), over its elements as they are now. */
export async function fileImportReport(ctx: ServerContext, file: BuildingFileRow): Promise<BuildingFileImportReport> {
  const { elements, catalogue } = await fileElementsForCalc(ctx, [file.id]);
  const { counting: _counting, summaryData: _summaryData, ...figures } = importReportFigures(elements, catalogue, fileCountsInFigures(file));
  return {
    buildingFileId: file.id,
    status: file.status as BuildingFileImportReport['status'],
    isActive: file.isActive === 1,
    ...figures,
    rejected: { count: file.rejectedCount, rows: JSON.parse(file.rejectedRows) as string[] },
    parts: file.partFindings === null ? { ...NO_PARTS } : parseJsonColumn<ImportPartsFindings>(file.partFindings, 'building_files.partFindings'),
  };
}

/** The import report of a building file in the key's scope, else 404. */
export async function getBuildingFileImportReport(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  fileId: string,
): Promise<BuildingFileImportReport> {
  return fileImportReport(ctx, await getBuildingFileRow(ctx, principal, buildingId, fileId));
}
