import { describe, expect, it } from 'vitest';
import {
  recentPassports,
  unsettledPassportFailures,
  uploadLists,
  uploadPercent,
} from '../../../../../renderer/views/activity/activity-lists';
import { dropFile, folder, passport } from './activity-fixtures';

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('uploadLists', () => {
  it('lists the running files, then every failed one and the latest finished ones, newest first, across folders', () => {
    const files = new Map([
      [
        'a',
        [
          dropFile('a', 'old-mapped.ifc', { state: 'mapped', updatedAt: at(1) }),
          dropFile('a', 'failed-long-ago.ifc', { state: 'failed', updatedAt: at(0) }),
          dropFile('a', 'uploading.ifc', { state: 'uploading', updatedAt: at(5) }),
          dropFile('a', 'new-mapped.ifc', { state: 'mapped', updatedAt: at(9) }),
        ],
      ],
      [
        'b',
        [
          dropFile('b', 'hashing.ifc', { state: 'hashing', updatedAt: at(7) }),
          dropFile('b', 'stored.pdf', { kind: 'information', state: 'stored', updatedAt: at(8) }),
          dropFile('b', 'failed.ifc', { state: 'failed', updatedAt: at(6) }),
        ],
      ],
      // The files of a folder that was removed since.
      ['gone', [dropFile('gone', 'x.ifc', { state: 'failed', updatedAt: at(9) })]],
    ]);

    const lists = uploadLists([folder('a'), folder('b')], files, 2);

    expect(lists.running.map((item) => item.file.path)).toEqual(['hashing.ifc', 'uploading.ifc']);
    expect(lists.ended.map((item) => item.file.path)).toEqual(['new-mapped.ifc', 'stored.pdf', 'failed.ifc', 'failed-long-ago.ifc']);
    expect(lists.ended[1]?.folder.id).toBe('b');
    expect(lists.failedCount).toBe(2);
  });

  it('lists nothing for folders whose files were not read', () => {
    expect(uploadLists([folder('a')], new Map())).toEqual({ running: [], ended: [], failedCount: 0 });
  });
});

describe('uploadPercent', () => {
  it('is the share done, capped at 100, and null without a known total', () => {
    expect(uploadPercent(dropFile('a', 'x', { progress: { step: 'upload', done: 256, total: 1024 } }))).toBe(25);
    expect(uploadPercent(dropFile('a', 'x', { progress: { step: 'processing', done: 12, total: 10 } }))).toBe(100);
    expect(uploadPercent(dropFile('a', 'x', { progress: { step: 'upload', done: 5, total: null } }))).toBeNull();
    expect(uploadPercent(dropFile('a', 'x', { progress: { step: 'upload', done: 0, total: 0 } }))).toBeNull();
    expect(uploadPercent(dropFile('a', 'x'))).toBeNull();
  });
});

describe('passports', () => {
  const history = [
    passport('pdf-failed-then-saved', { state: 'failed', requestedAt: at(1), updatedAt: at(2) }),
    passport('pdf-saved', { state: 'downloaded', requestedAt: at(3), updatedAt: at(4), filePath: '/srv/p.pdf' }),
    passport('xlsx-failed', { format: 'xlsx', state: 'failed', requestedAt: at(0), updatedAt: at(1) }),
    passport('other-target-failed', { targetId: 't2', state: 'failed', requestedAt: at(5), updatedAt: at(6) }),
    passport('generating', { targetId: 't3', state: 'generating', requestedAt: at(0), updatedAt: at(0) }),
  ];

  it('counts a failure until a later passport of the same target and format exists', () => {
    expect(unsettledPassportFailures(history).map((entry) => entry.id)).toEqual(['other-target-failed', 'xlsx-failed']);
  });

  it('lists the running ones and unsettled failures always, and the latest others up to the limit, newest first', () => {
    expect(recentPassports(history, 1).map((entry) => entry.id)).toEqual(['other-target-failed', 'pdf-saved', 'xlsx-failed', 'generating']);
    expect(recentPassports(history).map((entry) => entry.id)).toEqual([
      'other-target-failed',
      'pdf-saved',
      'pdf-failed-then-saved',
      'xlsx-failed',
      'generating',
    ]);
  });
});
