import { sql, type Kysely } from 'kysely';
import { BuildingFileStatuses, USER_FIELDS, type UserField } from '../../../shared/api';
import { formatImportSummary, shownRejectedRows } from '../../../shared/status-messages';
import { detectSourceFormat } from '../../imports/detect';
import { importIfc } from '../../imports/ifc';
import { ImportTooLargeError, NO_PARTS, quantitySourceOf, UnknownImportFileError, type ImportOutcome, type ImportSink } from '../../imports/imported-element';
import { importSheetInWorker } from '../../imports/sheet';
import { diskBudgetFor, type ImportBudget } from '../../imports/import-worker';
import { createImportTempFolder } from '../../imports/import-temp';
import type { DatabaseSchema } from '../../store/tables';
import { FileRefinement } from '../../refine/refine-file';
import { PermanentJobError, type JobHandler, type JobRun } from '../worker';
import { catalogueFor, reportElementOf } from './calc-inputs';
import { markFileMapped } from './file-mapped';
import { ReportElementColumns } from './report-element-columns';
import { STAGED_COLUMNS, STAGED_ROWS_PER_INSERT, stageElementBatch } from './staged-elements';
import { fileProgress, setFileStatus } from './file-status';
import type { ElementRow } from '../../services/elements';
import { keepInNewVersion, readUserFields, userEditedFlag, userFieldsColumn, type UserFieldColumns } from '../../services/user-fields';

/** Elements from which an import refreshes the database's statistics of the elements table. */
const largeImport = 1_000;

/** Rejected rows whose reasons the import report keeps; the count is kept for all of them. */
const rejectedRowsKept = 1_000;

/** The outcome of an import in one line, for the file's status message. */
export function importSummary(outcome: ImportOutcome): string {
  return formatImportSummary(outcome.imported, outcome.rejected.length, outcome.rejected.slice(0, shownRejectedRows));
}

/**
 * Reads the source into the staging table with progress, each element refined as it is read and what the file's
 * figures read of it added to `report`; the file's current elements stay as they are.
 */
async function stageElements(
  run: JobRun,
  source: { fileId: string; filePath: string; fileName: string },
  budget: ImportBudget,
  refinement: FileRefinement,
  report: ReportElementColumns,
): Promise<ImportOutcome> {
  const { ctx, signal } = run;
  const { fileId, filePath, fileName } = source;
  // A rerun after a crash starts from a clean staging area: reading the source again gives the same rows.
  await ctx.db.deleteFrom('staged_elements').where('buildingFileId', '=', fileId).execute();
  const progress = fileProgress(ctx, fileId);
  const sink: ImportSink = {
    elements: async (batch) => {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      for (let first = 0; first < batch.length; first += STAGED_ROWS_PER_INSERT) {
        await stageElementBatch(ctx.db, fileId, batch.slice(first, first + STAGED_ROWS_PER_INSERT), refinement, report);
      }
    },
    progress: (processed, total) => progress.report(processed, total),
  };
  const format = await detectSourceFormat(filePath, fileName);
  try {
    switch (format) {
      case 'ifc':
        return await importIfc(filePath, sink, { signal, budget });
      case 'xlsx':
      case 'csv':
        return await importSheetInWorker(filePath, fileName, sink, { signal, budget });
      case undefined:
        throw new UnknownImportFileError(`'${fileName}' is neither an IFC model nor a spreadsheet (.ifc, .xlsx, .csv).`);
    }
  } finally {
    await progress.flush();
  }
}

/** What a swap did to the elements a user had edited, created or deleted. */
interface SwapOutcome {
  /** How many elements the file has now. */
  count: number;
  /** The elements that kept something a user set: to be refined again. */
  keptIds: string[];
  /** The ids of the model elements users deleted, left out again where the new version has them. */
  deletedIds: string[];
}

/**
 * Swaps the staged elements in, inside the caller's transaction: the file's elements become the new version's, and
 * what users set stays (decisions §3, server/services/user-fields.ts): an element whose id is unchanged keeps each
 * field a user set, noting where the model changed it since; an element a user created is kept where the new version
 * lacks it; a model element a user deleted stays deleted; an edited element the new version lacks goes and is recorded
 * as such. Most imports have no user's edits: then this is a delete, one INSERT … SELECT and one look for deletions.
 */
async function swapInStagedElements(trx: Kysely<DatabaseSchema>, fileId: string): Promise<SwapOutcome> {
  const edited = await trx.selectFrom('elements').selectAll().where('buildingFileId', '=', fileId).where('userEdited', '=', 1).execute();
  const modelValues = await stagedUserFields(trx, fileId, edited.map((element) => element.id));
  await trx.deleteFrom('elements').where('buildingFileId', '=', fileId).execute();
  await trx
    .insertInto('elements')
    .columns([...STAGED_COLUMNS])
    .expression(trx.selectFrom('staged_elements').select([...STAGED_COLUMNS]).where('buildingFileId', '=', fileId))
    .execute();
  const deletedIds = (await trx.selectFrom('deleted_elements').select('id').where('buildingFileId', '=', fileId).execute()).map((row) => row.id);
  if (deletedIds.length > 0) {
    await trx
      .deleteFrom('elements')
      .where('buildingFileId', '=', fileId)
      .where('id', 'in', trx.selectFrom('deleted_elements').select('id').where('buildingFileId', '=', fileId))
      .execute();
  }
  const keptIds: string[] = [];
  const removed: { id: string; name: string | null }[] = [];
  for (const element of edited) {
    const model = modelValues.get(element.id);
    if (model !== undefined) {
      const kept = keepInNewVersion(readUserFields(element.userFields), element, model);
      await trx
        .updateTable('elements')
        .set({
          ...kept.columns,
          quantitySource: quantitySourceAfter(kept.columns, model),
          userFields: userFieldsColumn(kept.userFields),
          userEdited: userEditedFlag(kept.userFields, false),
          // In the model now: from here on it follows the model where the user set nothing.
          userCreated: 0,
        })
        .where('buildingFileId', '=', fileId)
        .where('id', '=', element.id)
        .execute();
      keptIds.push(element.id);
    } else if (element.userCreated === 1) {
      await trx.insertInto('elements').values(element).execute();
      keptIds.push(element.id);
    } else {
      removed.push({ id: element.id, name: element.name });
    }
  }
  await trx.deleteFrom('removed_edited_elements').where('buildingFileId', '=', fileId).execute();
  for (let first = 0; first < removed.length; first += STAGED_ROWS_PER_INSERT) {
    await trx
      .insertInto('removed_edited_elements')
      .values(removed.slice(first, first + STAGED_ROWS_PER_INSERT).map((element) => ({ buildingFileId: fileId, ...element })))
      .execute();
  }
  await trx.deleteFrom('staged_elements').where('buildingFileId', '=', fileId).execute();
  const { count } = await trx
    .selectFrom('elements')
    .select(sql<number>`count(*)`.as('count'))
    .where('buildingFileId', '=', fileId)
    .executeTakeFirstOrThrow();
  return { count: Number(count), keptIds, deletedIds };
}

/** The user fields the model gives: those the staging table has (the others, such as `materialId`, the model gives none of). */
const MODEL_FIELDS = USER_FIELDS.filter((field): field is UserField & (typeof STAGED_COLUMNS)[number] =>
  (STAGED_COLUMNS as readonly string[]).includes(field),
);

/** What a new version's element gives of what users set, and where its volume or weight came from. */
type ModelElement = UserFieldColumns & Pick<ElementRow, 'quantitySource'>;

/** A staged element's user fields and quantity source, by id, for the ids given; ids the new version lacks are absent. */
async function stagedUserFields(
  trx: Kysely<DatabaseSchema>,
  fileId: string,
  ids: readonly string[],
): Promise<Map<string, ModelElement>> {
  const found = new Map<string, ModelElement>();
  for (let first = 0; first < ids.length; first += STAGED_ROWS_PER_INSERT) {
    const rows = await trx
      .selectFrom('staged_elements')
      .select(['id', 'quantitySource', ...MODEL_FIELDS])
      .where('buildingFileId', '=', fileId)
      .where('id', 'in', ids.slice(first, first + STAGED_ROWS_PER_INSERT))
      .execute();
    for (const row of rows) {
      const values = Object.fromEntries(USER_FIELDS.map((field) => [field, null])) as unknown as UserFieldColumns;
      found.set(row.id, { ...values, ...row });
    }
  }
  return found;
}

/** Where an element's volume or weight comes from once a user's volume or weight is kept over the model's. */
function quantitySourceAfter(kept: Partial<UserFieldColumns>, model: ModelElement): ElementRow['quantitySource'] {
  if (!('volume' in kept) && !('weight' in kept)) return model.quantitySource;
  const volume = kept.volume === undefined ? model.volume : kept.volume;
  const weight = kept.weight === undefined ? model.weight : kept.weight;
  // The model's volume from the geometry stays so, unless a weight of the user's now gives the mass.
  if (!('volume' in kept) && model.quantitySource === 'geometry' && !((weight ?? 0) > 0)) return 'geometry';
  return quantitySourceOf(volume, weight);
}

/**
 * Imports an uploaded source file (IFC or spreadsheet), refining each element as it is read, and swaps the new version
 * in and moves the file to Mapped in one transaction: a file passes from Importing to Mapped in one step.
 */
export const importFileHandler: JobHandler = {
  async run(run) {
    const { ctx, job } = run;
    const payload = JSON.parse(job.payload) as { blobKey?: string };
    const file = await ctx.db.selectFrom('building_files').selectAll().where('id', '=', job.subjectId).executeTakeFirst();
    // Deleted, or superseded by a newer upload whose own job will import it.
    if (file === undefined || file.blobKey === null || file.blobKey !== payload.blobKey) return;
    await setFileStatus(ctx, file.id, BuildingFileStatuses.Importing, `Importing: reading ${file.fileName}.`, { processed: 0, total: 0 });
    const refinement = await FileRefinement.load(ctx.db, file.id);
    const report = new ReportElementColumns();
    let outcome: ImportOutcome;
    // Every temporary file of the import is in this folder, removed however the import ends (a killed process's at the
    // next start, server.ts).
    const temp = await createImportTempFolder(ctx.config.importTempDir);
    try {
      const local = await ctx.blobs.localFile(file.blobKey, temp.path);
      if (local === undefined) throw new PermanentJobError('The uploaded content is missing from the blob store; upload the file again.');
      const budget: ImportBudget = { tempFolder: temp.path, diskBytes: diskBudgetFor(file.fileSize), timeMs: ctx.config.importTimeLimitMs };
      try {
        outcome = await stageElements(run, { fileId: file.id, filePath: local.path, fileName: file.fileName }, budget, refinement, report);
      } finally {
        await local.release();
      }
    } catch (error) {
      // Retrying cannot lift a limit (memory, a workbook's sizes, disk, time): the file ends in Error with it at once.
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
      await temp.remove();
    }
    if (run.signal.aborted) return;
    const count = await run.finish(async (trx) => {
      const swapped = await swapInStagedElements(trx, file.id);
      report.remove(swapped.deletedIds);
      report.replace((await refinement.refineById(trx, swapped.keptIds)).map(reportElementOf));
      const now = ctx.now().toISOString();
      await trx
        .updateTable('building_files')
        .set({
          elementProcessedCount: swapped.count,
          elementCount: swapped.count,
          rejectedRows: JSON.stringify(outcome.rejected.slice(0, rejectedRowsKept)),
          rejectedCount: outcome.rejected.length,
          partFindings: JSON.stringify(outcome.parts ?? NO_PARTS),
        })
        .where('id', '=', file.id)
        .execute();
      await trx.updateTable('buildings').set({ mostRecentBimInfo: now, hasDirtyElements: 1, updatedAt: now }).where('id', '=', file.buildingId).execute();
      const elements = report.toElements();
      await markFileMapped({ ...ctx, db: trx }, file.id, { elements, catalogue: await catalogueFor({ db: trx }, elements) }, importSummary(outcome));
      return swapped.count;
    });
    // Statistics only speed reads up (the database's own autovacuum refreshes them too): a failure costs nothing here.
    if (count >= largeImport) await ctx.dialect.refreshStatistics(ctx.db, 'elements').catch(() => undefined);
  },
  async giveUp(ctx, job, message) {
    await setFileStatus(ctx, job.subjectId, BuildingFileStatuses.Error, `The import failed: ${message}`);
  },
};
