import { BuildingFileStatuses } from '../../../shared/api';
import { validationFigures } from '../../calc/validation';
import type { ServerContext } from '../../context';
import { refineFile } from '../../refine/refine-file';
import { markBuildingDirty } from '../../services/building-files';
import { fileElementsForCalc } from './calc-inputs';
import { fileProgress, setFileStatus } from './file-status';
import type { JobHandler } from '../worker';

/** The refinement outcome in one line, for the file's status message. */
function refineSummary(outcome: { mapped: number; unmapped: number; classified: number }): string {
  const total = outcome.mapped + outcome.unmapped;
  return `${outcome.mapped} of ${total} elements mapped to materials or products, ${outcome.classified} classified.`;
}

/** The file's validation figures over its elements now (decisions §8), stored on the file. */
async function storeFileValidation(ctx: ServerContext, fileId: string): Promise<void> {
  const { elements, catalogue } = await fileElementsForCalc(ctx, [fileId]);
  const validation = validationFigures(elements, catalogue);
  await ctx.db.updateTable('building_files').set({ validation: JSON.stringify(validation) }).where('id', '=', fileId).execute();
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
    const outcome = await refineFile(ctx.db, file.id, (processed, total) => {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      progress.report(processed, total);
    });
    await progress.flush();
    await setFileStatus(ctx, file.id, BuildingFileStatuses.Mapping, 'Mapping: computing the validation figures.');
    await storeFileValidation(ctx, file.id);
    const summary = [payload.importSummary, refineSummary(outcome)].filter((part) => part !== undefined).join(' ');
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
