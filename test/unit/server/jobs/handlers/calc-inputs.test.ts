import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileElementsForCalc } from '../../../../../server/jobs/handlers/calc-inputs';
import { ensureLocalAccount } from '../../../../../server/store/seed/local-account';
import { seedDemo } from '../../../../../server/store/seed/demo';
import { seedSystemData } from '../../../../../server/store/seed/system-data';
import { openDatabase, type Database } from '../../../../../server/store/store';

const CONCRETE = 'f042f35e-5baf-47bd-9603-2a2e079f06cc';
const NOW = '2024-01-01T00:00:00.000Z';

let database: Database;
let fileId: string;

beforeEach(async () => {
  database = await openDatabase(':memory:');
  const { db } = database;
  await seedSystemData(db);
  const { accountId } = await ensureLocalAccount(db);
  await seedDemo(db, accountId);
  const buildingId = (await db.selectFrom('buildings').select('id').executeTakeFirstOrThrow()).id;
  fileId = randomUUID();
  await db
    .insertInto('building_files')
    .values({
      id: fileId, buildingId, type: 0, fileName: 'model.ifc', fileSize: 1, status: 3, statusMessage: null, isActive: 0, isDirty: 0,
      lastModifiedDate: NOW, tags: '[]', preferredAccountIds: '[]', validation: null, elementProcessedCount: 0, elementCount: 0,
      blobKey: null, contentType: null, language: null, createdAt: NOW, rejectedRows: '[]', rejectedCount: 0,
    })
    .execute();
});

afterEach(async () => {
  await database.close();
});

/** `count` elements e000001 … of the file; every third mapped to concrete. */
async function insertElements(count: number): Promise<void> {
  await sql`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
    insert into elements (buildingFileId, id, name, materialName, volume, phaseLookup, classificationLookup, quantitySource, mappingType, mappingId)
    select ${fileId}, printf('e%06d', i), 'Wall', 'Concrete', 1.5, '[]', '[]', 'model',
      case when i % 3 = 0 then 10 end, case when i % 3 = 0 then ${CONCRETE} end
    from n
  `.execute(database.db);
}

describe('fileElementsForCalc', () => {
  it('reads every element of a file larger than one read, once each, in id order, with the catalogue their mappings reach', async () => {
    await insertElements(25_001);
    const { elements, catalogue } = await fileElementsForCalc(database, [fileId]);
    expect(elements).toHaveLength(25_001);
    expect(elements[0]).toMatchObject({ id: 'e000001', volume: 1.5, materialName: 'Concrete', mapping: null, classificationId: null });
    expect(elements.at(-1)?.id).toBe('e025001');
    expect(elements.map((element) => element.id)).toEqual(Array.from({ length: 25_001 }, (_, index) => `e${String(index + 1).padStart(6, '0')}`));
    expect(elements.filter((element) => element.mapping?.id === CONCRETE)).toHaveLength(8_333);
    expect([...catalogue.materials.keys()]).toEqual([CONCRETE]);
  });
});
