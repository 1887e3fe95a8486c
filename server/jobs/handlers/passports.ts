import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PassThrough, type Writable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { LocalizedText } from '../../../shared/api';
import { BuildingFileStatuses, PortfolioFileStatuses } from '../../../shared/api';
import { notCountedReason } from '../../../shared/counting';
import { countingFacts } from '../../calc/counting';
import { elementMass } from '../../calc/mass';
import type { ServerContext } from '../../context';
import {
  PASSPORT_LANGUAGES,
  type BuildingPassportData,
  type PassportElementRow,
  type PassportImage,
  type PassportLanguage,
  type PortfolioPassportBuilding,
} from '../../passports/passport-data';
import { writePassportPdfInWorker } from '../../passports/pdf-in-worker';
import { writeBuildingPassportExcel } from '../../passports/xlsx';
import { passportScaleLimits, scaleImageInWorker } from '../../images/scaled-image';
import { parseJsonColumn } from '../../store/repositories/json';
import { findBuilding, type BuildingRow } from '../../store/repositories/buildings';
import type { DatabaseSchema } from '../../store/tables';
import { buildingReport, type BuildingReport } from './building-report';
import { setFileStatus } from './file-status';
import type { JobHandler, JobRun } from '../worker';

/** The passport language of a job, English when the payload names none or an unknown one. */
function languageOf(payload: string): PassportLanguage {
  const { language } = JSON.parse(payload) as { language?: string };
  return (PASSPORT_LANGUAGES as readonly string[]).includes(language ?? '') ? (language as PassportLanguage) : 'en';
}

/** A passport's image, or why a stored one was left out. */
type ImageOutcome = { image: PassportImage | null; leftOut?: string };

/** Bytes of a stored image that a passport reads at most: the largest upload of an image (20 MiB). */
const MAX_STORED_IMAGE_BYTES = 20 * 1024 ** 2;

/**
 * A stored image (photo, logo) scaled down for a passport in a worker thread, never decoded in this event loop; none
 * when it is gone, and none with the reason when it is too large or cannot be read (the passport is made without it).
 */
async function storedImage(ctx: ServerContext, blobKey: string): Promise<ImageOutcome> {
  const blob = await ctx.blobs.open(blobKey);
  if (blob === undefined) return { image: null };
  if (blob.size > MAX_STORED_IMAGE_BYTES) {
    blob.stream.destroy();
    return { image: null, leftOut: `it is larger than ${MAX_STORED_IMAGE_BYTES / 1024 ** 2} MiB` };
  }
  const scaled = await scaleImageInWorker(await buffer(blob.stream), passportScaleLimits);
  if (scaled.type === 'refused') return { image: null, leftOut: scaled.message };
  return { image: { bytes: Buffer.from(scaled.png), contentType: 'image/png' } };
}

/** The first stored image of a building, if any. */
async function buildingImage(ctx: ServerContext, building: BuildingRow): Promise<ImageOutcome> {
  const [first] = parseJsonColumn<string[]>(building.images, 'buildings.images');
  return first === undefined ? { image: null } : storedImage(ctx, `buildings/${building.id}/images/${first}`);
}

/** The status message's note on an image left out, or nothing. */
function leftOut(what: string, outcome: ImageOutcome): string {
  return outcome.leftOut === undefined ? '' : `; ${what} was left out: ${outcome.leftOut}`;
}

/** The name of a catalogue item in a language, falling back to English, then to any language it has. */
function localized(text: LocalizedText, language: PassportLanguage): string | null {
  return text[language] ?? text.en ?? Object.values(text).find((value) => value !== undefined) ?? null;
}

/** The element rows of the Excel passport, read from the database a page at a time. */
async function* elementRows(ctx: ServerContext, report: BuildingReport, language: PassportLanguage): AsyncGenerator<PassportElementRow> {
  const names = new Map<string, string | null>();
  const nameOf = async (table: 'materials' | 'products', id: string): Promise<string | null> => {
    const cached = names.get(id);
    if (cached !== undefined || names.has(id)) return cached ?? null;
    const row = await ctx.db.selectFrom(table).select('name').where('id', '=', id).executeTakeFirst();
    const name = row === undefined ? null : localized(parseJsonColumn<LocalizedText>(row.name, `${table}.name`), language);
    names.set(id, name);
    return name;
  };
  const byId = new Map(report.elements.map((element) => [element.id, element]));
  for (const fileId of report.fileIds) {
    let lastId = '';
    for (;;) {
      const page = await ctx.db
        .selectFrom('elements')
        .selectAll()
        .where('buildingFileId', '=', fileId)
        .where('id', '>', lastId)
        .orderBy('id')
        .limit(1000)
        .execute();
      if (page.length === 0) break;
      for (const row of page) {
        const calc = byId.get(row.id);
        yield {
          id: row.id,
          name: row.name,
          elementClass: row.elementClass,
          typeName: row.typeName,
          materialName: row.materialName,
          mappedName: row.mappingId === null ? null : await nameOf(row.mappingType === 10 ? 'materials' : 'products', row.mappingId),
          classificationCode: row.classificationMatchCode,
          brandLayer: row.brandLayerMatchId === null ? null : { id: row.brandLayerMatchId, name: row.brandLayerMatchName ?? '' },
          phase: row.phaseMatchId === null ? null : { id: row.phaseMatchId, name: row.phaseMatchName ?? '' },
          floor: row.floor,
          volume: row.volume,
          area: row.area,
          length: row.length,
          width: row.width,
          height: row.height,
          weight: row.weight,
          mass: calc === undefined ? null : elementMass(calc, report.catalogue) || null,
          notCounted: calc === undefined ? null : notCountedReason(countingFacts(calc, report.catalogue), true),
        };
      }
      lastId = page[page.length - 1]?.id ?? lastId;
    }
  }
}

/** Streams a document into a fresh blob while `write` produces it; answers the key and size. */
async function writeToBlob(ctx: ServerContext, prefix: string, write: (output: Writable) => Promise<void>): Promise<{ blobKey: string; size: number }> {
  const blobKey = `${prefix}/${randomUUID()}`;
  const output = new PassThrough();
  const stored = ctx.blobs.put(blobKey, output, ctx.config.maxUploadBytes);
  try {
    await write(output);
    output.end();
  } catch (error) {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
    await stored.catch(() => undefined);
    throw error;
  }
  const { size } = await stored;
  return { blobKey, size };
}

/**
 * Records a generated document in the job's last transaction; its blob is removed again when the job was stopped or
 * another worker holds it now (then that worker's document counts). Answers what `record` answered, or undefined.
 */
async function recordOnce<T>(
  ctx: ServerContext,
  signal: AbortSignal,
  finish: JobRun['finish'],
  blobKey: string,
  record: (trx: Kysely<DatabaseSchema>) => Promise<T>,
): Promise<T | undefined> {
  if (signal.aborted) {
    await ctx.blobs.delete(blobKey);
    return undefined;
  }
  try {
    return await finish(record);
  } catch (error) {
    await ctx.blobs.delete(blobKey);
    throw error;
  }
}

/** A building passport job: PDF or Excel, by the file type the request created. */
function buildingPassportHandler(format: 'pdf' | 'excel'): JobHandler {
  return {
    async run({ ctx, job, signal, finish }) {
      const file = await ctx.db.selectFrom('building_files').selectAll().where('id', '=', job.subjectId).executeTakeFirst();
      if (file === undefined) return;
      const building = await findBuilding(ctx.db, file.buildingId);
      if (building === undefined) throw new Error(`The building ${file.buildingId} of passport ${file.id} is gone.`);
      const language = languageOf(job.payload);
      await setFileStatus(ctx, file.id, BuildingFileStatuses.Creating, 'Generating the passport: computing the figures.');
      const report = await buildingReport(ctx, building);
      // Only the PDF shows the photo.
      const photo = format === 'pdf' ? await buildingImage(ctx, building) : { image: null };
      const data: Omit<BuildingPassportData, 'elements'> = {
        language,
        generatedAt: ctx.now(),
        building,
        image: photo.image,
        circular: report.circular,
        financial: report.financial,
        validation: report.validation,
        counting: report.counting,
        layers: report.layers,
        families: report.families,
      };
      await setFileStatus(ctx, file.id, BuildingFileStatuses.Creating, 'Generating the passport: writing the document.');
      const stored = await writeToBlob(ctx, `buildings/${building.id}/files/${file.id}`, (output) =>
        format === 'pdf'
          ? writePassportPdfInWorker({ kind: 'building', data }, output, signal)
          : writeBuildingPassportExcel({ ...data, elements: elementRows(ctx, report, language) }, output),
      );
      const previous = await recordOnce(ctx, signal, finish, stored.blobKey, async (trx) => {
        const current = await trx.selectFrom('building_files').select('blobKey').where('id', '=', file.id).executeTakeFirst();
        await trx
          .updateTable('building_files')
          .set({
            status: BuildingFileStatuses.Uploaded,
            statusMessage: `Passport generated (${report.elements.length} elements)${leftOut("the building's image", photo)}.`,
            blobKey: stored.blobKey,
            fileSize: stored.size,
            lastModifiedDate: ctx.now().toISOString(),
          })
          .where('id', '=', file.id)
          .execute();
        return current?.blobKey ?? null;
      });
      if (previous !== null && previous !== undefined) await ctx.blobs.delete(previous);
    },
    async giveUp(ctx, job, message) {
      await setFileStatus(ctx, job.subjectId, BuildingFileStatuses.Error, `The passport could not be generated: ${message}`);
    },
  };
}

/** The building PDF passport job. */
export const buildingPassportPdfHandler = buildingPassportHandler('pdf');
/** The building Excel passport job. */
export const buildingPassportExcelHandler = buildingPassportHandler('excel');

/** The portfolio PDF passport job: every listed building with its figures, computed now. */
export const portfolioPassportHandler: JobHandler = {
  async run({ ctx, job, signal, finish }) {
    const file = await ctx.db.selectFrom('portfolio_files').selectAll().where('id', '=', job.subjectId).executeTakeFirst();
    if (file === undefined) return;
    const portfolio = await ctx.db.selectFrom('portfolios').selectAll().where('id', '=', file.portfolioId).executeTakeFirstOrThrow();
    const { buildingIds = [] } = JSON.parse(job.payload) as { buildingIds?: string[] };
    const buildings: PortfolioPassportBuilding[] = [];
    for (const id of buildingIds) {
      const building = await findBuilding(ctx.db, id);
      // A building deleted since the request is left out.
      if (building === undefined) continue;
      const report = await buildingReport(ctx, building);
      buildings.push({
        name: building.name,
        city: building.addressCity,
        grossSurfaceArea: building.grossSurfaceArea,
        mass: report.mass > 0 ? report.mass : null,
        currentValue: report.financial.currentValue,
        circular: report.circular,
        validation: report.validation,
      });
    }
    const logo = portfolio.logoBlobKey === null ? { image: null } : await storedImage(ctx, portfolio.logoBlobKey);
    const stored = await writeToBlob(ctx, `portfolios/${portfolio.id}/files/${file.id}`, (output) =>
      writePassportPdfInWorker(
        { kind: 'portfolio', data: { language: languageOf(job.payload), generatedAt: ctx.now(), portfolio: { name: portfolio.name, logo: logo.image }, buildings } },
        output,
        signal,
      ),
    );
    await recordOnce(ctx, signal, finish, stored.blobKey, async (trx) => {
      await trx
        .updateTable('portfolio_files')
        .set({
          status: PortfolioFileStatuses.Uploaded,
          statusMessage: `Passport generated (${buildings.length} buildings)${leftOut("the portfolio's logo", logo)}.`,
          blobKey: stored.blobKey,
          fileSize: stored.size,
          contentType: 'application/pdf',
          lastModifiedDate: ctx.now().toISOString(),
        })
        .where('id', '=', file.id)
        .execute();
    });
  },
  async giveUp(ctx, job, message) {
    await ctx.db
      .updateTable('portfolio_files')
      .set({ statusMessage: `The passport could not be generated: ${message}` })
      .where('id', '=', job.subjectId)
      .execute();
  },
};
