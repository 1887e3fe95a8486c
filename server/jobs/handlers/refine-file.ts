import { BuildingFileStatuses } from '../../../shared/api';
import { validationFigures } from '../../calc/validation';
import type { ServerContext } from '../../context';
import { refineFile } from '../../refine/refine-file';
import { markBuildingDirty, type BuildingFileRow } from '../../services/building-files';
import { fileCountsInFigures } from '../../services/import-report';
import { importReportFigures, type ReportElement } from '../../calc/import-report';
import { catalogueFor, reportElementOf } from './calc-inputs';
import { fileProgress, setFileStatus } from './file-status';
import type { JobHandler } from '../worker';

/**
 * Stores the file's validation figures over its refined elements now (decisions §8) and answers its import report in
 * one line (server/calc/import-report.ts), as it will read once the file is Mapped.
 */
async function storeFileFigures(ctx: ServerContext, file: BuildingFileRow, elements: readonly ReportElement[]): Promise<string> {
  const catalogue = await catalogueFor(ctx, elements);
  const validation = validationFigures(elements, catalogue);
  await ctx.db.updateTable('building_files').set({ validation: JSON.stringify(validation) }).where('id', '=', file.id).execute();
  return importReportFigures(elements, catalogue, fileCountsInFigures({ ...file, status: BuildingFileStatuses.Mapped })).summary;
}

/**
 * Refines a file (classification, brand layer, phase, mapping; decisions §9), computes its validation and moves it to
 * Mapped. An active file makes its building dirty, which schedules the building's recalculation.
 */
export const refineFileHandler: JobHandler = {
  async run({ ctx, job, signal, finish }) {
    const file = await ctx.db.selectFrom('building_files').selectAll().where('id', '=', job.subjectId).executeTakeFirst();
    if (file === undefined) return;
    const payload = JSON.parse(job.payload) as { importSummary?: string };
    await setFileStatus(ctx, file.id, BuildingFileStatuses.Refining, 'Refining: classification, brand layers, phases and mapping.', {
      processed: 0,
      total: file.elementCount,
    });
    const progress = fileProgress(ctx, file.id);
    // The figures take the elements as refinement leaves them, instead of reading the whole file again.
    const refined: ReportElement[] = [];
    await refineFile(
      ctx.db,
      file.id,
      (processed, total) => {
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        progress.report(processed, total);
      },
      { refined: (element) => refined.push(reportElementOf(element)) },
    );
    await progress.flush();
    await setFileStatus(ctx, file.id, BuildingFileStatuses.Mapping, 'Mapping: computing the validation figures.');
    const report = await storeFileFigures(ctx, file, refined);
    const summary = [payload.importSummary, report].filter((part) => part !== undefined).join(' ');
    await finish(async (trx) => {
      await trx
        .updateTable('building_files')
        .set({ status: BuildingFileStatuses.Mapped, statusMessage: summary, isDirty: 0, lastModifiedDate: ctx.now().toISOString() })
        .where('id', '=', file.id)
        .execute();
      if (file.isActive === 1) await markBuildingDirty(trx, file.buildingId, ctx.now());
    });
  },
  async giveUp(ctx, job, message) {
    await setFileStatus(ctx, job.subjectId, BuildingFileStatuses.Error, `The refinement failed: ${message}`);
  },
};
