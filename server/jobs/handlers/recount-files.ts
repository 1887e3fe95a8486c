import { BuildingFileStatuses, BuildingFileType } from '../../../shared/api';
import { withReportSummary, type ReportSummary } from '../../../shared/status-messages';
import { importReportFigures } from '../../calc/import-report';
import { markBuildingDirty } from '../../services/building-files';
import { fileCountsInFigures } from '../../services/import-report';
import type { ServerContext } from '../../context';
import { fileElementsForCalc } from './calc-inputs';
import type { JobHandler } from '../worker';

/** The item and every product that holds it, at any depth: what an element mapped to any of them reaches. */
async function itemsReaching(ctx: ServerContext, itemId: string): Promise<string[]> {
  const found = new Set([itemId]);
  let frontier = [itemId];
  while (frontier.length > 0) {
    const parents = await ctx.db.selectFrom('product_children').select('productId').distinct().where('childId', 'in', frontier).execute();
    frontier = parents.map((row) => row.productId).filter((id) => !found.has(id));
    for (const id of frontier) found.add(id);
  }
  return [...found];
}

/** The Mapped source files with an element mapped to one of `itemIds`. */
async function filesMappedTo(ctx: ServerContext, itemIds: readonly string[]) {
  return ctx.db
    .selectFrom('building_files')
    .select(['id', 'buildingId', 'type', 'status', 'isActive'])
    .where('type', '=', BuildingFileType.Source)
    .where('status', '=', BuildingFileStatuses.Mapped)
    .where('id', 'in', ctx.db.selectFrom('elements').select('buildingFileId').where('mappingId', 'in', itemIds))
    .execute();
}

/**
 * Counts again the files whose elements reach a changed catalogue item (services/catalogue-recount.ts): each Mapped
 * source file's status message gets the summary of its elements as the catalogue is now, and an active one's building
 * is recalculated, so the file row, the import report, the dashboard and a passport say the same again. A file that
 * moved on meanwhile (refined again) is left to its own summary.
 */
export const recountFilesHandler: JobHandler = {
  async run({ ctx, job, signal, finish }) {
    const files = await filesMappedTo(ctx, await itemsReaching(ctx, job.subjectId));
    const summaries: { file: (typeof files)[number]; summary: ReportSummary }[] = [];
    for (const file of files) {
      if (signal.aborted) return;
      const { elements, catalogue } = await fileElementsForCalc(ctx, [file.id]);
      summaries.push({ file, summary: importReportFigures(elements, catalogue, fileCountsInFigures(file)).summaryData });
    }
    await finish(async (trx) => {
      for (const { file, summary } of summaries) {
        const row = await trx.selectFrom('building_files').select(['statusMessage', 'status']).where('id', '=', file.id).executeTakeFirst();
        if (row?.status !== BuildingFileStatuses.Mapped) continue;
        await trx.updateTable('building_files').set({ statusMessage: withReportSummary(row.statusMessage, summary) }).where('id', '=', file.id).execute();
        if (file.isActive === 1) await markBuildingDirty(trx, file.buildingId, ctx.now());
      }
    });
  },
  async giveUp(ctx, job, message) {
    // The files keep the summaries they had: a later change of the item, or a refinement, counts them again.
    await ctx.db.updateTable('jobs').set({ lastError: `Recount failed: ${message}` }).where('id', '=', job.id).execute();
  },
};
