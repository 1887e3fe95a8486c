import { BuildingFileStatuses } from '../../../shared/api';
import { importReportFigures, type ReportElement } from '../../calc/import-report';
import type { CalcCatalogue } from '../../calc/inputs';
import { validationFigures } from '../../calc/validation';
import type { ServerContext } from '../../context';
import { markBuildingDirty } from '../../services/building-files';
import { fileCountsInFigures } from '../../services/import-report';

/**
 * The last step of a file's processing, in the caller's transaction (`ctx.db`): the file's validation figures over its
 * refined elements and the catalogue items they reach (decisions §8), its outcome in one line as its import report
 * will read once the file is Mapped (after `importSummary`, when an import came first), status Mapped, and an active
 * file's building made dirty, which schedules the building's recalculation. Does nothing for a file deleted meanwhile.
 */
export async function markFileMapped(
  ctx: ServerContext,
  fileId: string,
  { elements, catalogue }: { elements: readonly ReportElement[]; catalogue: CalcCatalogue },
  importSummary: string | undefined,
): Promise<void> {
  const file = await ctx.db
    .selectFrom('building_files')
    .select(['type', 'isActive', 'buildingId'])
    .where('id', '=', fileId)
    .executeTakeFirst();
  if (file === undefined) return;
  const validation = validationFigures(elements, catalogue);
  const report = importReportFigures(elements, catalogue, fileCountsInFigures({ ...file, status: BuildingFileStatuses.Mapped }));
  await ctx.db
    .updateTable('building_files')
    .set({
      status: BuildingFileStatuses.Mapped,
      statusMessage: [importSummary, report.summary].filter((part) => part !== undefined).join(' '),
      validation: JSON.stringify(validation),
      isDirty: 0,
      lastModifiedDate: ctx.now().toISOString(),
    })
    .where('id', '=', fileId)
    .execute();
  if (file.isActive === 1) await markBuildingDirty(ctx.db, file.buildingId, ctx.now());
}
