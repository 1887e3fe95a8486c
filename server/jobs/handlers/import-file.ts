import { sql } from 'kysely';
import { BuildingFileStatuses } from '../../../shared/api';
import type { ServerContext } from '../../context';
import { detectSourceFormat } from '../../imports/detect';
import { importIfc } from '../../imports/ifc';
import { UnknownImportFileError, type ImportOutcome, type ImportSink } from '../../imports/imported-element';
import { importSheet } from '../../imports/sheet';
import { enqueueJob } from '../queue';
import { PermanentJobError, type JobHandler, type JobRun } from '../worker';
import { fileProgress, setFileStatus } from './file-status';

/** Rows per insert into the staging table (well under SQLite's bound-parameter limit). */
const stagingBatch = 500;

/** The outcome of an import in one line, for the file's status message. */
export function importSummary(outcome: ImportOutcome): string {
  const rejected = outcome.rejected.length;
  if (rejected === 0) return `${outcome.imported} elements imported.`;
  const shown = outcome.rejected.slice(0, 20).join('; ');
  const more = rejected > 20 ? `; and ${rejected - 20} more` : '';
  return `${outcome.imported} elements imported, ${rejected} rejected: ${shown}${more}.`;
}

/** Reads the source into the staging table with progress; the file's current elements stay as they are. */
async function stageElements(run: JobRun, fileId: string, filePath: string, fileName: string): Promise<ImportOutcome> {
  const { ctx, signal } = run;
  // A rerun after a crash starts from a clean staging area: reading the source again gives the same rows.
  await ctx.db.deleteFrom('staged_elements').where('buildingFileId', '=', fileId).execute();
  const progress = fileProgress(ctx, fileId);
  const sink: ImportSink = {
    elements: async (batch) => {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      for (let first = 0; first < batch.length; first += stagingBatch) {
        const rows = batch.slice(first, first + stagingBatch).map((element) => ({
          ...element,
          buildingFileId: fileId,
          phaseLookup: JSON.stringify(element.phaseLookup),
          classificationLookup: JSON.stringify(element.classificationLookup),
        }));
        // Importers already drop duplicate ids; the conflict clause keeps a rerun of a half-written batch harmless.
        await ctx.db
          .insertInto('staged_elements')
          .values(rows)
          .onConflict((oc) => oc.columns(['buildingFileId', 'id']).doNothing())
          .execute();
      }
    },
    progress: (processed, total) => progress.report(processed, total),
  };
  const format = await detectSourceFormat(filePath, fileName);
  try {
    switch (format) {
      case 'ifc':
        return await importIfc(filePath, sink, { signal });
      case 'xlsx':
      case 'csv':
        return await importSheet(filePath, fileName, sink);
      case undefined:
        throw new UnknownImportFileError(`'${fileName}' is neither an IFC model nor a spreadsheet (.ifc, .xlsx, .csv).`);
    }
  } finally {
    await progress.flush();
  }
}

/**
 * Swaps the staged elements in, in one transaction: the file's elements become the new version's, and elements whose id
 * did not change keep what a user set on them (material, phase and classification lookups; decisions §3).
 */
async function swapInStagedElements(ctx: ServerContext, fileId: string): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const kept = await trx
      .selectFrom('elements')
      .select(['id', 'materialId', 'phaseLookup', 'classificationLookup'])
      .where('buildingFileId', '=', fileId)
      .where('userEdited', '=', 1)
      .execute();
    await trx.deleteFrom('elements').where('buildingFileId', '=', fileId).execute();
    const columns = [
      'buildingFileId', 'id', 'name', 'materialName', 'typeName', 'elementClass', 'volume', 'area', 'height', 'width',
      'length', 'weight', 'phaseLookup', 'classificationLookup', 'floor',
    ] as const;
    await trx
      .insertInto('elements')
      .columns([...columns])
      .expression(trx.selectFrom('staged_elements').select([...columns]).where('buildingFileId', '=', fileId))
      .execute();
    for (const element of kept) {
      await trx
        .updateTable('elements')
        .set({
          materialId: element.materialId,
          phaseLookup: element.phaseLookup,
          classificationLookup: element.classificationLookup,
          userEdited: 1,
        })
        .where('buildingFileId', '=', fileId)
        .where('id', '=', element.id)
        .execute();
    }
    await trx.deleteFrom('staged_elements').where('buildingFileId', '=', fileId).execute();
    const { count } = await trx
      .selectFrom('elements')
      .select(sql<number>`count(*)`.as('count'))
      .where('buildingFileId', '=', fileId)
      .executeTakeFirstOrThrow();
    return Number(count);
  });
}

/** Imports an uploaded source file (IFC or spreadsheet), then schedules its refinement. */
export const importFileHandler: JobHandler = {
  async run(run) {
    const { ctx, job } = run;
    const payload = JSON.parse(job.payload) as { blobKey?: string };
    const file = await ctx.db.selectFrom('building_files').selectAll().where('id', '=', job.subjectId).executeTakeFirst();
    // Deleted, or superseded by a newer upload whose own job will import it.
    if (file === undefined || file.blobKey === null || file.blobKey !== payload.blobKey) return;
    await setFileStatus(ctx, file.id, BuildingFileStatuses.Importing, `Importing: reading ${file.fileName}.`, { processed: 0, total: 0 });
    const local = await ctx.blobs.localFile(file.blobKey);
    if (local === undefined) throw new PermanentJobError('The uploaded content is missing from the blob store; upload the file again.');
    let outcome: ImportOutcome;
    try {
      outcome = await stageElements(run, file.id, local.path, file.fileName);
    } catch (error) {
      if (error instanceof UnknownImportFileError) {
        await ctx.db.deleteFrom('staged_elements').where('buildingFileId', '=', file.id).execute();
        await setFileStatus(ctx, file.id, BuildingFileStatuses.UnknownImportFile, error.message);
        return;
      }
      throw error;
    } finally {
      await local.release();
    }
    if (run.signal.aborted) return;
    const count = await swapInStagedElements(ctx, file.id);
    const now = ctx.now().toISOString();
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('building_files')
        .set({
          status: BuildingFileStatuses.Imported,
          statusMessage: `${importSummary(outcome)} Refinement queued.`,
          elementProcessedCount: count,
          elementCount: count,
          isDirty: 1,
          lastModifiedDate: now,
        })
        .where('id', '=', file.id)
        .execute();
      await trx.updateTable('buildings').set({ mostRecentBimInfo: now, hasDirtyElements: 1, updatedAt: now }).where('id', '=', file.buildingId).execute();
      await enqueueJob(trx, { kind: 'refine-file', subjectId: file.id, payload: { importSummary: importSummary(outcome) } }, ctx.now());
    });
  },
  async giveUp(ctx, job, message) {
    await setFileStatus(ctx, job.subjectId, BuildingFileStatuses.Error, `The import failed: ${message}`);
  },
};
