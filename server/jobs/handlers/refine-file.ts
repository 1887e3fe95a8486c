import { BuildingFileStatuses } from '../../../shared/api';
import type { ReportElement } from '../../calc/import-report';
import { refineFile } from '../../refine/refine-file';
import { catalogueFor, reportElementOf } from './calc-inputs';
import { markFileMapped } from './file-mapped';
import { fileProgress, setFileStatus } from './file-status';
import type { JobHandler } from '../worker';

/**
 * Refines a file (classification, brand layer, phase, mapping; decisions §9), computes its validation and moves it to
 * Mapped: the refinement a client asks for (`startrefinement`) after writing a file's elements through the API. An
 * upload's import refines as it reads (import-file.ts).
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
    const figuresInput = { elements: refined, catalogue: await catalogueFor(ctx, refined) };
    await finish((trx) => markFileMapped({ ...ctx, db: trx }, file.id, figuresInput, payload.importSummary));
  },
  async giveUp(ctx, job, message) {
    await setFileStatus(ctx, job.subjectId, BuildingFileStatuses.Error, `The refinement failed: ${message}`);
  },
};
