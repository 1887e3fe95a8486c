import { describe, expect, it } from 'vitest';
import { BuildingFileStatuses as S, BuildingFileType as T } from '../../../../../shared/api/enums';
import type { FileStatusRow } from '../../../../../renderer/db/schema';
import { isBusy, liveStatusOf, progressPercent } from '../../../../../renderer/views/buildings/file-progress';

const file = { type: T.Source, status: S.Refining, lastModifiedDate: '2026-01-01T10:00:00.000Z' };

function status(fields: Partial<FileStatusRow>): FileStatusRow {
  return { id: 'f', buildingId: 'b', status: S.Refining, elementProcessedCount: 40, elementCount: 160, statusMessage: 'Refining', fetchedAt: '2026-01-01T10:05:00.000Z', ...fields };
}

describe('a file the server works on', () => {
  it('is a source file between upload and Mapped, or a passport being made', () => {
    const busy = (type: number, value: number) => isBusy(type, value);
    expect([S.Uploaded, S.Importing, S.Imported, S.Refining, S.Refined, S.Mapping].every((value) => busy(T.Source, value))).toBe(true);
    expect([S.Mapped, S.Error, S.UnknownImportFile, S.Creating].some((value) => busy(T.Source, value))).toBe(false);
    expect(busy(T.PassportPdf, S.Creating)).toBe(true);
    expect(busy(T.PassportExcel, S.Uploaded)).toBe(false);
    expect(busy(T.Information, S.Creating)).toBe(false);
  });

  it('shows the status read after its last change, with the elements done so far', () => {
    const live = liveStatusOf(file, status({}));
    expect(live).toEqual({ status: S.Refining, busy: true, processed: 40, total: 160, message: 'Refining' });
    expect(progressPercent(live)).toBe(25);
  });

  it('shows the listed status when the status read is older than the file’s last change, or missing', () => {
    expect(liveStatusOf(file, status({ status: S.Importing, fetchedAt: '2026-01-01T09:00:00.000Z' })).status).toBe(S.Refining);
    const listed = liveStatusOf(file, undefined);
    expect(listed).toEqual({ status: S.Refining, busy: true, processed: null, total: null, message: null });
    expect(progressPercent(listed)).toBeNull();
  });

  it('has no progress once done, but keeps the outcome’s message', () => {
    const live = liveStatusOf(file, status({ status: S.Error, statusMessage: 'sheet New row 4: negative volume' }));
    expect(live).toEqual({ status: S.Error, busy: false, processed: null, total: null, message: 'sheet New row 4: negative volume' });
  });
});
