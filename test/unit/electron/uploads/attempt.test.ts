import { describe, expect, it } from 'vitest';
import { hasLanded } from '../../../../electron/uploads/attempt';
import type { UploadRecord } from '../../../../electron/uploads/ledger';
import type { RemoteFile } from '../../../../electron/uploads/remote';

const base = {
  entry: { size: 100 },
  createdRemote: true,
  remoteStamp: '2026-01-01T00:00:00.000Z',
} as unknown as UploadRecord;

function file(changes: Partial<RemoteFile>): RemoteFile {
  return { id: 'f', status: 6, fileSize: null, lastModifiedDate: '2026-01-01T00:00:00.000Z', type: 0, ...changes };
}

describe('hasLanded', () => {
  it('takes a file this upload created as landed once it has content of the upload’s size', () => {
    expect(hasLanded(base, file({}))).toBe(false);
    expect(hasLanded(base, file({ status: 1, fileSize: 100 }))).toBe(true);
    expect(hasLanded(base, file({ status: 1, fileSize: 99 }))).toBe(false);
  });

  it('takes an existing file as landed only once it changed since just before the bytes went out', () => {
    const version = { ...base, createdRemote: false };
    expect(hasLanded(version, file({ status: 3, fileSize: 100 }))).toBe(false);
    expect(hasLanded(version, file({ status: 1, fileSize: 100, lastModifiedDate: '2026-01-01T00:00:05.000Z' }))).toBe(true);
    expect(hasLanded({ ...version, remoteStamp: null }, file({ status: 1, fileSize: 100, lastModifiedDate: '2026-01-01T00:00:05.000Z' }))).toBe(false);
  });
});
