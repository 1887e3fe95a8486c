import { randomUUID } from 'node:crypto';
import type { PassportLanguage } from '../../shared/api/routes';
import { BuildingFileStatuses, BuildingFileType } from '../../shared/api';
import type { Principal } from '../auth/principal';
import type { ServerContext } from '../context';
import { enqueueJob } from '../jobs/queue';
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
 * job fills it. Returns the new file's id.
 */
export async function requestBuildingPassport(
  ctx: ServerContext,
  principal: Principal,
  buildingId: string,
  format: keyof typeof passportFormats,
  language: PassportLanguage,
): Promise<string> {
  const building = await getBuildingRow(ctx, principal, buildingId);
  const spec = passportFormats[format];
  const now = ctx.now();
  const fileId = randomUUID();
  const date = now.toISOString().slice(0, 10);
  await ctx.db.transaction().execute(async (trx) => {
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
      })
      .execute();
    await enqueueJob(trx, { kind: spec.job, subjectId: fileId, payload: { language } }, now);
  });
  return fileId;
}
