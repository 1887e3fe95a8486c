import { sql, type Kysely } from 'kysely';
import { BuildingFileStatuses } from '../../../shared/api';
import { formatImportSummary, shownRejectedRows } from '../../../shared/status-messages';
import { detectSourceFormat } from '../../imports/detect';
import { importIfc } from '../../imports/ifc';
import { UnknownImportFileError, type ImportOutcome, type ImportSink } from '../../imports/imported-element';
import { importSheetInWorker } from '../../imports/sheet';
import { ImportTooLargeError } from '../../imports/import-worker';
import type { DatabaseSchema } from '../../store/tables';
import { enqueueJob } from '../queue';
import { PermanentJobError, type JobHandler, type JobRun } from '../worker';
import { fileProgress, setFileStatus } from './file-status';

/** Rows per insert into the staging table (well under SQLite's bound-parameter limit). */
const stagingBatch = 500;

/** Elements from which an import refreshes the database's statistics of the elements table. */
const largeImport = 1_000;

/** Rejected rows whose reasons the import report keeps; the count is kept for all of them. */
const rejectedRowsKept = 1_000;

/** The outcome of an import in one line, for the file's status message. */
export function importSummary(outcome: ImportOutcome): string {
  return formatImportSummary(outcome.imported, outcome.rejected.length, outcome.rejected.slice(0, shownRejectedRows));
}

/**
 * The element with U+0000 removed from its texts: a source file may encode it (IFC `\X2\0000\X0\`, a spreadsheet
 * cell), and no stored text may hold it (PostgreSQL cannot).
 */
function withoutNul<T extends object>(element: T): T {
  // Almost no element holds one: copy only those that do (this runs for every element of every import).
  let copy: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(element)) {
    if (typeof value === 'string' && value.includes('\0')) {
      copy ??= { ...element } as Record<string, unknown>;
      copy[name] = value.replaceAll('\0', '');
    }
  }
  return (copy ?? element) as T;
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
          ...withoutNul(element),
          buildingFileId: fileId,
          phaseLookup: JSON.stringify(element.phaseLookup),
          classificationLookup: JSON.stringify(element.classificationLookup),
          classificationHints: JSON.stringify(element.classificationHints),
          materialHints: JSON.stringify(element.materialHints),
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
        return await importSheetInWorker(filePath, fileName, sink, { signal });
      case undefined:
        throw new UnknownImportFileError(`'${fileName}' is neither an IFC model nor a spreadsheet (.ifc, .xlsx, .csv).`);
    }
  } finally {
    await progress.flush();
  }
}

/**
 * Swaps the staged elements in, inside the caller's transaction: the file's elements become the new version's, and
 * elements whose id did not change keep what a user set on them (material, phase and classification lookups; decisions §3).
 */
async function swapInStagedElements(trx: Kysely<DatabaseSchema>, fileId: string): Promise<number> {
  const kept = await trx
    .selectFrom('elements')
    .select(['id', 'materialId', 'phaseLookup', 'classificationLookup'])
    .where('buildingFileId', '=', fileId)
    .where('userEdited', '=', 1)
    .execute();
  await trx.deleteFrom('elements').where('buildingFileId', '=', fileId).execute();
  const columns = [
    'buildingFileId', 'id', 'name', 'materialName', 'typeName', 'elementClass', 'volume', 'area', 'height', 'width',
    'length', 'weight', 'phaseLookup', 'classificationLookup', 'floor', 'classificationHints', 'materialHints', 'quantitySource',
    'geometryIssue',
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
      // Retrying cannot give a file more memory: the file ends in Error with the reason at once.
      if (error instanceof ImportTooLargeError) throw new PermanentJobError(error.message);
      if (error instanceof UnknownImportFileError) {
        const message = error.message;
        await run.finish(async (trx) => {
          await trx.deleteFrom('staged_elements').where('buildingFileId', '=', file.id).execute();
          await setFileStatus({ ...ctx, db: trx }, file.id, BuildingFileStatuses.UnknownImportFile, message);
        });
        return;
      }
      throw error;
    } finally {
      await local.release();
    }
    if (run.signal.aborted) return;
    const count = await run.finish(async (trx) => {
      const swapped = await swapInStagedElements(trx, file.id);
      const now = ctx.now().toISOString();
      await trx
        .updateTable('building_files')
        .set({
          status: BuildingFileStatuses.Imported,
          statusMessage: `${importSummary(outcome)} Refinement queued.`,
          elementProcessedCount: swapped,
          elementCount: swapped,
          rejectedRows: JSON.stringify(outcome.rejected.slice(0, rejectedRowsKept)),
          rejectedCount: outcome.rejected.length,
          isDirty: 1,
          lastModifiedDate: now,
        })
        .where('id', '=', file.id)
        .execute();
      await trx.updateTable('buildings').set({ mostRecentBimInfo: now, hasDirtyElements: 1, updatedAt: now }).where('id', '=', file.buildingId).execute();
      await enqueueJob(trx, { kind: 'refine-file', subjectId: file.id, payload: { importSummary: importSummary(outcome) } }, ctx.now());
      return swapped;
    });
    // Statistics only speed reads up (the database's own autovacuum refreshes them too): a failure costs nothing here.
    if (count >= largeImport) await ctx.dialect.refreshStatistics(ctx.db, 'elements').catch(() => undefined);
  },
  async giveUp(ctx, job, message) {
    await setFileStatus(ctx, job.subjectId, BuildingFileStatuses.Error, `The import failed: ${message}`);
  },
};
