import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildingFileStatuses as S, BuildingFileType } from '../../../../shared/api/enums';
import type { BuildingFileResponse, BuildingFileStatusResponse } from '../../../../shared/api/schemas';
import { applyServerFiles, writeFileStatus } from '../../../../renderer/db/apply-pull';
import { CacheDb } from '../../../../renderer/db/cache-db';
import { nextSeen, noteFileUploaded } from '../../../../renderer/db/file-timelines';

const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const BUILDING = 'b1';
let run = 0;
let db: CacheDb | undefined;

afterEach(async () => {
  db?.close();
  db = undefined;
});

function open(): CacheDb {
  run += 1;
  db = new CacheDb(`file-timelines-${run}`);
  return db;
}

function file(id: string, status: number, lastModifiedDate: string): BuildingFileResponse {
  return { id, buildingId: BUILDING, type: BuildingFileType.Source, status, lastModifiedDate, isActive: false, isDirty: false, fileName: `${id}.ifc`, tags: [] } as unknown as BuildingFileResponse;
}

function status(id: string, value: BuildingFileStatusResponse['status']): BuildingFileStatusResponse {
  return { id, status: value, elementProcessedCount: 0, elementCount: 0, statusMessage: null };
}

describe('the statuses the app saw of a file', () => {
  it('appends each new status, leaves a repeated one alone and begins anew after an end', () => {
    const first = nextSeen([], S.Uploaded, at(0))!;
    expect(first).toEqual([{ status: S.Uploaded, at: at(0) }]);
    expect(nextSeen(first, S.Uploaded, at(1))).toBeNull();
    const mapped = [...first, { status: S.Importing, at: at(1) }, { status: S.Mapped, at: at(2) }];
    expect(nextSeen(first, S.Importing, at(1))).toEqual(mapped.slice(0, 2));
    expect(nextSeen(mapped, S.Importing, at(3))).toEqual([{ status: S.Importing, at: at(3) }]);
    expect(nextSeen(mapped.slice(0, 2), S.Error, at(4))).toEqual([...mapped.slice(0, 2), { status: S.Error, at: at(4) }]);
  });

  it('leaves out a status older than one seen during the same processing', () => {
    const refining = [{ status: S.Uploaded, at: at(0) }, { status: S.Refining, at: at(2) }];
    expect(nextSeen(refining, S.Importing, at(3))).toBeNull();
    expect(nextSeen(refining, S.Mapping, at(3))).toEqual([...refining, { status: S.Mapping, at: at(3) }]);
  });

  it('is noted as file lists and status answers are applied, the list only where no later answer is cached', async () => {
    const cache = open();
    await applyServerFiles(cache, BUILDING, [file('f1', S.Uploaded, at(0))], at(1));
    await writeFileStatus(cache, BUILDING, status('f1', S.Refining), at(3));
    // A list read before that answer, applied after it.
    await applyServerFiles(cache, BUILDING, [file('f1', S.Importing, at(2))], at(4));
    expect((await cache.fileTimelines.get('f1'))?.seen).toEqual([
      { status: S.Uploaded, at: at(1) },
      { status: S.Refining, at: at(3) },
    ]);
    await applyServerFiles(cache, BUILDING, [file('f1', S.Mapped, at(5))], at(6));
    expect((await cache.fileTimelines.get('f1'))?.seen.at(-1)).toEqual({ status: S.Mapped, at: at(6) });

    await noteFileUploaded(cache, 'f1', BUILDING, at(7));
    expect((await cache.fileTimelines.get('f1'))?.seen).toEqual([{ status: S.Uploaded, at: at(7) }]);
  });

  it('goes with its file', async () => {
    const cache = open();
    await applyServerFiles(cache, BUILDING, [file('f1', S.Mapped, at(0)), file('f2', S.Mapped, at(0))], at(1));
    await applyServerFiles(cache, BUILDING, [file('f2', S.Mapped, at(0))], at(2));
    expect(await cache.fileTimelines.toCollection().primaryKeys()).toEqual(['f2']);
  });
});
