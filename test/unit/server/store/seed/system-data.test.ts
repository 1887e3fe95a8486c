import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../../server/store/store';
import {
  NL_SFB_METHOD_ID,
  PLATFORM_DATABASE_ACCOUNT_ID,
  committedSeedData,
  seedSystemData,
  type LocalizedText,
  type MaterialCircularSeed,
  type MaterialFinancialSeed,
  type SystemSeedData,
} from '../../../../../server/store/seed/system-data';

const LANGUAGES = ['nl', 'en', 'de', 'it', 'fr', 'es'];

/** The fields spec §8 bounds to 0..1. */
const BOUNDED_FRACTIONS: (keyof MaterialCircularSeed)[] = [
  'recycledPercentageFeedstock',
  'rapidRenewablesPercentageFeedstock',
  'recycledPercentageEndOfLife',
  'landfillPercentageEndOfLife',
  'efficiencyPercentageRecyclingFeedstock',
  'efficiencyPercentageRecyclingEndOfLife',
];

let database: Database;

beforeEach(async () => {
  database = await openDatabase(':memory:');
});

afterEach(async () => {
  await database.close();
});

/** Every row the seed writes, in a stable order. */
async function seededRows(db: Database['db']) {
  return {
    accounts: await db.selectFrom('accounts').selectAll().orderBy('id').execute(),
    materials: await db.selectFrom('materials').selectAll().orderBy('id').execute(),
    matches: await db.selectFrom('material_matches').selectAll().orderBy('materialId').orderBy('position').execute(),
    values: await db
      .selectFrom('material_financial_values')
      .selectAll()
      .orderBy('materialId')
      .orderBy('position')
      .execute(),
    methods: await db.selectFrom('classification_methods').selectAll().execute(),
    codes: await db.selectFrom('classification_codes').selectAll().orderBy('code').execute(),
  };
}

function copyOf(data: SystemSeedData): SystemSeedData {
  return structuredClone(data);
}

describe('seedSystemData', () => {
  it('creates the platform database and the NL-SfB method with the expected counts', async () => {
    await seedSystemData(database.db);
    const rows = await seededRows(database.db);

    expect(rows.accounts).toEqual([
      expect.objectContaining({ id: PLATFORM_DATABASE_ACCOUNT_ID, name: 'Platform materials', accountType: 1 }),
    ]);
    expect(rows.materials).toHaveLength(221);
    expect(rows.materials.every((material) => material.accountId === PLATFORM_DATABASE_ACCOUNT_ID)).toBe(true);
    expect(rows.matches).toHaveLength(495);
    expect(rows.values).toHaveLength(116);
    expect(rows.methods).toHaveLength(1);
    expect(rows.codes).toHaveLength(972);
  });

  it('stores materials as the API describes them', async () => {
    await seedSystemData(database.db);
    const { materials, matches, values } = await seededRows(database.db);

    for (const material of materials) {
      const name = JSON.parse(material.name) as LocalizedText;
      expect(Object.keys(name), material.id).toEqual(LANGUAGES);
      expect(Object.values(name).every((text) => text.length > 0), material.id).toBe(true);
      expect(Object.keys(JSON.parse(material.description) as LocalizedText)).toEqual(LANGUAGES);

      const circular = JSON.parse(material.circular) as MaterialCircularSeed;
      for (const field of BOUNDED_FRACTIONS) {
        const share = circular[field];
        expect(share === null || (share >= 0 && share <= 1), `${material.id} ${field} ${String(share)}`).toBe(true);
      }
      const financial = JSON.parse(material.financial) as MaterialFinancialSeed;
      expect([0, 10, 20, 30]).toContain(financial.importType);
      const handlingShare = financial.handlingFeedstockPercentage;
      expect(handlingShare === null || (handlingShare >= 0 && handlingShare <= 1)).toBe(true);
    }
    expect(matches.every((match) => [10, 11, 12, 13].includes(match.matchType) && match.value.length > 0)).toBe(true);
    expect(values.every((value) => value.currency === 'EUR' && value.unit === 1 && value.value >= 0)).toBe(true);
    expect(values.every((value) => value.valueDate !== null && !Number.isNaN(Date.parse(value.valueDate)))).toBe(true);

    const concrete = materials.find((material) => (JSON.parse(material.name) as LocalizedText).en === 'Concrete');
    expect(concrete).toMatchObject({ elementFamily: 'stone', specificWeight: 2300 });
    expect(JSON.parse(concrete?.circular ?? '{}')).toMatchObject({
      landfillPercentageEndOfLife: 1,
      incinerationPercentageEndOfLife: 0,
      virginPercentageFeedstock: 1,
    });
    expect(matches.filter((match) => match.materialId === concrete?.id)).toEqual([
      { materialId: concrete?.id, position: 0, value: 'Beton', matchType: 10 },
      { materialId: concrete?.id, position: 1, value: 'Concrete', matchType: 10 },
    ]);
    expect(values.filter((value) => value.materialId === concrete?.id)).toEqual([
      expect.objectContaining({ value: 0.0035, currency: 'EUR', unit: 1, valueDate: '2018-01-01T00:00:00.000Z' }),
    ]);
  });

  it('gives every material the same id on every install', async () => {
    await seedSystemData(database.db);
    const other = await openDatabase(':memory:');
    try {
      await seedSystemData(other.db);
      const ids = (db: Database['db']) => db.selectFrom('materials').select('id').orderBy('id').execute();
      expect(await ids(other.db)).toEqual(await ids(database.db));
      expect((await ids(database.db)).map((row) => row.id)).toEqual(
        committedSeedData.platformMaterials.materials.map((material) => material.id).sort(),
      );
    } finally {
      await other.close();
    }
  });

  it('seeds NL-SfB with six names and parents that exist', async () => {
    await seedSystemData(database.db);
    const { methods, codes } = await seededRows(database.db);

    expect(methods[0]?.id).toBe('fc6b8c6b-acb6-4c8a-a18b-fafee57964f1');
    expect(NL_SFB_METHOD_ID).toBe('fc6b8c6b-acb6-4c8a-a18b-fafee57964f1');
    const name = JSON.parse(methods[0]?.name ?? '{}') as LocalizedText;
    expect(Object.keys(name)).toEqual(LANGUAGES);
    expect(Object.values(name).every((text) => text.startsWith('NL-SfB'))).toBe(true);

    const byCode = new Map(codes.map((code) => [code.code, code]));
    // 21.24 is not in the 2019 list (21.25 is); a lookup of it falls back to 21.2, then 21.
    expect(byCode.has('21.24')).toBe(false);
    expect(byCode.get('21.25')?.parentCode).toBe('21.2');
    expect(byCode.get('21.2')?.parentCode).toBe('21');
    expect(byCode.get('21')?.parentCode).toBe('2-');
    expect(byCode.get('2-')?.parentCode).toBeNull();
    expect(byCode.get('0-.10')?.parentCode).toBe('0-.1');
    expect(byCode.get('52.22')?.name).toBe('afvoeren; fecaliën, vacuümsysteem');
    expect(codes.every((code) => code.parentCode === null || byCode.has(code.parentCode))).toBe(true);
    expect(codes.filter((code) => code.parentCode === null).map((code) => code.code).sort()).toEqual(
      ['0-', '1-', '2-', '3-', '4-', '5-', '6-', '7-', '8-', '9-'],
    );
  });

  it('changes nothing when run again', async () => {
    await seedSystemData(database.db);
    const first = await seededRows(database.db);
    await seedSystemData(database.db);
    expect(await seededRows(database.db)).toEqual(first);
  });

  it('brings rows up to date when the data changes, and back', async () => {
    await seedSystemData(database.db);
    const committed = await seededRows(database.db);

    const changed = copyOf(committedSeedData);
    const [renamed, dropped] = changed.platformMaterials.materials;
    if (renamed === undefined || dropped === undefined) throw new Error('the committed data has materials');
    renamed.name.en = 'Gold (renamed)';
    renamed.matches.push({ value: 'aurum', matchType: 11 });
    changed.platformMaterials.materials.splice(1, 1);
    changed.nlSfb.codes = changed.nlSfb.codes.filter((code) => code.code !== '21.25');
    const outerWalls = changed.nlSfb.codes.find((code) => code.code === '21');
    if (outerWalls === undefined) throw new Error('21 is an NL-SfB code');
    outerWalls.name = 'Buitenwanden (gewijzigd)';

    await seedSystemData(database.db, changed);
    const updated = await seededRows(database.db);
    expect(updated.materials).toHaveLength(220);
    expect(updated.materials.some((material) => material.id === dropped.id)).toBe(false);
    expect(updated.matches.some((match) => match.materialId === dropped.id)).toBe(false);
    const renamedRow = updated.materials.find((material) => material.id === renamed.id);
    expect((JSON.parse(renamedRow?.name ?? '{}') as LocalizedText).en).toBe('Gold (renamed)');
    expect(updated.matches.filter((match) => match.materialId === renamed.id).map((match) => match.value)).toEqual([
      'Gold',
      'Goud',
      'aurum',
    ]);
    expect(updated.codes).toHaveLength(971);
    expect(updated.codes.find((code) => code.code === '21')?.name).toBe('Buitenwanden (gewijzigd)');

    await seedSystemData(database.db);
    const restored = await seededRows(database.db);
    const withoutTimestamps = (rows: typeof committed) => ({
      ...rows,
      materials: rows.materials.map(({ createdAt: _created, updatedAt: _updated, ...material }) => material),
    });
    expect(withoutTimestamps(restored)).toEqual(withoutTimestamps(committed));
  });

  it('repairs rows when the stored data version is not this release', async () => {
    await seedSystemData(database.db);
    const committed = await seededRows(database.db);
    const seedDb = database.db.withTables<{ seed_versions: { dataset: string; version: string; appliedAt: string } }>();
    await seedDb.updateTable('seed_versions').set({ version: 'an older release' }).execute();
    await database.db.deleteFrom('classification_codes').where('code', '=', '21').execute();
    await database.db.deleteFrom('material_matches').execute();

    await seedSystemData(database.db);
    const repaired = await seededRows(database.db);
    expect(repaired.codes).toEqual(committed.codes);
    expect(repaired.matches).toEqual(committed.matches);
  });
});
