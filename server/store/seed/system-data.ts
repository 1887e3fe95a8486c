import { createHash } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { ClassificationCodesTable, DatabaseSchema, MaterialsTable } from '../tables';
import nlSfbJson from '../../../shared/nl-sfb.json' with { type: 'json' };
import platformMaterialsJson from './platform-materials.json' with { type: 'json' };

/** A text in the six languages the API knows, in the order the API documents them. */
export interface LocalizedText {
  nl: string;
  en: string;
  de: string;
  it: string;
  fr: string;
  es: string;
}

/** MaterialCircularInformation as it travels and is stored; null where the source gives no figure. */
export interface MaterialCircularSeed {
  recycledPercentageFeedstock: number | null;
  rapidRenewablesPercentageFeedstock: number | null;
  virginPercentageFeedstock: number | null;
  recycledPercentageEndOfLife: number | null;
  landfillPercentageEndOfLife: number | null;
  incinerationPercentageEndOfLife: number | null;
  efficiencyPercentageRecyclingFeedstock: number | null;
  efficiencyPercentageRecyclingEndOfLife: number | null;
}

/** MaterialFinancialInformation as it travels and is stored. */
export interface MaterialFinancialSeed {
  importType: number;
  priceSetId: string | null;
  transportCosts: number | null;
  handlingFeedstockEuroKg: number | null;
  handlingFeedstockPercentage: number | null;
}

/** A MaterialMatch rule. */
export interface MaterialMatchSeed {
  value: string;
  matchType: number;
}

/** A MaterialFinancialValue plus where the figure comes from (kept in the data file only, not stored). */
export interface MaterialFinancialValueSeed {
  value: number;
  valueDate: string;
  currency: string;
  unit: number;
  priceSource: string;
}

/** One material of the platform's own database, with its matches and prices. */
export interface PlatformMaterialSeed {
  id: string;
  name: LocalizedText;
  elementFamily: string | null;
  description: LocalizedText;
  supplier: string | null;
  specificWeight: number | null;
  lifeTime: number | null;
  circular: MaterialCircularSeed;
  financial: MaterialFinancialSeed;
  matches: MaterialMatchSeed[];
  financialValues: MaterialFinancialValueSeed[];
}

/** Content of `platform-materials.json`. */
export interface PlatformMaterialsData {
  source: string;
  notes: string[];
  materials: PlatformMaterialSeed[];
}

/** A classification method as GET /system/classificationmethods lists it. */
export interface ClassificationMethodSeed {
  id: string;
  name: LocalizedText;
  classificationTypeId: string;
  classificationLevelTypeId: string;
}

/** One code of a classification method; `parentCode` is the next coarser code that exists. */
export interface ClassificationCodeSeed {
  code: string;
  parentCode: string | null;
  name: string;
}

/** Content of `nl-sfb.json`. */
export interface ClassificationData {
  source: string;
  notes: string[];
  method: ClassificationMethodSeed;
  codes: ClassificationCodeSeed[];
}

/** Everything `seedSystemData` writes. */
export interface SystemSeedData {
  platformMaterials: PlatformMaterialsData;
  nlSfb: ClassificationData;
}

/** The seed data committed with this release. */
export const committedSeedData: SystemSeedData = { platformMaterials: platformMaterialsJson, nlSfb: nlSfbJson };

/** Id of the built-in VerifiedDatabase account that owns the platform's own materials. */
export const PLATFORM_DATABASE_ACCOUNT_ID = 'ed3641bd-3f47-4d98-9cc8-2c7741d261d6';

/** Id of the NL-SfB classification method, the only `classificationType` a building accepts. */
export const NL_SFB_METHOD_ID: string = committedSeedData.nlSfb.method.id;

const PLATFORM_DATABASE_NAME = 'Platform materials';
const VERIFIED_DATABASE_ACCOUNT_TYPE = 1;

type SeedDataset = 'platform-materials' | 'nl-sfb';

// Kept well under SQLite's and PostgreSQL's limits on bound parameters per statement.
const ROWS_PER_INSERT = 500;

/** Creates or updates the platform material database and the NL-SfB method to match `data`, in one transaction. */
export async function seedSystemData(
  db: Kysely<DatabaseSchema>,
  data: SystemSeedData = committedSeedData,
): Promise<void> {
  // Each data set is versioned by its content, so a start with this release's data already in place costs one read.
  const wanted = new Map<SeedDataset, string>([
    ['platform-materials', dataVersion({ accountName: PLATFORM_DATABASE_NAME, data: data.platformMaterials })],
    ['nl-sfb', dataVersion(data.nlSfb)],
  ]);
  const applied = await db.selectFrom('seed_versions').select(['dataset', 'version']).execute();
  const appliedVersions = new Map(applied.map((row) => [row.dataset, row.version]));
  const stale = [...wanted].filter(([dataset, version]) => appliedVersions.get(dataset) !== version);
  if (stale.length === 0) {
    return;
  }

  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    for (const [dataset, version] of stale) {
      if (dataset === 'platform-materials') {
        await writePlatformMaterials(trx, data.platformMaterials.materials, now);
      } else {
        await writeClassification(trx, data.nlSfb);
      }
      await trx
        .insertInto('seed_versions')
        .values({ dataset, version, appliedAt: now })
        .onConflict((oc) => oc.column('dataset').doUpdateSet({ version, appliedAt: now }))
        .execute();
    }
  });
}

/** Fingerprint of a data set: any change to the committed file yields a new version. */
function dataVersion(content: unknown): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

async function writePlatformMaterials(
  db: Kysely<DatabaseSchema>,
  materials: PlatformMaterialSeed[],
  now: string,
): Promise<void> {
  await db
    .insertInto('accounts')
    .values({
      id: PLATFORM_DATABASE_ACCOUNT_ID,
      name: PLATFORM_DATABASE_NAME,
      accountType: VERIFIED_DATABASE_ACCOUNT_TYPE,
      createdAt: now,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ name: PLATFORM_DATABASE_NAME, accountType: VERIFIED_DATABASE_ACCOUNT_TYPE }),
    )
    .execute();

  const rows: Insertable<MaterialsTable>[] = materials.map((material) => ({
    id: material.id,
    accountId: PLATFORM_DATABASE_ACCOUNT_ID,
    name: JSON.stringify(material.name),
    elementFamily: material.elementFamily,
    description: JSON.stringify(material.description),
    supplier: material.supplier,
    specificWeight: material.specificWeight,
    lifeTime: material.lifeTime,
    circular: JSON.stringify(material.circular),
    financial: JSON.stringify(material.financial),
    createdAt: now,
    updatedAt: now,
  }));
  for (const chunk of chunks(rows)) {
    await db
      .insertInto('materials')
      .values(chunk)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          accountId: eb.ref('excluded.accountId'),
          name: eb.ref('excluded.name'),
          elementFamily: eb.ref('excluded.elementFamily'),
          description: eb.ref('excluded.description'),
          supplier: eb.ref('excluded.supplier'),
          specificWeight: eb.ref('excluded.specificWeight'),
          lifeTime: eb.ref('excluded.lifeTime'),
          circular: eb.ref('excluded.circular'),
          financial: eb.ref('excluded.financial'),
          updatedAt: eb.ref('excluded.updatedAt'),
        })),
      )
      .execute();
  }

  // A material dropped from the data file leaves the platform database; its matches and prices go with it (cascade).
  const keptIds = materials.map((material) => material.id);
  const platformMaterialIds = db
    .selectFrom('materials')
    .select('id')
    .where('accountId', '=', PLATFORM_DATABASE_ACCOUNT_ID);
  let removal = db.deleteFrom('materials').where('accountId', '=', PLATFORM_DATABASE_ACCOUNT_ID);
  if (keptIds.length > 0) {
    removal = removal.where('id', 'not in', keptIds);
  }
  await removal.execute();

  // Matches and prices are replaced as a whole: their order is their identity (position).
  await db.deleteFrom('material_matches').where('materialId', 'in', platformMaterialIds).execute();
  await db.deleteFrom('material_financial_values').where('materialId', 'in', platformMaterialIds).execute();
  const matchRows = materials.flatMap((material) =>
    material.matches.map((match, position) => ({ materialId: material.id, position, ...match })),
  );
  for (const chunk of chunks(matchRows)) {
    await db.insertInto('material_matches').values(chunk).execute();
  }
  const valueRows = materials.flatMap((material) =>
    material.financialValues.map(({ value, valueDate, currency, unit }, position) => ({
      materialId: material.id,
      position,
      value,
      valueDate,
      currency,
      unit,
    })),
  );
  for (const chunk of chunks(valueRows)) {
    await db.insertInto('material_financial_values').values(chunk).execute();
  }
}

async function writeClassification(db: Kysely<DatabaseSchema>, classification: ClassificationData): Promise<void> {
  const { method } = classification;
  const methodRow = {
    name: JSON.stringify(method.name),
    classificationTypeId: method.classificationTypeId,
    classificationLevelTypeId: method.classificationLevelTypeId,
  };
  await db
    .insertInto('classification_methods')
    .values({ id: method.id, ...methodRow })
    .onConflict((oc) => oc.column('id').doUpdateSet(methodRow))
    .execute();

  await db.deleteFrom('classification_codes').where('methodId', '=', method.id).execute();
  const codeRows: ClassificationCodesTable[] = classification.codes.map((code) => ({ methodId: method.id, ...code }));
  for (const chunk of chunks(codeRows)) {
    await db.insertInto('classification_codes').values(chunk).execute();
  }
}

function* chunks<Row>(rows: Row[]): Generator<Row[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    yield rows.slice(start, start + ROWS_PER_INSERT);
  }
}
