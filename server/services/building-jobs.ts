import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PassportLanguage } from '../../shared/api/routes';
import { BuildingFileStatuses, BuildingFileType } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { enqueueJob } from '../jobs/queue';
import type { DatabaseSchema } from '../store/tables';
import { getBuildingRow } from './buildings';
import { markBuildingDirty } from './building-files';
import { fileNameFromTitle } from './file-names';

/** Schedules recalculation of all data of a building (202; `isDirty` false again means done). */
export async function processBuilding(ctx: ServerContext, principal: Principal, id: string): Promise<void> {
  await getBuildingRow(ctx, principal, id);
  await ctx.db.transaction().execute((trx) => markBuildingDirty(trx, id, ctx.now()));
}

/** A passport format: the file type it becomes and the job that makes it. */
const passportFormats = {
  pdf: { type: BuildingFileType.PassportPdf, extension: 'pdf', job: 'building-passport-pdf', contentType: 'application/pdf' },
  excel: {
    type: BuildingFileType.PassportExcel,
    extension: 'xlsx',
    job: 'building-passport-excel',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
} as const;

/**
 * Schedules a building passport: the passport file exists in Creating as soon as this returns (decisions §3), and the
 * job fills it. Returns the file's id: a new one, or the one of the same passport (building, format and language)
 * still waiting for a worker, which the request joins. So a building has at most one such passport waiting besides
 * the one being made, however often it is asked for: a waiting passport is computed when it starts, so it answers
 * every request made before that as a new one would.
 */
export async function requestBuildingPassport(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  format: PassportFormat,
  language: PassportLanguage,
): Promise<string> {
  const building = await getBuildingRow(ctx, principal, buildingId);
  return ctx.db.transaction().execute(async (trx) => {
    // Requests at the same time must not each find none waiting and each add one.
    await ctx.dialect.lockUntilCommit(trx, `building-passport:${buildingId}`);
    const waiting = await trx
      .selectFrom('jobs')
      .innerJoin('building_files', 'building_files.id', 'jobs.subjectId')
      .select('building_files.id')
      .where('jobs.kind', '=', passportFormats[format].job)
      .where('jobs.state', '=', 'queued')
      .where('building_files.buildingId', '=', buildingId)
      .where('building_files.language', '=', language)
      .executeTakeFirst();
    return waiting?.id ?? scheduleBuildingPassport(trx, ctx.now(), building, format, language);
  });
}

/** A building passport's format. */
export type PassportFormat = keyof typeof passportFormats;

/**
 * Schedules a passport of a building the caller has found in scope (or the server's own work, the demo seed), in the
 * caller's transaction: the passport file and its job are written together.
 */
export async function scheduleBuildingPassport(
  trx: Kysely<DatabaseSchema>,
  now: Date,
  building: { id: string; name: string },
  format: PassportFormat,
  language: PassportLanguage,
): Promise<string> {
  const buildingId = building.id;
  const spec = passportFormats[format];
  const fileId = randomUUID();
  const date = now.toISOString().slice(0, 10);
  await trx
    .insertInto('building_files')
    .values({
      id: fileId,
      buildingId,
      type: spec.type,
      fileName: fileNameFromTitle(building.name, ` - passport - ${date}.${spec.extension}`),
      fileSize: 0,
      status: BuildingFileStatuses.Creating,
      statusMessage: 'Passport generation queued.',
      isActive: 0,
      isDirty: 0,
      lastModifiedDate: now.toISOString(),
      tags: '[]',
      preferredAccountIds: '[]',
      validation: null,
      elementProcessedCount: 0,
      elementCount: 0,
      blobKey: null,
      contentType: spec.contentType,
      language,
      createdAt: now.toISOString(),
      rejectedRows: '[]',
      rejectedCount: 0,
    })
    .execute();
  await enqueueJob(trx, { kind: spec.job, subjectId: fileId, payload: { language } }, now);
  return fileId;
}
