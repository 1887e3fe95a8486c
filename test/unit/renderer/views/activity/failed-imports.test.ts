import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildingFileStatuses, BuildingFileType } from '../../../../../shared/api/enums';
import { CacheDb } from '../../../../../renderer/db/cache-db';
import { writeFileStatus } from '../../../../../renderer/db/apply-pull';
import { failedImports } from '../../../../../renderer/views/activity/failed-imports';
import { BUILDING, file } from '../buildings/files-harness';

const OTHER = '20000000-0000-4000-8000-000000000002';
let db: CacheDb;

afterEach(async () => {
  db.close();
  await db.delete();
});

describe('failedImports', () => {
  it('lists the source files whose latest known status is a failure, by name, with their buildings', async () => {
    db = new CacheDb('failed-imports');
    await db.files.bulkPut(
      [
        file('f1', 'truncated.ifc', BuildingFileStatuses.UnknownImportFile),
        { ...file('f2', 'budget.ifc', BuildingFileStatuses.Error), buildingId: OTHER },
        file('f3', 'fine.ifc', BuildingFileStatuses.Mapped),
        file('f4', 'notes.pdf', BuildingFileStatuses.Error, { type: BuildingFileType.Information }),
        file('f5', 'listed-busy.ifc', BuildingFileStatuses.Refining),
        file('f6', 'listed-failed.ifc', BuildingFileStatuses.Error),
      ].map((row) => ({ ...row, elementsStamp: null })),
    );
    // A later /status answer wins over the list: one file failed since, another was uploaded again.
    const later = '2027-01-01T00:00:00.000Z';
    await writeFileStatus(db, BUILDING, { id: 'f5', status: BuildingFileStatuses.Error, statusMessage: 'Stopped.', elementProcessedCount: 0, elementCount: 0 }, later);
    await writeFileStatus(db, BUILDING, { id: 'f6', status: BuildingFileStatuses.Importing, statusMessage: null, elementProcessedCount: 0, elementCount: 0 }, later);

    expect(await failedImports(db)).toEqual([
      { fileId: 'f2', buildingId: OTHER, fileName: 'budget.ifc' },
      { fileId: 'f5', buildingId: BUILDING, fileName: 'listed-busy.ifc' },
      { fileId: 'f1', buildingId: BUILDING, fileName: 'truncated.ifc' },
    ]);
  });
});
